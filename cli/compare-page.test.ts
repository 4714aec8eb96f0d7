/**
 * The comparison page of the three implementations the kit certifies (the reference, the
 * from-scratch example, the published upstream AgentLoop), in a real browser: `dsh-kit compare` on
 * the certificates kept in `docs/certificates/` as a child process, the page equal to the committed
 * `docs/compare.html` (`npm run docs:compare` rewrites both), opened in headless Chromium: no
 * console error and no request outside the file, a row for every clause and a column for every
 * implementation, the clauses where they differ first, and a failing cell's link opening its shrunk
 * program and replay command. The screenshot lands in `.dsh-kit/artifacts/compare.png` (git-ignored);
 * the committed one is `docs/compare.png`.
 */
import { execFile } from 'node:child_process'
import { mkdirSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { promisify } from 'node:util'
import chromium from '@sparticuz/chromium'
import puppeteer from 'puppeteer-core'
import { describe, expect, it } from 'vitest'
import type { Report } from '../conformance/certify/report.js'
import { CLAUSES } from '../conformance/clauses/clauses.js'
import type { Comparison } from '../report/compare/index.js'
import { KIT_ROOT } from './adapter-loader.js'
import { EXIT } from './exit-codes.js'

const exec = promisify(execFile)
const CERTIFICATES = ['reference', 'from-scratch-factory', 'dsh-agent-loop'].map((name) => join('docs', 'certificates', `${name}.json`))
const ARTIFACTS = join(KIT_ROOT, '.dsh-kit', 'artifacts')

describe('the comparison page in a real browser', () => {
  it('compare of the reference, the example and upstream: current, no console error, every clause and implementation, differences first, a failing cell opens its program and replay', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'dsh-compare-'))
    const page = join(dir, 'compare.html')
    const json = join(dir, 'compare.json')
    const { stdout } = await exec(process.execPath, [join(KIT_ROOT, 'dist', 'cli', 'main.js'), 'compare', ...CERTIFICATES, '--html', page, '--json', json], { cwd: KIT_ROOT })
    expect(stdout).toMatch(new RegExp(`^${CLAUSES.length} clauses; the implementations differ on \\d+: `, 'm'))
    expect(readFileSync(page, 'utf8'), 'docs/compare.html is stale: npm run docs:compare').toBe(readFileSync(join(KIT_ROOT, 'docs', 'compare.html'), 'utf8'))
    const reports = CERTIFICATES.map((f) => JSON.parse(readFileSync(join(KIT_ROOT, f), 'utf8')) as Report)
    const comparison = JSON.parse(readFileSync(json, 'utf8')) as Comparison
    const labels = reports.map((r) => `${r.adapter.name}@${r.adapter.version}`)
    const keys = [...new Set(reports.flatMap((r) => r.clauses.map((c) => c.key)))]
    const differing = keys.filter((k) => new Set(reports.map((r) => r.clauses.find((c) => c.key === k)?.status)).size > 1)
    expect(differing.length).toBeGreaterThan(0)

    let executablePath = '(not unpacked)'
    let browser
    try {
      executablePath = await chromium.executablePath()
      browser = await puppeteer.launch({ executablePath, headless: 'shell', args: [...chromium.args, '--no-sandbox', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'] })
    } catch (error) {
      throw new Error(`the comparison page test needs headless Chromium from @sparticuz/chromium (a dev dependency), and it did not start from ${executablePath}: ${(error as Error).message}`)
    }
    try {
      const tab = await browser.newPage()
      await tab.setViewport({ width: 1400, height: 1500 })
      const problems: string[] = []
      tab.on('console', (m) => { if (m.type() === 'error') problems.push(`console: ${m.text()}`) })
      tab.on('pageerror', (e) => problems.push(`page error: ${(e as Error).message}`))
      tab.on('requestfailed', (r) => problems.push(`request failed: ${r.url()}`))
      tab.on('request', (r) => { if (!r.url().startsWith('file:')) problems.push(`outside request: ${r.url()}`) })
      await tab.goto(pathToFileURL(page).href, { waitUntil: 'load' })

      expect(await tab.$$eval('table.matrix th.impl', (ths) => ths.map((th) => th.textContent))).toEqual(labels)
      const rows = await tab.$$eval('table.matrix tr.clause', (trs) => trs.map((tr) => ({ key: tr.getAttribute('data-key'), differs: tr.classList.contains('differs'), cells: [...tr.querySelectorAll('td.cell')].map((td) => td.getAttribute('data-status')) })))
      expect(rows.map((r) => r.key).sort()).toEqual([...keys].sort())
      // Every clause of the table: a clause added since the certificates were made fails here (npm run docs:compare).
      expect(rows).toHaveLength(CLAUSES.length)
      expect(rows.every((r) => r.cells.length === labels.length)).toBe(true)
      // The clauses where they differ come first, and they are exactly those.
      expect(rows.slice(0, differing.length).every((r) => r.differs)).toBe(true)
      expect(rows.filter((r) => r.differs).map((r) => r.key).sort()).toEqual([...differing].sort())
      expect(comparison.differing).toBe(differing.length)
      // Per-group totals at the top: a row per group and one for all.
      const groups = await tab.$$eval('table.groups tbody tr', (trs) => trs.map((tr) => tr.querySelector('th')?.textContent))
      expect(groups).toEqual([...new Set(reports[0]!.clauses.map((c) => c.group)), 'all'])
      mkdirSync(ARTIFACTS, { recursive: true })
      const shot = join(ARTIFACTS, 'compare.png')
      await tab.screenshot({ path: shot })

      // A failing cell of a simulated run: its section is folded until the cell's link is clicked.
      const upstream = reports[2]!
      const simulated = upstream.clauses.find((c) => c.status === 'fail' && c.failure?.program !== undefined)!
      const id = `cell-3-${simulated.key.toLowerCase().replace(/[^a-z0-9]+/g, '-')}`
      expect(await tab.$eval(`#${id} pre.program`, (el) => el.checkVisibility())).toBe(false)
      await tab.click(`tr.clause[data-key="${simulated.key}"] td.cell:last-child a`)
      await tab.waitForFunction(`document.getElementById(${JSON.stringify(id)}).open`, { timeout: 5_000 })
      expect(await tab.$eval(`#${id} pre.program`, (el) => el.checkVisibility())).toBe(true)
      expect(await tab.$eval(`#${id} pre.program`, (el) => el.textContent)).toMatch(/^program\(\[/)
      expect(await tab.$eval(`#${id} pre.replay`, (el) => el.textContent)).toMatch(/^npx dsh-kit replay \S+\.json --adapter adapters\/dsh-agent-loop$/)
      expect(problems).toEqual([])
      expect(statSync(shot).size).toBeGreaterThan(10_000)
    } finally {
      await browser.close()
    }
  }, 120_000)

  it('a file that is not a certificate is exit 65 naming the field; no certificate, or no output, is a usage error', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'dsh-compare-bad-'))
    const bad = join(dir, 'fuzz.json')
    writeFileSync(bad, JSON.stringify({ adapter: { name: 'x', version: '1' }, suite: { version: '0.1.0' }, clauses: {} }))
    const run = (args: string[]): Promise<{ code: number; stderr: string }> => exec(process.execPath, [join(KIT_ROOT, 'dist', 'cli', 'main.js'), 'compare', ...args], { cwd: KIT_ROOT })
      .then(() => ({ code: 0, stderr: '' }), (e: { code: number; stderr: string }) => ({ code: e.code, stderr: e.stderr }))
    expect(await run([bad, '--html', join(dir, 'c.html')])).toEqual({ code: EXIT.input, stderr: `dsh-kit: ${bad}: clauses must be a list (expected the JSON that \`dsh-kit certify --json <file>\` writes)\n` })
    expect((await run(['--html', join(dir, 'c.html')])).code).toBe(EXIT.usage)
    expect((await run([CERTIFICATES[0]!])).code).toBe(EXIT.usage)
  }, 60_000)
})
