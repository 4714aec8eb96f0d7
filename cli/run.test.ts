/**
 * `dsh-kit run` as a child process: a user's program (JSON, or a module built with the builders
 * reports print) under many schedules, a violation shrunk, saved and replayable; the program a
 * report prints, pasted into a module, reproduces the same clause; bad programs are exit 65 naming
 * the field, bad usage exit 64.
 */
import { execFile } from 'node:child_process'
import { mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { describe, expect, it } from 'vitest'
import { KIT_ROOT } from './adapter-loader.js'

const exec = promisify(execFile)
const CLI = join(KIT_ROOT, 'dist', 'cli', 'main.js')
const A6 = 'conformance/mutants/a6-unannounced-disposed-edge.ts'
const KEY = 'AGENT-REGISTRY-LIFECYCLE 79'
const EXAMPLE = 'scenarios/examples/owner-unload-in-session-created.mjs'

async function dshKit(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await exec(process.execPath, [CLI, ...args], { cwd: KIT_ROOT, maxBuffer: 64 * 1024 * 1024 })
    return { code: 0, stdout, stderr }
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string }
    return { code: e.code, stdout: e.stdout, stderr: e.stderr }
  }
}

/** A folder where `import … from 'dsh-lifecycle-kit/scenarios'` resolves, as in a user's project. */
function userProject(): string {
  const dir = mkdtempSync(join(tmpdir(), 'dsh-run-'))
  mkdirSync(join(dir, 'node_modules'))
  symlinkSync(KIT_ROOT, join(dir, 'node_modules', 'dsh-lifecycle-kit'), 'dir')
  return dir
}

// Two actors and a followup around the bug: the shrinker must cut them away.
const BUG = {
  v: 1,
  actors: [
    { id: 'a1', ops: [{ op: 'create', session: 's1' }, { op: 'followup', session: 's1' }] },
    { id: 'a2', ops: [{ op: 'create', session: 's2' }, { op: 'dispose', session: 's2' }] },
  ],
  env: { listeners: [{ event: 'session/created', session: 's1', action: { do: 'op', op: { op: 'unloadOwner', owner: 'a1' } } }] },
}

