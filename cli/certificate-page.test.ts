/**
 * The certificate page in a real browser: `dsh-kit certify --html` on a failing mutant (A6) as a
 * child process, the page opened in headless Chromium (`@sparticuz/chromium`, driven by
 * `puppeteer-core`): no console error, no failed or outside request, one row per clause of the
 * report, and a failing row's link opens its section with the swim-lane timeline visible. The
 * screenshots land in `.dsh-kit/artifacts/` (git-ignored): `certificate.png` (the head of the page and
 * the clause table) and `certificate-failure.png` (the opened failure).
 */
import { execFile } from 'node:child_process'
import { mkdirSync, mkdtempSync, readFileSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { promisify } from 'node:util'
import chromium from '@sparticuz/chromium'
import puppeteer from 'puppeteer-core'
import type { Browser } from 'puppeteer-core'
import { describe, expect, it } from 'vitest'
import type { Report } from '../conformance/certify/report.js'
import { KIT_ROOT } from './adapter-loader.js'

const exec = promisify(execFile)
const CLI = join(KIT_ROOT, 'dist', 'cli', 'main.js')
const A6 = 'conformance/mutants/a6-unannounced-disposed-edge.ts'
const ARTIFACTS = join(KIT_ROOT, '.dsh-kit', 'artifacts')

async function dshKit(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await exec(process.execPath, [CLI, ...args], { cwd: KIT_ROOT, maxBuffer: 64 * 1024 * 1024 })
    return { code: 0, stdout, stderr }
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string }
    return { code: e.code, stdout: e.stdout, stderr: e.stderr }
  }
}

/** Headless Chromium, or an error that says why it could not start (never a silent skip). */
async function launch(): Promise<Browser> {
  let executablePath = '(not unpacked)'
  try {
    executablePath = await chromium.executablePath()
    return await puppeteer.launch({
      executablePath, headless: 'shell',
      // As root (CI) Chromium needs --no-sandbox; the network flags keep it from calling out of a closed network.
      args: [...chromium.args, '--no-sandbox', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
    })
  } catch (error) {
    throw new Error(`the certificate page test needs headless Chromium from @sparticuz/chromium (a dev dependency; \`npm ci\` installs it), and it did not start from ${executablePath}: ${(error as Error).message}`)
  }
}

describe('the certificate page in a real browser', () => {
  it('certify --html on mutant A6: no console error, a row per clause, a failure link shows its timeline; screenshots saved', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'dsh-certificate-'))
    const page = join(dir, 'certificate.html')
    const json = join(dir, 'report.json')
    const certify = await dshKit(['certify', '--adapter', A6, '--out', join(dir, 'out'), '--json', json, '--html', page])
    expect(certify.code, certify.stderr).toBe(1)
    expect(certify.stderr).toContain(`wrote ${page}`)
    const report = JSON.parse(readFileSync(json, 'utf8')) as Report
    const simulated = report.clauses.find((c) => c.status === 'fail' && c.failure?.timeline !== undefined)
    expect(simulated, 'A6 fails some clause in a simulated run').toBeDefined()

    const browser = await launch()
    try {
      const tab = await browser.newPage()
      await tab.setViewport({ width: 1280, height: 1000 })
      const problems: string[] = []
      tab.on('console', (m) => { if (m.type() === 'error') problems.push(`console: ${m.text()}`) })
      tab.on('pageerror', (e) => problems.push(`page error: ${(e as Error).message}`))
      tab.on('requestfailed', (r) => problems.push(`request failed: ${r.url()} ${r.failure()?.errorText ?? ''}`))
      tab.on('request', (r) => { if (!r.url().startsWith('file:')) problems.push(`outside request: ${r.url()}`) })
      await tab.goto(pathToFileURL(page).href, { waitUntil: 'load' })

      expect(await tab.$eval('#verdict', (el) => el.textContent)).toMatch(/^FAILED/)
      const rows = await tab.$$eval('tr.clause', (trs) => trs.map((tr) => ({ key: tr.getAttribute('data-key'), status: tr.querySelector('.status')?.textContent })))
      expect(rows).toHaveLength(report.clauses.length)
      // The page groups the rows by clause group: the same clauses, the same failing ones.
      expect(rows.map((r) => r.key).sort()).toEqual(report.clauses.map((c) => c.key).sort())
      expect(rows.filter((r) => r.status === 'FAIL').map((r) => r.key).sort()).toEqual([...report.failing].sort())
      mkdirSync(ARTIFACTS, { recursive: true })
      const overview = join(ARTIFACTS, 'certificate.png')
      await tab.screenshot({ path: overview })

      // The failure's section is folded: its timeline is not visible until its row's link is clicked.
      const section = `failure-${simulated!.key.toLowerCase().replace(/[^a-z0-9]+/g, '-')}`
      const lanes = `#${section}-lanes`
      const visible = (): Promise<boolean> => tab.$eval(lanes, (el) => el.checkVisibility())
      expect(await visible()).toBe(false)
      await tab.click(`tr.clause[data-key="${simulated!.key}"] td.key a`)
      await tab.waitForFunction(`document.getElementById(${JSON.stringify(section)}).open`, { timeout: 5_000 })
      expect(await visible()).toBe(true)
      expect(await tab.$eval(`#${section} pre.program`, (el) => el.textContent)).toMatch(/^program\(\[/)
      expect(await tab.$eval(`#${section} pre.replay`, (el) => el.textContent)).toContain(`--adapter ${A6}`)
      expect(await tab.$$eval(`${lanes} tr.violation`, (trs) => trs.length)).toBeGreaterThan(0)
      await tab.screenshot({ path: join(ARTIFACTS, 'certificate-failure.png') })

      expect(problems).toEqual([])
      expect(statSync(overview).size).toBeGreaterThan(10_000)
    } finally {
      await browser.close()
    }
  }, 180_000)
})
