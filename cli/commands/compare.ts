/**
 * `dsh-kit compare <certificate.json>...`: the certificates of several implementations side by
 * side (`report/compare/`): a clause × implementation page (`--html`), its data (`--json`), and a
 * short summary on stdout. A viewer: it exits 0 once it wrote them, whatever the certificates say.
 * @module
 */
import { readFileSync } from 'node:fs'
import { compareCertificates, CompareError, readCertificate, renderComparisonHtml } from '../../report/compare/index.js'
import type { Report } from '../../conformance/certify/report.js'
import { InputError, UsageError } from '../errors.js'
import { EXIT } from '../exit-codes.js'
import { parseOptions, writableFile, writeOutput } from '../options.js'

function readCertificateFile(file: string): Report {
  let value: unknown
  try {
    value = JSON.parse(readFileSync(file, 'utf8'))
  } catch (error) {
    throw new InputError(`${file}: cannot read a certificate: ${(error as Error).message}`)
  }
  try {
    return readCertificate(value, file)
  } catch (error) {
    if (error instanceof CompareError) throw new InputError(error.message)
    throw error
  }
}

export function compareCommand(args: string[]): number {
  const { values, positionals } = parseOptions('compare', args, { html: { type: 'string' }, json: { type: 'string' } }, true)
  if (positionals.length === 0) throw new UsageError('compare needs certificates: dsh-kit compare <certificate.json>... --html <file> (each from certify --json)')
  if (values.html === undefined && values.json === undefined) throw new UsageError('compare writes a page or data: give --html <file> and/or --json <file>')
  if (values.html !== undefined) writableFile('--html', values.html)
  if (values.json !== undefined) writableFile('--json', values.json)
  const comparison = compareCertificates(positionals.map((file) => ({ file, report: readCertificateFile(file) })))
  for (const col of comparison.columns) console.log(`${col.label}: ${col.verdict}, ${col.pass} pass, ${col.fail} fail, ${col.unchecked} unchecked${col.known ? `, ${col.known} known` : ''}`)
  console.log(`${comparison.rows.length} clauses; the implementations differ on ${comparison.differing}${comparison.differing ? `: ${comparison.rows.filter((r) => r.differs).map((r) => r.key).join(', ')}` : ''}`)
  if (values.json !== undefined) writeOutput('--json', values.json, `${JSON.stringify(comparison, null, 1)}\n`)
  if (values.html !== undefined) {
    writeOutput('--html', values.html, renderComparisonHtml(comparison))
    process.stderr.write(`wrote ${values.html}\n`)
  }
  return EXIT.ok
}
