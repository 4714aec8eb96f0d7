// `npm run docs:compare`: the comparison of the three implementations the kit certifies, in docs/:
// the reference factory, the from-scratch example and the published upstream AgentLoop.
//
//   node scripts/compare-docs.mjs [--certify] [--upstream <certificate.json>]
//
// --certify first certifies the reference and the example (quick profile) into .dsh-kit/compare/;
// the upstream certificate is the one `npm run certify:upstream` wrote
// (adapters/dsh-agent-loop/.certify/report.json, against its baseline). The certificates are copied
// to docs/certificates/ with the kit's root taken out of every path (so they name no machine path),
// `dsh-kit compare` draws docs/compare.html from them, and headless Chromium (a dev dependency)
// takes its screenshot, docs/compare.png. cli/compare-page.test.ts checks the page is current and
// renders without an error.
import { execFileSync } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { parseArgs } from 'node:util'

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..')
const { values } = parseArgs({ options: { certify: { type: 'boolean', default: false }, upstream: { type: 'string', default: 'adapters/dsh-agent-loop/.certify/report.json' } } })
const cli = (args) => execFileSync(process.execPath, [join(ROOT, 'dist', 'cli', 'main.js'), ...args], { cwd: ROOT, stdio: ['ignore', 'inherit', 'inherit'] })

const work = join(ROOT, '.dsh-kit', 'compare')
const sources = [
  ['reference', join(work, 'reference.json'), []],
  ['from-scratch-factory', join(work, 'from-scratch-factory.json'), ['--adapter', 'examples/from-scratch-factory/adapter.ts']],
  ['dsh-agent-loop', join(ROOT, values.upstream), undefined],
]
mkdirSync(work, { recursive: true })
for (const [name, file, adapter] of sources) {
  if (values.certify && adapter) {
    try {
      cli(['certify', ...adapter, '--json', file, '--out', '.dsh-kit/compare/failures'])
    } catch (error) {
      if (error.status !== 1) throw error
    }
  }
  if (!existsSync(file)) throw new Error(`compare-docs: no certificate of ${name} at ${file} (${adapter ? 'rerun with --certify' : 'run npm run certify:upstream first'})`)
}

const docs = join(ROOT, 'docs')
mkdirSync(join(docs, 'certificates'), { recursive: true })
const copies = sources.map(([name, file]) => {
  const copy = join('docs', 'certificates', `${name}.json`)
  const text = readFileSync(file, 'utf8').split(`${ROOT}/`).join('')
  writeFileSync(join(ROOT, copy), text)
  return copy
})
cli(['compare', ...copies, '--html', 'docs/compare.html'])

const { default: chromium } = await import('@sparticuz/chromium')
const { default: puppeteer } = await import('puppeteer-core')
const browser = await puppeteer.launch({
  executablePath: await chromium.executablePath(), headless: 'shell',
  args: [...chromium.args, '--no-sandbox', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
})
try {
  const tab = await browser.newPage()
  await tab.setViewport({ width: 1400, height: 1500 })
  await tab.goto(pathToFileURL(join(docs, 'compare.html')).href, { waitUntil: 'load' })
  await tab.screenshot({ path: join(docs, 'compare.png') })
} finally {
  await browser.close()
}
console.log('wrote docs/certificates/*.json, docs/compare.html and docs/compare.png')