describe('dsh-kit run', () => {
  it('runs a JSON program: the violation is shrunk, saved with its adapter, replayable; the printed program pasted into a module reproduces it', async () => {
    const dir = userProject()
    const json = join(dir, 'bug.json')
    writeFileSync(json, JSON.stringify(BUG))
    const run = await dshKit(['run', json, '--adapter', A6, '--out', join(dir, 'out'), '--json', join(dir, 'report.json')])
    expect(run.code).toBe(1)
    expect(run.stdout).toContain(`${KEY} violated:`)
    expect(run.stdout).toMatch(/^dsh-kit run — adapter mutant:a6-unannounced-disposed-edge, program \S+bug\.json/)
    expect(run.stdout).toMatch(/shrunk in \d+ runs: operations 5 → 2, actors 2 → 1/)
    expect(run.stdout).toMatch(/rerun: +npx dsh-kit run \S+bug\.json --adapter conformance\/mutants\/a6-unannounced-disposed-edge\.ts --strategy portfolio --seed \d+ --runs 1/)
    const replayLine = /replay: +npx dsh-kit replay (\S+) --adapter (\S+)/.exec(run.stdout)
    expect(replayLine?.[2]).toBe(A6)
    const report = JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8'))
    expect(report.failures[0].key).toBe(KEY)
    expect(JSON.parse(readFileSync(replayLine![1]!, 'utf8'))).toMatchObject({ adapter: A6, violations: [{ clause: KEY }] })

    const replay = await dshKit(['replay', replayLine![1]!, '--adapter', A6])
    expect(replay.code).toBe(1)
    expect(replay.stdout).toContain(`reproduced: ${KEY}`)

    // The bug report's program, as printed, becomes a module file.
    const printed = /\n {2}program:\n((?: {4}.*\n)+)/.exec(run.stdout)![1]!.split('\n').map((l) => l.slice(4)).join('\n')
    const module = join(dir, 'bug.mjs')
    writeFileSync(module, `import { act, actor, create, on, program, unloadOwner } from 'dsh-lifecycle-kit/scenarios'\n\nexport default ${printed}`)
    const again = await dshKit(['run', module, '--adapter', A6, '--out', join(dir, 'out'), '--no-timelines'])
    expect(again.code).toBe(1)
    expect(again.stdout).toContain(`${KEY} violated:`)
    expect(again.stdout).toMatch(/operations 2, actors 1/)
  }, 120_000)

  it('the example program file fails on mutant A6 and passes on the reference factory (every strategy)', async () => {
    const bad = await dshKit(['run', EXAMPLE, '--adapter', A6, '--runs', '20', '--no-timelines'])
    expect(bad.code).toBe(1)
    expect(bad.stdout).toContain(`${KEY} violated:`)
    for (const strategy of ['random', 'pct', 'dfs', 'portfolio']) {
      const good = await dshKit(['run', EXAMPLE, '--strategy', strategy, '--runs', '20'])
      expect(good.code, `${strategy}: ${good.stdout}${good.stderr}`).toBe(0)
      expect(good.stdout).toMatch(/PASSED: no violation in \d+ runs/)
    }
  }, 120_000)

  it('a program naming what does not exist is exit 65 naming the field, not a pass against the mutant it was written for', async () => {
    const dir = userProject()
    const write = (name: string, text: string): string => {
      writeFileSync(join(dir, name), text)
      return join(dir, name)
    }
    // The example program with a slip in each name it uses: an owner, a listener's session, an
    // operation's session, a session event type. Each used to run and pass on A6.
    const owner = await dshKit(['run', write('owner.mjs', "import { act, actor, create, on, program, unloadOwner } from 'dsh-lifecycle-kit/scenarios'\nexport default program([actor('a1', create('s1'))], { listeners: [on('session/created', act(unloadOwner('a2')))] })\n"), '--adapter', A6, '--runs', '20'])
    expect(owner.code, owner.stdout).toBe(65)
    expect(owner.stderr).toContain('owner.mjs (default export): program.env.listeners[0].action.op.owner: no actor, creation or owner effect uses owner "a2" (owners: "a1")')
    const filter = await dshKit(['run', write('filter.json', JSON.stringify({ v: 1, actors: [{ id: 'a1', ops: [{ op: 'create', session: 's1' }] }], env: { listeners: [{ event: 'session/created', session: 'S1', action: { do: 'op', op: { op: 'unloadOwner', owner: 'a1' } } }] } })), '--adapter', A6])
    expect(filter.code).toBe(65)
    expect(filter.stderr).toContain('filter.json: program.env.listeners[0].session: no operation creates, resumes, registers or enters session "S1" (sessions: "s1")')
    const target = await dshKit(['run', write('target.json', JSON.stringify({ v: 1, actors: [{ id: 'a1', ops: [{ op: 'create', session: 's1' }, { op: 'dispose', session: 's2' }] }] }))])
    expect(target.code).toBe(65)
    expect(target.stderr).toContain('target.json: program.actors[0].ops[1].session: no operation creates, resumes, registers or enters session "s2" (sessions: "s1")')
    const type = await dshKit(['run', write('type.json', JSON.stringify({ v: 1, actors: [{ id: 'a1', ops: [{ op: 'create', session: 's1' }, { op: 'followup', session: 's1' }] }], env: { listeners: [{ event: 'session/event', eventType: 'turn/started', action: { do: 'op', op: { op: 'dispose', session: 's1' } } }] } }))])
    expect(type.code).toBe(65)
    expect(type.stderr).toContain('type.json: program.env.listeners[0].eventType: a session log never carries event type "turn/started"')
  }, 120_000)

  it('a bad program is exit 65 naming the file and field; bad usage is exit 64', async () => {
    const dir = userProject()
    const write = (name: string, text: string): string => {
      writeFileSync(join(dir, name), text)
      return join(dir, name)
    }
    const noSession = await dshKit(['run', write('a.json', JSON.stringify({ v: 1, actors: [{ id: 'a1', ops: [{ op: 'create' }] }] }))])
    expect(noSession.code).toBe(65)
    expect(noSession.stderr).toMatch(/a\.json: program\.actors\[0\]\.ops\[0\]\.session: expected a non-empty string/)
    const notJson = await dshKit(['run', write('b.json', '{ v: 1')])
    expect(notJson.code).toBe(65)
    expect(notJson.stderr).toContain('b.json: not valid JSON')
    const noDefault = await dshKit(['run', write('c.mjs', "export const p = 1\n")])
    expect(noDefault.code).toBe(65)
    expect(noDefault.stderr).toContain('c.mjs: the module has no default export')
    const badOp = await dshKit(['run', write('d.mjs', "import { actor, program } from 'dsh-lifecycle-kit/scenarios'\nexport default program([actor('a1', { op: 'explode' })])\n")])
    expect(badOp.code).toBe(65)
    expect(badOp.stderr).toContain('d.mjs (default export): program.actors[0].ops[0].op: unknown operation "explode"')
    const throws = await dshKit(['run', write('e.mjs', "throw new Error('boom')\n")])
    expect(throws.code).toBe(65)
    expect(throws.stderr).toContain('e.mjs: cannot import the program module: boom')
    const missing = await dshKit(['run', join(dir, 'nope.json')])
    expect(missing.code).toBe(65)
    expect(missing.stderr).toContain('nope.json: no such program file')
    // A resuming program against an adapter that does not support resume.
    const resumes = write('f.json', JSON.stringify({ v: 1, actors: [{ id: 'a1', ops: [{ op: 'resume', session: 's1' }] }] }))
    const adapter = write('no-resume.mjs', "import { referenceAdapter } from 'dsh-lifecycle-kit/conformance'\nexport default referenceAdapter({ name: 'no-resume', version: '1', supports: { resume: false } })\n")
    const unsupported = await dshKit(['run', resumes, '--adapter', adapter])
    expect(unsupported.code, unsupported.stderr).toBe(65)
    expect(unsupported.stderr).toContain('f.json: the program resumes sessions, and adapter no-resume does not support resume')

    expect((await dshKit(['run'])).code).toBe(64)
    expect((await dshKit(['run', write('g.txt', '{}')])).code).toBe(64)
    expect((await dshKit(['run', EXAMPLE, '--runs', '0'])).code).toBe(64)
    expect((await dshKit(['run', EXAMPLE, '--strategy', 'bfs'])).code).toBe(64)
    expect((await dshKit(['run', EXAMPLE, EXAMPLE])).code).toBe(64)
  }, 120_000)
})
