import assert from 'node:assert/strict'
import { describe, it } from 'vitest'
import { gate, settle } from '../gates.js'
import type { Agent, AgentStatus, Context, PreStepDecision, PreStepPayload, Session } from '../contract.js'
import { createRoot } from '../root.js'

function world() {
  const warnings: { message: string; error: unknown }[] = []
  const root = createRoot({ now: () => 1, warn: (message, error) => { warnings.push({ message, error }) } })
  const agent = { id: 'a' } as unknown as Agent
  const session = { id: 's' } as unknown as Session
  return { root, ctx: root.ctx, warnings, agent, session }
}

const status = (agent: Agent, s: AgentStatus = 'idle') => ({ agent, status: s })

describe('§2.5 events: dispatch modes', () => {
  it('§2.5 veto emit: a sync throw propagates (earlier listeners ran, later do not); an async rejection is logged', async () => {
    const w = world()
    const log: string[] = []
    const boom = new Error('veto')
    const late = new Error('late')
    w.ctx.on('agent/created', () => { log.push('1') })
    w.ctx.on('agent/created', async () => { log.push('2'); throw late })
    w.ctx.on('agent/created', () => { log.push('3'); throw boom })
    w.ctx.on('agent/created', () => { log.push('4') })
    assert.throws(() => w.ctx.events.veto('agent/created', undefined, { agent: w.agent }), (e) => e === boom)
    assert.deepEqual(log, ['1', '2', '3'])
    await settle()
    assert.deepEqual(w.warnings.map((x) => x.error), [late])
  })

  it('§2.5 contained emit: every listener runs; sync throws and async rejections are logged, never propagated', async () => {
    const w = world()
    const log: string[] = []
    const e1 = new Error('sync')
    const e2 = new Error('async')
    w.ctx.on('agent/status', () => { log.push('1'); throw e1 })
    w.ctx.on('agent/status', async () => { log.push('2'); throw e2 })
    w.ctx.on('agent/status', ({ status: s }) => { log.push(`3:${s}`) })
    assert.doesNotThrow(() => w.ctx.events.contained('agent/status', undefined, status(w.agent, 'running')))
    assert.deepEqual(log, ['1', '2', '3:running'])
    await settle()
    assert.deepEqual(w.warnings.map((x) => x.error), [e1, e2])
  })

  it('§2.5 parallel: all listeners start at once and are awaited; the first failure is rethrown after all settle; resolves whether anyone participated', async () => {
    const w = world()
    assert.equal(await w.ctx.events.parallel('session/flush', undefined, w.session), false, 'no listener')
    const ga = gate()
    const gb = gate()
    const log: string[] = []
    const boom = new Error('flush failed')
    w.ctx.on('session/flush', async () => { log.push('a:start'); await ga.promise; log.push('a:end'); throw boom })
    w.ctx.on('session/flush', async () => { log.push('b:start'); await gb.promise; log.push('b:end') })
    let settled = false
    const run = w.ctx.events.parallel('session/flush', undefined, w.session)
    run.then(() => { settled = true }, () => { settled = true })
    assert.deepEqual(log, ['a:start', 'b:start'], 'both started before either finished')
    ga.open()
    await settle()
    assert.equal(settled, false, 'a failure does not settle before the others')
    gb.open()
    await assert.rejects(run, (e) => e === boom)
    assert.deepEqual(log, ['a:start', 'b:start', 'a:end', 'b:end'])

    const w2 = world()
    w2.ctx.on('session/flush', () => undefined)
    assert.equal(await w2.ctx.events.parallel('session/flush', undefined, w2.session), true)
  })

  it('§2.5 serial: listeners are awaited one after another; a failure propagates and skips the rest', async () => {
    const w = world()
    const g = gate()
    const log: string[] = []
    w.ctx.on('agent/turn-stopping', async () => { log.push('1:start'); await g.promise; log.push('1:end') })
    w.ctx.on('agent/turn-stopping', () => { log.push('2') })
    const signal = new AbortController().signal
    const run = w.ctx.events.serial('agent/turn-stopping', undefined, { agent: w.agent, turn: 1, signal })
    await settle()
    assert.deepEqual(log, ['1:start'])
    g.open()
    await run
    assert.deepEqual(log, ['1:start', '1:end', '2'])

    const w2 = world()
    const boom = new Error('stop failed')
    const log2: string[] = []
    w2.ctx.on('agent/turn-stopping', () => { throw boom })
    w2.ctx.on('agent/turn-stopping', () => { log2.push('never') })
    await assert.rejects(w2.ctx.events.serial('agent/turn-stopping', undefined, { agent: w2.agent, turn: 1, signal }), (e) => e === boom)
    assert.deepEqual(log2, [])
  })

  it('§2.5 waterfall: middleware with next(); falls through to the default; a listener can short-circuit; next() twice rejects', async () => {
    const w = world()
    const signal = new AbortController().signal
    const payload: PreStepPayload = { agent: w.agent, messages: [], turn: 1, step: 1, signal }
    const fallback = (): PreStepDecision => ({ kind: 'enter', messages: [] })
    assert.deepEqual(await w.ctx.events.waterfall('agent/pre-step', undefined, payload, fallback), { kind: 'enter', messages: [] })

    const log: string[] = []
    const outer = w.ctx.on('agent/pre-step', async (p, next) => {
      log.push(`outer:before:${p.turn}`)
      const decision = await next()
      log.push(`outer:after:${decision.kind}`)
      return decision
    })
    const inner = w.ctx.on('agent/pre-step', () => { log.push('inner'); return { kind: 'reject' } })
    let fellThrough = false
    const result = await w.ctx.events.waterfall('agent/pre-step', undefined, payload, () => { fellThrough = true; return fallback() })
    assert.deepEqual(result, { kind: 'reject' })
    assert.equal(fellThrough, false)
    assert.deepEqual(log, ['outer:before:1', 'inner', 'outer:after:reject'])
    void inner()
    void outer()

    w.ctx.on('agent/pre-step', async (_p, next) => { await next(); return next() })
    await assert.rejects(w.ctx.events.waterfall('agent/pre-step', undefined, payload, fallback), /next\(\) twice/)
  })

  it('§2.5 listeners: dispatch takes a snapshot; prepend inserts first; a listener is an effect removed by its disposer or its fiber\'s unload', async () => {
    const w = world()
    const log: string[] = []
    const plugin = w.ctx.createScope(undefined, 'plugin')
    let added = false
    w.ctx.on('agent/status', () => {
      log.push('first')
      if (!added) { added = true; w.ctx.on('agent/status', () => { log.push('added') }) }
    })
    w.ctx.on('agent/status', () => { log.push('prepended') }, { prepend: true })
    const off = w.ctx.on('agent/status', () => { log.push('removable') })
    plugin.ctx.on('agent/status', () => { log.push('plugin') })
    w.ctx.events.contained('agent/status', undefined, status(w.agent))
    assert.deepEqual(log, ['prepended', 'first', 'removable', 'plugin'], 'the listener added during dispatch missed it')
    log.length = 0
    await off()
    await plugin.dispose()
    w.ctx.events.contained('agent/status', undefined, status(w.agent))
    assert.deepEqual(log, ['prepended', 'first', 'added'])
  })
})

