import { execFile } from 'node:child_process'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { describe, expect, it } from 'vitest'
import { KIT_ROOT } from './adapter-loader.js'

const exec = promisify(execFile)
const CLI = join(KIT_ROOT, 'dist', 'cli', 'main.js')

async function dshKit(args: string[], cwd = KIT_ROOT): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await exec(process.execPath, [CLI, ...args], { cwd })
    return { code: 0, stdout, stderr }
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string }
    return { code: e.code, stdout: e.stdout, stderr: e.stderr }
  }
}

describe('dsh-kit list --clause', () => {
  it('prints the clause, the contract sections it rests on in the kit\'s words, how it is checked and where the reference is', async () => {
    const run = await dshKit(['list', '--clause', 'AGENT-TEARDOWN-TEST 97'])
    expect(run.code).toBe(0)
    expect(run.stdout).toMatch(/^AGENT-TEARDOWN-TEST 97\n\n {2}Owner unload with an open turn: turn\/end precedes agent\/disposed/)
    expect(run.stdout).toMatch(/Rests on:\n {2}§5\.3 Teardown order\n {6}For an announced agent with an open turn/)
    expect(run.stdout).toMatch(/Checked by:\n {2}Directed case \(through the process port, any adapter\): owner unload with an open turn/)
    expect(run.stdout).toContain('Trace checkers, on every simulated run')
    expect(run.stdout).toContain('Rerun it alone: npx dsh-kit certify --adapter <module> --only "AGENT-TEARDOWN-TEST 97"')
    expect(run.stdout).toContain('Every clause: docs/clauses.md#agent-teardown-test-97')
  })

  it('takes a bare number and several clauses; a clause only capability-gated cases check says which capability', async () => {
    const run = await dshKit(['list', '--clause', '64', '--clause', '59'])
    expect(run.code).toBe(0)
    expect(run.stdout).toMatch(/^AGENT-ATOMIC-TEST 64\n/)
    expect(run.stdout).toContain('§12 Q10 The same-id loser\'s error')
    expect(run.stdout).toMatch(/\n\nAGENT-PREPARE-PUBLISH 59\n/)
    expect(run.stdout).toContain('A process adapter must offer the capability scopeMinting')
    expect(run.stdout).toContain('for a process adapter: pass or fail when it offers')
  })

  it('points at the shipped reference from wherever it runs', async () => {
    const run = await dshKit(['list', '--clause', '97'], mkdtempSync(join(tmpdir(), 'dsh-list-')))
    expect(run.code).toBe(0)
    expect(run.stdout).toContain(`Every clause: ${join(KIT_ROOT, 'docs', 'clauses.md')}#agent-teardown-test-97`)
  })

  it('an unknown clause is a usage error naming it (and the right group when only the group is wrong)', async () => {
    const wrongGroup = await dshKit(['list', '--clause', 'AGENT-ATOMIC-TEST 97'])
    expect(wrongGroup.code).toBe(64)
    expect(wrongGroup.stderr).toMatch(/list --clause: unknown clause "AGENT-ATOMIC-TEST 97"; clause 97 is AGENT-TEARDOWN-TEST 97/)
    const unknown = await dshKit(['list', '--clause', '999'])
    expect(unknown.code).toBe(64)
    expect(unknown.stderr).toMatch(/unknown clause "999": clause numbers run from 1 to 176/)
    expect(unknown.stdout).toBe('')
  })
})
