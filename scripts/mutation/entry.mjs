// Print the equivalent.json / kills.json entry of mutants of a kept run, by id, to paste and
// complete (`reason` for equivalent.json; `check` and `clause` for kills.json):
//
//   node scripts/mutation/entry.mjs [--work <dir>] <id>...
import { join, dirname, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { mutantsOf } from './summarize.mjs'

const here = dirname(fileURLToPath(import.meta.url))
const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { work: { type: 'string', default: join(here, '..', '..', '.dsh-kit', 'mutation') } },
})
const work = resolve(values.work)
const mutants = await mutantsOf({ report: join(work, 'instrumented', 'stryker-report.json'), log: join(work, 'certify-log.jsonl'), maps: join(work, 'maps') })
const clip = (text, n = 80) => { const t = text.replace(/\s+/g, ' ').trim(); return t.length > n ? `${t.slice(0, n - 1)}…` : t }
for (const id of positionals) {
  const m = mutants.find((x) => x.id === id)
  if (!m) { process.stderr.write(`entry: no mutant ${id}\n`); process.exitCode = 64; continue }
  console.log(JSON.stringify({ file: m.file, line: m.line, mutator: m.mutator, original: clip(m.original), replacement: m.replacement.replace(/\s+/g, ' ').trim() }))
}