describe('§2.5 events: scope-filtered routing', () => {
  function routing() {
    const w = world()
    const keyA = { k: 'A' }
    const keyB = { k: 'B' }
    const scopeA = w.ctx.createScope(keyA, 'A')
    const scopeB = w.ctx.createScope(keyB, 'B')
    const keyA1 = { k: 'A1' }
    const scopeA1 = scopeA.ctx.createScope(keyA1, 'A1')
    const heard: string[] = []
    const listen = (ctx: Context, label: string, global = false) =>
      ctx.on('agent/status', () => { heard.push(label) }, { global })
    listen(w.ctx, 'untagged')
    listen(scopeA.ctx, 'A')
    listen(scopeA1.ctx, 'A1')
    listen(scopeB.ctx, 'B')
    listen(scopeB.ctx, 'B-global', true)
    // A context derived from A's scope context with the same key hears like A.
    listen(scopeA.ctx.extend({}), 'A-derived')
    const emit = (carrier: unknown) => {
      heard.length = 0
      w.ctx.events.contained('agent/status', carrier, status(w.agent))
      return [...heard]
    }
    return { emit, keyA, keyA1, keyB }
  }

  it('§2.5 routing: untagged and global listeners hear everything; a tagged listener hears its own key only, not a sibling\'s', () => {
    const r = routing()
    assert.deepEqual(r.emit(r.keyB), ['untagged', 'B', 'B-global'])
    assert.deepEqual(r.emit({ k: 'unrelated' }), ['untagged', 'B-global'])
    assert.deepEqual(r.emit(undefined), ['untagged', 'B-global'], 'an unrouted event reaches only untagged and global listeners')
  })

  it('§2.5 routing: a tagged listener hears events keyed to its own key and to descendant scopes\' keys', () => {
    const r = routing()
    assert.deepEqual(r.emit(r.keyA), ['untagged', 'A', 'B-global', 'A-derived'])
    assert.deepEqual(r.emit(r.keyA1), ['untagged', 'A', 'A1', 'B-global', 'A-derived'], 'the ancestor A hears its child scope')
  })

  it('§2.5 routing: every dispatch mode applies the same filter', async () => {
    const w = world()
    const keyA = { k: 'A' }
    const keyB = { k: 'B' }
    const a = w.ctx.createScope(keyA, 'A')
    const b = w.ctx.createScope(keyB, 'B')
    const heard: string[] = []
    a.ctx.on('session/flush', () => { heard.push('A') })
    b.ctx.on('session/flush', () => { heard.push('B') })
    assert.equal(await w.ctx.events.parallel('session/flush', keyA, w.session), true)
    assert.equal(await w.ctx.events.parallel('session/flush', { other: true }, w.session), false, 'nobody matched')
    const signal = new AbortController().signal
    a.ctx.on('agent/turn-stopping', () => { heard.push('A:serial') })
    b.ctx.on('agent/turn-stopping', () => { heard.push('B:serial') })
    await w.ctx.events.serial('agent/turn-stopping', keyB, { agent: w.agent, turn: 1, signal })
    a.ctx.on('agent/created', () => { heard.push('A:veto') })
    b.ctx.on('agent/created', () => { heard.push('B:veto') })
    w.ctx.events.veto('agent/created', keyA, { agent: w.agent })
    assert.deepEqual(heard, ['A', 'B:serial', 'A:veto'])
  })
})
