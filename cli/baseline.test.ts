/**
 * Certify as a CI gate, through the built CLI as users run it: the baseline is two-way on a gallery
 * mutant (the baseline `--write-baseline` wrote passes; without one of its entries the run exits 1
 * naming that clause; with a passing clause added it exits 1 naming it), the text, JSON, JUnit and
 * badge say which failures are known, a MUST clause left unchecked fails unless the baseline lists
 * it with its reason, a bad baseline file is exit 65 naming the field, and `fuzz` and `run` read the
 * same file (a violation of a listed clause is known and does not fail them).
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { XMLParser } from 'fast-xml-parser'
import { describe, expect, it } from 'vitest'
import type { Report } from '../conformance/certify/report.js'
import { KIT_ROOT } from './adapter-loader.js'
import { dshKit, outsideProject } from './child-cli.test-helper.js'
import { EXIT } from './exit-codes.js'

const A5 = 'conformance/mutants/a5-clear-next-turn-first.ts'
const A6 = 'conformance/mutants/a6-unannounced-disposed-edge.ts'
// A5 writes clear()'s next-turn splice first: §9 121 fails; §9 119 (splice coordinates) passes.
const ONLY = ['--only', 'AGENT-INBOX-TEST 121', '--only', 'AGENT-INBOX-TEST 119', '--workers', '2']

const readJson = <T>(file: string): T => JSON.parse(readFileSync(file, 'utf8')) as T

describe('certify --baseline: the gate is two-way', () => {
  it('on mutant A5: the baseline it wrote passes (known, in text, JSON, JUnit and badge); without its entry, or with a passing clause, exit 1 naming it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'dsh-baseline-'))
    const file = join(dir, 'baseline.json')
    const out = ['--out', join(dir, 'failures')]

    const written = await dshKit(['certify', '--adapter', A5, ...ONLY, ...out, '--write-baseline', file])
    expect(written.code, written.stdout + written.stderr).toBe(EXIT.ok)
    expect(written.stderr).toContain(`wrote ${file}: 1 failure, 0 unchecked`)
    const baseline = readJson<{ kit: string; contract: string; adapter: string; failures: { clause: string; reason: string; link: string }[] }>(file)
    expect(baseline).toEqual({ kit: '0.1.0', contract: '0.1.0', adapter: 'mutant:a5-clear-next-turn-first@0.1.0', failures: [{ clause: 'AGENT-INBOX-TEST 121', reason: '', link: '' }] })

    // The implementer fills in the reason; the gate then passes and says what it knows.
    writeFileSync(file, JSON.stringify({ ...baseline, failures: [{ clause: 'AGENT-INBOX-TEST 121', reason: 'clear() order, issue #7', link: 'https://example.com/7' }] }))
    const json = join(dir, 'c.json')
    const xml = join(dir, 'c.xml')
    const badge = join(dir, 'badge.svg')
    const gated = await dshKit(['certify', '--adapter', A5, ...ONLY, ...out, '--baseline', file, '--json', json, '--reporter', `junit=${xml}`, '--badge', badge])
    expect(gated.code, gated.stdout + gated.stderr).toBe(EXIT.ok)
    expect(gated.stdout).toMatch(/^ {2}fail {2}121 .*known: clear\(\) order, issue #7$/m)
    expect(gated.stdout).toContain(`baseline ${file} (written for mutant:a5-clear-next-turn-first@0.1.0, kit 0.1.0, contract 0.1.0):\n  known failures (1):\n    AGENT-INBOX-TEST 121  clear() order, issue #7  (https://example.com/7)\n  new failures: none`)
    expect(gated.stdout).toMatch(new RegExp(`^PASSED \\(baseline ${file.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}: 1 known failure\\): 4 clauses pass, 1 fail, 0 unchecked`, 'm'))
    expect(gated.stdout).not.toContain('AGENT-INBOX-TEST 121 violated')
    const report = readJson<Report>(json)
    expect(report.passed).toBe(true)
    expect(report.failing).toEqual(['AGENT-INBOX-TEST 121'])
    expect(report.clauses.find((c) => c.key === 'AGENT-INBOX-TEST 121')?.known).toEqual({ reason: 'clear() order, issue #7', link: 'https://example.com/7' })
    expect(report.gate).toMatchObject({ newFailures: [], baseline: { file, knownFailures: ['AGENT-INBOX-TEST 121'], stale: [] } })
    expect(report.tiers?.MUST).toEqual({ clauses: 5, pass: 4, fail: 1, unchecked: 0 })
    const suite = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '' }).parse(readFileSync(xml, 'utf8')).testsuites.testsuite
    expect(suite).toMatchObject({ failures: '0', skipped: '1' })
    const known = (suite.testcase as { name: string; skipped?: { message: string } }[]).find((c) => c.name.startsWith('AGENT-INBOX-TEST 121'))
    expect(known?.skipped?.message).toMatch(/^known \(baseline\): clear\(\) order, issue #7 \(https:\/\/example\.com\/7\); fails with: /)
    expect(readFileSync(badge, 'utf8')).toContain('<title>dsh-kit 0.1.0: 4/5 · 1 known</title>')

    // Removing the entry: the failure is new.
    writeFileSync(file, JSON.stringify({ ...baseline, failures: [] }))
    const removed = await dshKit(['certify', '--adapter', A5, ...ONLY, ...out, '--baseline', file])
    expect(removed.code, removed.stdout).toBe(EXIT.violation)
    expect(removed.stdout).toMatch(/^FAILED \(1 new failure not in the baseline: AGENT-INBOX-TEST 121\): /m)
    expect(removed.stdout).toContain('AGENT-INBOX-TEST 121 violated')

    // Adding a clause that passes: the baseline is out of date.
    writeFileSync(file, JSON.stringify({ ...baseline, failures: [...baseline.failures, { clause: 'AGENT-INBOX-TEST 119', reason: '', link: '' }] }))
    const added = await dshKit(['certify', '--adapter', A5, ...ONLY, ...out, '--baseline', file])
    expect(added.code, added.stdout).toBe(EXIT.violation)
    expect(added.stdout).toMatch(/^FAILED \(the baseline is out of date: AGENT-INBOX-TEST 119 now passes \(remove it from "failures"\)\): /m)
    expect(added.stdout).toContain('    AGENT-INBOX-TEST 119  listed in "failures", now passes')
  }, 240_000)

  it('a MUST clause left unchecked fails the verdict unless the baseline lists it with its reason; a bad baseline is exit 65 naming the field', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'dsh-unchecked-'))
    const args = ['certify', '--adapter', 'conformance/testing/no-minting-adapter.ts', '--only', 'AGENT-PREPARE-PUBLISH 59', '--only', 'AGENT-FACTORY-SEAM 1', '--out', join(dir, 'f')]
    const plain = await dshKit(args)
    expect(plain.code, plain.stdout).toBe(EXIT.violation)
    expect(plain.stdout).toMatch(/^FAILED \(1 MUST clause left unchecked: AGENT-PREPARE-PUBLISH 59\): 1 clauses pass, 0 fail, 1 unchecked/m)
    const file = join(dir, 'b.json')
    const base = { kit: '0.1.0', contract: '0.1.0', adapter: 'kit process without scopeMinting@0.1.0', failures: [] }
    writeFileSync(file, JSON.stringify({ ...base, unchecked: [{ clause: 'AGENT-PREPARE-PUBLISH 59', reason: 'our runtime cannot abort scope minting', link: '' }] }))
    const accepted = await dshKit([...args, '--baseline', file])
    expect(accepted.code, accepted.stdout).toBe(EXIT.ok)
    expect(accepted.stdout).toContain('  known unchecked (1):\n    AGENT-PREPARE-PUBLISH 59  our runtime cannot abort scope minting')
    writeFileSync(file, JSON.stringify({ ...base, unchecked: [{ clause: 'AGENT-PREPARE-PUBLISH 59' }] }))
    const bad = await dshKit([...args, '--baseline', file])
    expect(bad.code).toBe(EXIT.input)
    expect(bad.stderr).toContain(`dsh-kit: --baseline ${file}: unchecked[0].reason is empty: an unchecked clause is accepted only with its reason`)
    const missing = await dshKit([...args, '--baseline', join(dir, 'none.json')])
    expect(missing.code).toBe(EXIT.input)
    expect(missing.stderr).toMatch(/--baseline .*none\.json: cannot read it \(ENOENT\)/)
  }, 120_000)
})

describe('fuzz and run read the same baseline', () => {
  it('on mutant A6: a violation of a listed clause is known, does not stop or fail the campaign, and merge keeps it known', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'dsh-fuzz-baseline-'))
    const file = join(dir, 'b.json')
    writeFileSync(file, JSON.stringify({ kit: '0.1.0', contract: '0.1.0', adapter: 'mutant:a6', failures: [{ clause: 'AGENT-REGISTRY-LIFECYCLE 79', reason: 'the announced-edge bug', link: '' }] }))
    const fuzz = ['fuzz', '--adapter', A6, '--runs', '120', '--workers', '1', '--no-timelines', '--out', join(dir, 'runs')]
    const plain = await dshKit(fuzz)
    expect(plain.code, plain.stdout).toBe(EXIT.violation)
    expect(plain.stdout).toMatch(/stopped by failure/)
    const json = join(dir, 'shard.json')
    const known = await dshKit([...fuzz, '--baseline', file, '--json', json, '--reporter', `junit=${join(dir, 'f.xml')}`])
    expect(known.code, known.stdout).toBe(EXIT.ok)
    expect(known.stdout).toContain('AGENT-REGISTRY-LIFECYCLE 79 violated (known: the announced-edge bug): ')
    expect(known.stdout).toMatch(/stopped by runs/)
    expect(known.stdout).toMatch(/^PASSED: no new violation in \d+ runs; known \(baseline\): AGENT-REGISTRY-LIFECYCLE 79 in \d+ runs?$/m)
    expect(readJson<{ passed: boolean; knownClauses: string[] }>(json)).toMatchObject({ passed: true, knownClauses: ['AGENT-REGISTRY-LIFECYCLE 79'] })
    expect(readFileSync(join(dir, 'f.xml'), 'utf8')).toMatch(/<skipped message="known \(baseline\): the announced-edge bug; violated: /)
    const merged = await dshKit(['merge', json])
    expect(merged.code, merged.stdout).toBe(EXIT.ok)
    expect(merged.stdout).toContain('AGENT-REGISTRY-LIFECYCLE 79 violated (known: the announced-edge bug)')

    // run: the user's program that shows the known bug.
    const project = outsideProject('dsh-run-baseline-')
    writeFileSync(join(project, 'bug.mjs'), `import { program, actor, create, on, act, unloadOwner } from 'dsh-lifecycle-kit/scenarios'
export default program([actor('a1', create('s1'))], { listeners: [on('session/created', act(unloadOwner('a1')))] })
`)
    const runArgs = ['run', 'bug.mjs', '--adapter', join(KIT_ROOT, A6), '--runs', '5', '--no-timelines']
    const failing = await dshKit(runArgs, { cwd: project })
    expect(failing.code, failing.stdout + failing.stderr).toBe(EXIT.violation)
    const passing = await dshKit([...runArgs, '--baseline', file], { cwd: project })
    expect(passing.code, passing.stdout + passing.stderr).toBe(EXIT.ok)
    expect(passing.stdout).toMatch(/^PASSED: no new violation in 5 runs; known \(baseline\): AGENT-REGISTRY-LIFECYCLE 79 in 5 runs$/m)
  }, 180_000)
})
