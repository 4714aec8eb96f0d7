/**
 * AGENT-TEARDOWN-TEST (§9 93–115): the memoized teardown of §5 and the rollback rows J–O of §3.5,
 * driven and observed only through the public contract. Also §12 Q4 (under 114) and D17 (under 98).
 */
import assert from 'node:assert/strict'
import type { Agent, AgentHandle, AgentSetup, Context, Disposer, EffectResult, ModelRequest, UserMessage } from '../../core/contract.js'
import { ERRORS } from '../../core/contract.js'
import { script } from '../../core/scripted-model.js'
import type { ScriptEntry } from '../../core/scripted-model.js'
import type { DirectedCase, Gate, Harness, CaseTarget } from './harness.js'
import { gate, makeHarness, settle } from './harness.js'
import { assertEmpty, assertNothingPublished, lifecycle, rejection, rejectsWith } from './lifecycle-helpers.js'

const GROUP = 'AGENT-TEARDOWN-TEST'

const DISPOSED_END = { kind: 'aborted', reason: { kind: 'disposed' } }

/** Which registries hold `id` right now: `session+agent`, `session`, `agent` or `none`. */
function held(h: Harness, id: string): string {
  const parts = [h.ctx.sessions.get(id) ? 'session' : '', h.ctx.agents.get(id) ? 'agent' : ''].filter(Boolean)
  return parts.length ? parts.join('+') : 'none'
}

/** Setup that registers an agent-scoped effect whose unwinding logs `scope-disposed`. */
function scopeMarker(log: string[], then?: AgentSetup): AgentSetup {
  return (agentCtx) => {
    agentCtx.effect(() => () => { log.push('scope-disposed') }, 'test:scope-marker')
    return then?.(agentCtx)
  }
}

/** Setup with a slow agent-scoped async disposer held behind `cleanup` (logs start and end). */
function slowScope(log: string[], cleanup: Gate): AgentSetup {
  return (agentCtx) => {
    agentCtx.effect(() => async () => {
      log.push('scope-cleanup-start')
      await cleanup.promise
      log.push('scope-disposed')
    }, 'test:slow-cleanup')
  }
}

/** A model entry that opens `reached` when the call starts, then hangs until aborted. */
function hangAt(reached: Gate): ScriptEntry {
  return script.fn(() => { reached.open(); return script.hang() })
}

function untilAborted(signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) resolve()
    else signal.addEventListener('abort', () => resolve(), { once: true })
  })
}

/** A model entry that, once aborted, converges only when `slow` opens (a slow abort convergence). */
function slowConvergence(reached: Gate, slow: Gate): ScriptEntry {
  return script.toolFollowUp(async (request: ModelRequest) => {
    reached.open()
    await untilAborted(request.signal)
    await slow.promise
  })
}

/** `turn/end` reasons in the session log. */
function turnEnds(agent: Agent): unknown[] {
  return agent.session.events.filter((e) => e.type === 'turn/end').map((e) => (e.data as { reason: unknown }).reason)
}

function count(agent: Agent, type: string): number {
  return agent.session.events.filter((e) => e.type === type).length
}

/** Texts of the `user/message` events in the session log. */
function userTexts(agent: Agent): string[] {
  return agent.session.events
    .filter((e) => e.type === 'user/message')
    .map((e) => ((e.data as unknown as UserMessage).content ?? []).map((b) => b.text).join(''))
}

/** Index of the first observed event matching, or -1. */
function indexOf(h: Harness, id: string, name: string, detail?: string): number {
  return h.observed.findIndex((o) => o.id === id && o.name === name && (detail === undefined || o.detail === detail))
}

/** Run `send`, tolerating a rejection of work sent to a disposed agent (§12 Q3 leaves it unspecified). */
function trySend(send: () => void): void {
  try { send() } catch { /* unspecified: a factory may reject sends after teardown began */ }
}

/** Records whether a promise has settled (to assert that something is still pending). */
function track(promise: Promise<unknown>): { readonly settled: boolean } {
  let settled = false
  promise.then(() => { settled = true }, () => { settled = true })
  return { get settled() { return settled } }
}

/** What a teardown owner sees at the moment its promise resolves. */
interface Snapshot { held: string; agentDisposed: boolean; sessionDisposed: boolean; scopeDone: boolean; turnEnded: boolean }

function snapshot(h: Harness, id: string, log: string[], agent?: Agent): Snapshot {
  return {
    held: held(h, id),
    agentDisposed: indexOf(h, id, 'agent/disposed') >= 0,
    sessionDisposed: indexOf(h, id, 'session/disposed') >= 0,
    scopeDone: log.includes('scope-disposed'),
    turnEnded: agent ? count(agent, 'turn/end') === count(agent, 'turn/start') : true,
  }
}

const FULL: Snapshot = { held: 'none', agentDisposed: true, sessionDisposed: true, scopeDone: true, turnEnded: true }

/** A created agent with an open (hanging) turn. */
async function withOpenTurn(h: Harness, reached: Gate, options: Parameters<Harness['create']>[1] = {}, ctx?: Context): Promise<AgentHandle> {
  const handle = await h.create('s1', options, ctx)
  handle.agent.followup(h.msg('active'))
  await reached.promise
  return handle
}

/** Reentrant owner teardown from the first listener of a publication edge (rows M/N). */
async function reentrantOwnerTeardown(target: CaseTarget, edge: 'session/created' | 'agent/created') {
  const h = await makeHarness(target)
  const o = h.owner()
  const log: string[] = []
  let unloading: Promise<void> | undefined
  const first = (id: string): void => {
    if (id !== 's1' || unloading) return
    log.push(`${edge}:dispose-request`)
    unloading = o.unload()
    void unloading.then(() => log.push('owner-unloaded'))
  }
  const second = (id: string): void => { if (id === 's1') log.push(`${edge}:second-listener(${held(h, id)})`) }
  if (edge === 'session/created') {
    h.ctx.on('session/created', (s) => first(s.id))
    h.ctx.on('session/created', (s) => second(s.id))
  } else {
    h.ctx.on('session/created', (s) => { if (s.id === 's1') log.push('session-created') })
    h.ctx.on('agent/created', ({ agent }) => first(agent.id))
    h.ctx.on('agent/created', ({ agent }) => second(agent.id))
  }
  h.ctx.on('agent/disposed', ({ agent }) => { if (agent.id === 's1') log.push(`agent-disposed(${held(h, 's1')})`) })
  h.ctx.on('session/disposed', (s) => { if (s.id === 's1') log.push(`session-disposed(${held(h, 's1')})`) })
  const created = h.create('s1', { setup: scopeMarker(log) }, o.ctx)
  await rejectsWith(created, ERRORS.ownerDisposed('s1'))
  assert.ok(unloading, 'the first listener should have requested the owner unload')
  await unloading
  return { h, log }
}

export const teardownCases: DirectedCase[] = [
  {
    group: GROUP, clause: 93,
    title: 'reentrant owner teardown from the first session/created listener: later listener sees both entries, then scope, then session/disposed; no agent events',
    async run(target) {
      const { h, log } = await reentrantOwnerTeardown(target, 'session/created')
      assert.deepEqual(log, [
        'session/created:dispose-request',
        'session/created:second-listener(session+agent)',
        'scope-disposed',
        'session-disposed(none)',
        'owner-unloaded',
      ])
      assert.deepEqual(lifecycle(h, 's1'), ['session/created', 'session/disposed'])
      assertEmpty(h)
    },
  },
  {
    group: GROUP, clause: 94,
    title: 'reentrant owner teardown from the first agent/created listener: observer sees both, then scope, agent/disposed, session/disposed; no session-start',
    async run(target) {
      const { h, log } = await reentrantOwnerTeardown(target, 'agent/created')
      assert.deepEqual(log, [
        'session-created',
        'agent/created:dispose-request',
        'agent/created:second-listener(session+agent)',
        'scope-disposed',
        'agent-disposed(session)',
        'session-disposed(none)',
        'owner-unloaded',
      ])
      assert.deepEqual(lifecycle(h, 's1'), ['session/created', 'agent/created', 'agent/disposed', 'session/disposed'])
      assertEmpty(h)
    },
  },
  {
    group: GROUP, clause: 95,
    title: 'a throwing session/created listener: rejects with the thrown value, scope disposed, no agent events, retry works',
    async run(target) {
      const h = await makeHarness(target)
      const log: string[] = []
      const thrown = { notAnError: true }
      let armed = true
      h.ctx.on('session/created', (s) => { if (s.id === 's1' && armed) { armed = false; throw thrown } })
      h.ctx.on('session/disposed', (s) => { if (s.id === 's1') log.push('session-disposed') })
      const error = await rejection(h.create('s1', { setup: scopeMarker(log) }))
      assert.equal(error, thrown, 'the rejection must be exactly the thrown value')
      assert.deepEqual(log, ['scope-disposed', 'session-disposed'])
      assert.deepEqual(lifecycle(h, 's1'), ['session/created', 'session/disposed'])
      assertEmpty(h)
      const handle = await h.create('s1')
      assert.equal(h.ctx.agents.get('s1'), handle.agent)
      assert.equal(h.ctx.sessions.get('s1'), handle.agent.session)
      assert.deepEqual(lifecycle(h, 's1').slice(2), ['session/created', 'agent/created', 'agent/session-start'])
    },
  },
  {
    group: GROUP, clause: 96,
    title: 'a throwing agent/created listener: session-created, agent-created, scope, agent-disposed, session-disposed; both ids gone',
    async run(target) {
      const h = await makeHarness(target)
      const log: string[] = []
      const thrown = new Error('veto')
      h.ctx.on('session/created', (s) => { if (s.id === 's1') log.push('session-created') })
      h.ctx.on('agent/created', ({ agent }) => { if (agent.id === 's1') { log.push('agent-created'); throw thrown } })
      h.ctx.on('agent/disposed', ({ agent }) => { if (agent.id === 's1') log.push(`agent-disposed(${held(h, 's1')})`) })
      h.ctx.on('session/disposed', (s) => { if (s.id === 's1') log.push(`session-disposed(${held(h, 's1')})`) })
      assert.equal(await rejection(h.create('s1', { setup: scopeMarker(log) })), thrown)
      assert.deepEqual(log, ['session-created', 'agent-created', 'scope-disposed', 'agent-disposed(session)', 'session-disposed(none)'])
      assert.deepEqual(lifecycle(h, 's1'), ['session/created', 'agent/created', 'agent/disposed', 'session/disposed'])
      assertEmpty(h)
    },
  },
  {
    group: GROUP, clause: 97,
    title: 'owner unload with an open turn: turn/end precedes agent/disposed; at agent/disposed only the session is stored; afterwards both gone',
    async run(target) {
      const reached = gate()
      const slow = gate()
      const h = await makeHarness(target, { script: [slowConvergence(reached, slow)] })
      const o = h.owner()
      const handle = await withOpenTurn(h, reached, {}, o.ctx)
      const unloading = o.unload()
      await settle()
      assert.equal(indexOf(h, 's1', 'agent/disposed'), -1, 'no agent/disposed while the aborted turn is still converging')
      assert.equal(held(h, 's1'), 'session+agent')
      slow.open()
      await unloading
      const turnEnd = indexOf(h, 's1', 'session/event', 'turn/end')
      const agentDisposed = indexOf(h, 's1', 'agent/disposed')
      const sessionDisposed = indexOf(h, 's1', 'session/disposed')
      assert.ok(turnEnd >= 0 && agentDisposed > turnEnd && sessionDisposed > agentDisposed, 'turn/end → agent/disposed → session/disposed')
      const atAgentDisposed = h.observed[agentDisposed]!
      assert.equal(atAgentDisposed.agentLive, false, 'at agent/disposed the agent is no longer listed')
      assert.equal(atAgentDisposed.sessionLive, true, 'at agent/disposed the session is still stored')
      assert.deepEqual(turnEnds(handle.agent), [DISPOSED_END])
      assertEmpty(h)
    },
  },
  {
    group: GROUP, clause: 98,
    title: 'handle.dispose() concurrent with owner unload (either first) resolves only after agent/disposed and both ids gone',
    async run(target) {
      for (const first of ['handle', 'owner'] as const) {
        const h = await makeHarness(target)
        const o = h.owner()
        const log: string[] = []
        const cleanup = gate()
        const handle = await h.create('s1', { setup: slowScope(log, cleanup) }, o.ctx)
        const seen: Record<string, Snapshot> = {}
        const start = (who: 'handle' | 'owner'): Promise<void> =>
          (who === 'handle' ? handle.dispose() : o.unload()).then(() => { seen[who] = snapshot(h, 's1', log) })
        const a = start(first)
        const b = start(first === 'handle' ? 'owner' : 'handle')
        await settle()
        assert.ok(log.includes('scope-cleanup-start'), `${first} first: the scope cleanup should have started`)
        assert.deepEqual(seen, {}, `${first} first: nothing may resolve while the scope cleanup is pending`)
        cleanup.open()
        await Promise.all([a, b])
        assert.deepEqual(seen, { handle: FULL, owner: FULL }, `${first} first`)
      }
    },
  },
  {
    group: GROUP, clause: 98,
    title: 'handle.dispose() is memoized (§1.6): repeated calls, while the teardown runs and after it settled, return the same promise',
    async run(target) {
      const h = await makeHarness(target)
      const o = h.owner()
      const log: string[] = []
      const cleanup = gate()
      const handle = await h.create('s1', { setup: slowScope(log, cleanup) }, o.ctx)
      const first = handle.dispose()
      assert.equal(handle.dispose(), first, 'a second call at once returns the same promise')
      await settle()
      assert.equal(handle.dispose(), first, 'a call while the scope cleanup is pending returns the same promise')
      cleanup.open()
      await first
      assert.equal(handle.dispose(), first, 'a call after the teardown settled returns the same promise')
      assert.equal(h.ctx.agents.get('s1'), undefined)
    },
  },
  {
    group: GROUP, clause: 98,
    title: 'D17: whichever owner triggers (handle, owner unload, factory unload) every owner that joins resolves only after the full teardown',
    async run(target) {
      const owners = ['handle', 'owner', 'factory'] as const
      for (const trigger of owners) {
        const reached = gate()
        const slow = gate()
        const h = await makeHarness(target, { script: [slowConvergence(reached, slow)] })
        const o = h.owner()
        const log: string[] = []
        const cleanup = gate()
        const handle = await withOpenTurn(h, reached, { setup: slowScope(log, cleanup) }, o.ctx)
        const seen: Partial<Record<(typeof owners)[number], Snapshot>> = {}
        const start = (who: (typeof owners)[number]): Promise<void> => {
          const p = who === 'handle' ? handle.dispose() : who === 'owner' ? o.unload() : h.unloadFactory()
          return p.then(() => { seen[who] = snapshot(h, 's1', log, handle.agent) })
        }
        const pending = [start(trigger)]
        await settle()
        for (const joiner of owners) if (joiner !== trigger) pending.push(start(joiner))
        await settle()
        assert.deepEqual(seen, {}, `${trigger}: no owner may resolve while the turn is converging`)
        slow.open()
        await settle()
        // D18: no scope-vs-driver order is asserted (a factory unload may unwind scopes concurrently).
        assert.ok(log.includes('scope-cleanup-start'), `${trigger}: teardown should have reached the scope`)
        assert.deepEqual(seen, {}, `${trigger}: no owner may resolve before the scope cleanup finished`)
        assert.equal(held(h, 's1'), 'session+agent', `${trigger}: during the scope cleanup both registries hold the agent`)
        cleanup.open()
        await Promise.all(pending)
        assert.deepEqual(seen, { handle: FULL, owner: FULL, factory: FULL }, `trigger ${trigger}`)
        assert.equal(lifecycle(h, 's1').filter((n) => n.endsWith('/disposed')).length, 2, `${trigger}: one teardown only`)
      }
    },
  },
  {
    group: GROUP, clause: 99,
    needs: ['effectLabels'],
    title: 'after handle.dispose() the owner fiber holds no lifecycle effect for that id (create, repeated, and resume)',
    async run(target) {
      const h = await makeHarness(target)
      const o = h.owner()
      const baseline = o.ctx.fiber.effectLabels()
      for (let i = 0; i < 3; i++) {
        const handle = await h.create('s1', {}, o.ctx)
        assert.ok(o.ctx.fiber.effectLabels().length > baseline.length, 'a live agent binds a lifecycle effect on its owner fiber')
        await handle.dispose()
        assert.deepEqual(o.ctx.fiber.effectLabels(), baseline, `create #${i + 1}: owner effects back to baseline`)
      }
      const before = h.observed.length
      await o.unload()
      assert.equal(h.observed.length, before, 'unloading the owner later re-runs no stale teardown')

      const h2 = await h.restart()
      const o2 = h2.owner()
      const baseline2 = o2.ctx.fiber.effectLabels()
      const resumed = await o2.ctx.agents.resume({ resumeSessionId: 's1' })
      assert.ok(o2.ctx.fiber.effectLabels().length > baseline2.length, 'a resumed agent binds a lifecycle effect on its owner fiber')
      await resumed.dispose()
      assert.deepEqual(o2.ctx.fiber.effectLabels(), baseline2, 'resume: owner effects back to baseline')
      assertEmpty(h2)
    },
  },
  {
    group: GROUP, clause: 100,
    title: 'during a slow scope cleanup both registries hold the old objects; afterwards both are empty and a same-id create succeeds',
    async run(target) {
      const h = await makeHarness(target)
      const log: string[] = []
      const cleanup = gate()
      const handle = await h.create('s1', { setup: slowScope(log, cleanup) })
      const disposing = handle.dispose()
      const state = track(disposing)
      await settle()
      assert.deepEqual(log, ['scope-cleanup-start'])
      assert.equal(state.settled, false)
      assert.equal(h.ctx.agents.get('s1'), handle.agent, 'the old agent is still registered')
      assert.equal(h.ctx.sessions.get('s1'), handle.agent.session, 'the old session is still stored')
      await rejectsWith(h.create('s1'), ERRORS.sessionExists('s1'))
      cleanup.open()
      await disposing
      assertEmpty(h)
      const again = await h.create('s1')
      assert.notEqual(again.agent, handle.agent)
      assert.equal(h.ctx.agents.get('s1'), again.agent)
    },
  },
  {
    group: GROUP, clause: 101,
    title: 'an owner (or factory) unload started inside commit(): the liveness check after commit publishes nothing, rejects owner disposed (loop inactive)',
    async run(target) {
      // §3.1 step 7: publication starts with a liveness check, after commit() (step 6) ran.
      for (const who of ['owner', 'factory'] as const) {
        const h = await makeHarness(target)
        const o = h.owner()
        let unloading: Promise<void> | undefined
        const commit = (): void => { unloading = who === 'owner' ? o.unload() : h.unloadFactory() }
        const created = h.create('s1', { setup: () => ({ commit }) }, o.ctx)
        await rejectsWith(created, who === 'owner' ? ERRORS.ownerDisposed('s1') : ERRORS.loopInactive)
        await unloading
        assertNothingPublished(h, 's1')
        assertEmpty(h)
      }
    },
  },
  {
    group: GROUP, clause: 101,
    title: 'owner unload during pending setup rejects owner disposed, publishes nothing, ids free (also when setup resolved just before)',
    async run(target) {
      for (const variant of ['never-settling', 'just-resolved'] as const) {
        const h = await makeHarness(target)
        const o = h.owner()
        const setupGate = gate()
        let started = false
        const created = h.create('s1', { setup: async () => { started = true; await setupGate.promise } }, o.ctx)
        const outcome = track(created)
        await settle()
        assert.ok(started, `${variant}: setup should be running`)
        if (variant === 'just-resolved') setupGate.open()
        const unloading = o.unload()
        await rejectsWith(created, ERRORS.ownerDisposed('s1'))
        await unloading
        assert.ok(outcome.settled)
        assertNothingPublished(h, 's1')
        const retry = await h.create('s1')
        assert.equal(h.ctx.agents.get('s1'), retry.agent, `${variant}: the id is free again`)
      }
    },
  },
  {
    group: GROUP, clause: 102,
    title: 'factory unload during pending setup rejects agent loop is not active, awaits the scope cleanup, publishes nothing',
    async run(target) {
      const h = await makeHarness(target)
      const log: string[] = []
      const cleanup = gate()
      const never = gate()
      const setup: AgentSetup = async (agentCtx) => { await slowScope(log, cleanup)(agentCtx); await never.promise }
      const created = h.create('s1', { setup })
      void created.catch(() => undefined)
      await settle()
      const unloading = h.unloadFactory()
      const unloaded = track(unloading)
      await settle()
      assert.deepEqual(log, ['scope-cleanup-start'])
      assert.equal(unloaded.settled, false, 'the factory unload awaits the scope cleanup')
      cleanup.open()
      await unloading
      await rejectsWith(created, ERRORS.loopInactive)
      assert.deepEqual(log, ['scope-cleanup-start', 'scope-disposed'])
      assertNothingPublished(h, 's1')
    },
  },
  {
    group: GROUP, clause: 103,
    needs: ['effectLabels'],
    title: 'factory unload tears down every live agent (ids free, idle, no lifecycle effect left); later dispose resolves; creating again rejects',
    async run(target) {
      const reached = gate()
      const h = await makeHarness(target, { script: [hangAt(reached)] })
      const o = h.owner()
      const baseline = o.ctx.fiber.effectLabels()
      const busy = await withOpenTurn(h, reached, {}, o.ctx)
      const quiet = await h.create('s2', {}, o.ctx)
      assert.equal(busy.agent.status, 'running')
      await h.unloadFactory()
      for (const handle of [busy, quiet]) {
        assert.equal(handle.agent.status, 'idle')
        assert.deepEqual(lifecycle(h, handle.agent.id).slice(3), ['agent/disposed', 'session/disposed'])
      }
      assert.deepEqual(turnEnds(busy.agent), [DISPOSED_END])
      assertEmpty(h)
      assert.deepEqual(o.ctx.fiber.effectLabels(), baseline, 'no lifecycle effect is left on the owner fiber')
      const before = h.observed.length
      await busy.dispose()
      await quiet.dispose()
      await o.unload()
      assert.equal(h.observed.length, before, 'later disposal and owner unload emit nothing more')
      await rejectsWith(h.ctx.agents.create({ sessionId: 's3' }), ERRORS.noFactory)
      assertEmpty(h)
    },
  },
  {
    group: GROUP, clause: 104,
    needs: ['scopeMinting'],
    title: 'factory unload during scope minting: creation rejects agent loop is not active and setup never runs',
    async run(target) {
      let hook: ((fiber: unknown, key: unknown) => void) | undefined
      const h = await makeHarness(target, { scopeCreated: (fiber, key) => hook?.(fiber, key) })
      let unloading: Promise<void> | undefined
      hook = (_fiber, key) => {
        if (typeof key !== 'object' || key === null || unloading) return
        unloading = h.unloadFactory()
      }
      let setupRan = false
      const created = h.create('s1', { setup: () => { setupRan = true } })
      void created.catch(() => undefined)
      assert.ok(unloading, 'the scope-minting observer should have run')
      await unloading
      await rejectsWith(created, ERRORS.loopInactive)
      assert.equal(setupRan, false, 'setup must not run once the factory began unloading (§3.1, §3.5)')
      assertNothingPublished(h, 's1')
    },
  },
  {
    group: GROUP, clause: 104,
    needs: ['scopeMinting'],
    title: 'caller unload during scope minting: creation rejects owner disposed, setup never runs, the unload waits for the half-built scope cleanup',
    async run(target) {
      const log: string[] = []
      const cleanup = gate()
      let hook: ((fiber: unknown, key: unknown) => void) | undefined
      const h = await makeHarness(target, { scopeCreated: (fiber, key) => hook?.(fiber, key) })
      const o = h.owner()
      let unloading: Promise<void> | undefined
      hook = (fiber, key) => {
        if (typeof key !== 'object' || key === null || unloading) return
        // A framework observer of the new scope fiber: it registers async cleanup, then unloads the caller.
        const effect = (fiber as { effect?: (execute: () => EffectResult, label?: string) => Disposer }).effect
        assert.equal(typeof effect, 'function', 'the minted scope fiber should accept effects')
        effect!.call(fiber, () => async () => { log.push('scope-cleanup-start'); await cleanup.promise; log.push('scope-disposed') }, 'test:minting')
        unloading = o.unload()
      }
      let setupRan = false
      const created = h.create('s1', { setup: () => { setupRan = true } }, o.ctx)
      void created.catch(() => undefined)
      assert.ok(unloading, 'the scope-minting observer should have run')
      const unloaded = track(unloading)
      await settle()
      assert.ok(log.includes('scope-cleanup-start'), 'the half-built scope is being torn down')
      assert.equal(unloaded.settled, false, 'the owner unload waits for the half-built scope cleanup')
      cleanup.open()
      await unloading
      await rejectsWith(created, ERRORS.ownerDisposed('s1'))
      assert.equal(setupRan, false, 'setup must not run once the owner began unloading')
      assert.deepEqual(log, ['scope-cleanup-start', 'scope-disposed'])
      assertNothingPublished(h, 's1')
    },
  },
  {
    group: GROUP, clause: 105,
    title: 'disposal mid-turn: exactly one turn/end {aborted, disposed}, statuses [running, idle], the queued tail never runs',
    async run(target) {
      const reached = gate()
      const h = await makeHarness(target, { script: [hangAt(reached)] })
      const handle = await withOpenTurn(h, reached)
      handle.agent.followup(h.msg('queued tail'))
      await handle.dispose()
      await settle()
      assert.deepEqual(turnEnds(handle.agent), [DISPOSED_END])
      assert.deepEqual(h.statuses('s1'), ['running', 'idle'])
      assert.equal(h.model.requests.length, 1)
      assert.deepEqual(userTexts(handle.agent), ['active'])
      assert.equal(count(handle.agent, 'turn/start'), 1)
    },
  },
  {
    group: GROUP, clause: 106,
    title: 'disposal during pre-step closes a no-step turn (turn/start, turn/end only), no model request',
    async run(target) {
      const h = await makeHarness(target)
      const inPreStep = gate()
      h.ctx.on('agent/pre-step', async (payload, next) => {
        if (payload.agent.id === 's1') { inPreStep.open(); await untilAborted(payload.signal) }
        return next()
      })
      const handle = await h.create('s1')
      handle.agent.followup(h.msg('dropped'))
      await inPreStep.promise
      await handle.dispose()
      const boundaries = h.types(handle.agent).filter((t) => t.startsWith('turn/') || t.startsWith('step/'))
      assert.deepEqual(boundaries, ['turn/start', 'turn/end'])
      assert.deepEqual(turnEnds(handle.agent), [DISPOSED_END])
      assert.equal(h.model.requests.length, 0)
      assertEmpty(h)
    },
  },
  {
    group: GROUP, clause: 106,
    title: 'disposal right after the waking send returns (prompt-assembly window) closes a no-step turn, no model request',
    async run(target) {
      const h = await makeHarness(target)
      const handle = await h.create('s1')
      handle.agent.followup(h.msg('dropped'))
      assert.equal(count(handle.agent, 'turn/start'), 1, 'the waking send opened the turn synchronously')
      await handle.dispose()
      const boundaries = h.types(handle.agent).filter((t) => t.startsWith('turn/') || t.startsWith('step/'))
      assert.deepEqual(boundaries, ['turn/start', 'turn/end'])
      assert.deepEqual(turnEnds(handle.agent), [DISPOSED_END])
      assert.equal(h.model.requests.length, 0)
    },
  },
  {
    group: GROUP, clause: 107,
    title: 'disposal from the running status notification drops queued work before turn/start; no model request',
    async run(target) {
      const h = await makeHarness(target)
      const handle = await h.create('s1')
      let disposing: Promise<void> | undefined
      h.ctx.on('agent/status', ({ agent, status }) => {
        if (agent === handle.agent && status === 'running' && !disposing) disposing = handle.dispose()
      })
      const message = h.msg('drop before claim')
      handle.agent.followup(message)
      assert.ok(disposing, 'the running listener should have started disposal')
      await disposing
      await settle()
      assert.equal(count(handle.agent, 'turn/start'), 0, 'no turn may open once disposal began')
      assert.equal(h.model.requests.length, 0)
      assert.deepEqual(userTexts(handle.agent), [])
      assert.equal(handle.agent.status, 'idle')
      assert.deepEqual(h.names('s1', (o) => o.name === 'agent/inbox/claimed'), [], 'the queued item is not claimed')
      assert.deepEqual(h.names('s1', (o) => o.name === 'agent/inbox/discarded' && o.detail === message.id), ['agent/inbox/discarded'])
      assertEmpty(h)
    },
  },
  {
    group: GROUP, clause: 108,
    title: 'disposal from a step/start observer: no model request, step boundaries balanced',
    async run(target) {
      const h = await makeHarness(target)
      const handle = await h.create('s1')
      let disposing: Promise<void> | undefined
      h.ctx.on('session/event', (session, event) => {
        if (session === handle.agent.session && event.type === 'step/start' && !disposing) disposing = handle.dispose()
      })
      handle.agent.followup(h.msg('go'))
      await handle.agent.whenIdle()
      assert.ok(disposing, 'the step/start observer should have started disposal')
      await disposing
      await settle()
      assert.equal(h.model.requests.length, 0, 'the model is never called once disposal began')
      assert.equal(count(handle.agent, 'step/start'), 1)
      assert.equal(count(handle.agent, 'step/end'), count(handle.agent, 'step/start'), 'step boundaries balanced')
      assert.equal(count(handle.agent, 'assistant/message'), 0)
      assertEmpty(h)
    },
  },
  {
    group: GROUP, clause: 109,
    title: 'a user cancel followed by dispose keeps turn/end.reason.reason = {kind:user} (first cause wins)',
    async run(target) {
      const reached = gate()
      const h = await makeHarness(target, { script: [hangAt(reached)] })
      const handle = await withOpenTurn(h, reached)
      handle.agent.cancel({ kind: 'user' })
      await handle.dispose()
      assert.deepEqual(turnEnds(handle.agent), [{ kind: 'aborted', reason: { kind: 'user' } }])
      assert.equal(h.model.requests[0]!.signal.reason.kind, 'user')
      assertEmpty(h)
    },
  },
  {
    group: GROUP, clause: 110,
    title: 'a waking send that lands after disposal began (during convergence or scope cleanup) is not run',
    async run(target) {
      const reached = gate()
      const slow = gate()
      const h = await makeHarness(target, { script: [slowConvergence(reached, slow)] })
      const log: string[] = []
      const cleanup = gate()
      const handle = await withOpenTurn(h, reached, { setup: slowScope(log, cleanup) })
      const disposing = handle.dispose()
      await settle()
      assert.equal(handle.agent.status, 'running', 'the driver is still converging')
      trySend(() => handle.agent.followup(h.msg('late wake')))
      slow.open()
      await settle()
      assert.deepEqual(log, ['scope-cleanup-start'])
      trySend(() => handle.agent.followup(h.msg('later wake')))
      cleanup.open()
      await disposing
      await settle()
      assert.equal(h.model.requests.length, 1)
      assert.deepEqual(userTexts(handle.agent), ['active'])
      assert.equal(count(handle.agent, 'turn/start'), 1)
      assert.deepEqual(turnEnds(handle.agent), [DISPOSED_END])
      assertEmpty(h)
    },
  },
  {
    group: GROUP, clause: 111,
    title: 'an idle listener that re-sends during disposal cannot produce events after dispose() resolved',
    async run(target) {
      const reached = gate()
      const h = await makeHarness(target, { script: [hangAt(reached)] })
      const handle = await withOpenTurn(h, reached)
      let resent = 0
      h.ctx.on('agent/status', ({ agent, status }) => {
        if (agent === handle.agent && status === 'idle') { resent++; trySend(() => agent.followup(h.msg('resent'))) }
      })
      await handle.dispose()
      assert.equal(resent, 1, 'the idle listener ran during disposal')
      const events = handle.agent.session.events.length
      const observed = h.observed.length
      await settle()
      await settle()
      assert.equal(handle.agent.session.events.length, events, 'the session gains nothing after dispose resolved')
      assert.equal(h.observed.length, observed, 'no event is emitted after dispose resolved')
      assert.equal(h.model.requests.length, 1)
      assert.equal(count(handle.agent, 'turn/start'), 1)
      assert.equal(handle.agent.status, 'idle')
    },
  },
  {
    group: GROUP, clause: 111,
    title: 'Q3: a send through a kept handle after dispose() resolved reaches nothing live: the registries, a same-id successor, its log and the persisted record stay as they were, and nothing is published',
    async run(target) {
      // §12 Q3 leaves what the disposed agent does with such a send open (refuse, ignore, or accept
      // and park it), so the send may throw and its own inbox is not read. What is not open: the
      // detached session publishes nothing (§1.3 detach: later appends publish nothing), so nothing
      // reaches the store, the registry, the disk or an agent that holds the id now.
      const h = await makeHarness(target)
      const old = await h.create('s1')
      old.agent.followup(h.msg('before disposal'))
      await old.agent.whenIdle()
      await old.dispose()
      await settle()
      const sendAll = (label: string): void => {
        trySend(() => old.agent.followup(h.msg(`${label} followup`)))
        trySend(() => old.agent.steer(h.msg(`${label} steer`)))
        trySend(() => old.agent.inject(h.msg(`${label} inject`)))
        if (old.agent.queue) trySend(() => old.agent.queue!(h.msg(`${label} queue`)))
      }
      const sessionEvents = (): number => h.observed.filter((o) => o.name.startsWith('session/')).length
      // No successor yet: the id stays free.
      const before = sessionEvents()
      sendAll('alone')
      await settle()
      await settle()
      assert.equal(h.ctx.agents.get('s1'), undefined, 'a send to the disposed agent does not put it back in the registry')
      assert.equal(h.ctx.sessions.get('s1'), undefined, 'nor its session in the store')
      assert.equal(sessionEvents(), before, 'no session event is published for the detached session')
      const successor = await h.create('s1')
      await settle()
      const log = successor.agent.session.events.length
      const persistedLength = h.disk.get('s1')?.events.length
      const published = sessionEvents()
      const successorEvents: string[] = []
      h.ctx.on('session/event', (session, event) => { if (session === successor.agent.session) successorEvents.push(event.type) })
      for (const name of ['agent/status', 'agent/inbox/inserted', 'agent/inbox/claimed'] as const) {
        h.ctx.on(name, ((payload: { agent: Agent }) => { if (payload.agent === successor.agent) successorEvents.push(name) }) as never)
      }
      sendAll('beside a successor')
      await settle()
      await settle()
      assert.equal(h.ctx.agents.get('s1'), successor.agent, 'the successor still holds the id')
      assert.equal(h.ctx.sessions.get('s1'), successor.agent.session)
      assert.deepEqual(successorEvents, [], 'the successor heard nothing of the sends')
      assert.equal(successor.agent.session.events.length, log, 'the successor\'s log is unchanged')
      assert.deepEqual([successor.agent.inbox.nextTurn.length, successor.agent.inbox.nextStep.length], [0, 0], 'nothing reached the successor\'s inbox')
      assert.equal(successor.agent.status, 'idle')
      assert.equal(h.disk.get('s1')?.events.length, persistedLength, 'the persisted record is unchanged')
      assert.equal(sessionEvents(), published, 'no session event is published')
      await successor.dispose()
    },
  },
  {
    group: GROUP, clause: 111,
    title: 'dispose() requested again from a listener of the teardown\'s own inbox clear (agent/inbox/discarded) resolves, and only after agent/disposed',
    async run(target) {
      const h = await makeHarness(target)
      const handle = await h.create('s1')
      handle.agent.inbox.append('next-turn', h.msg('pending-1'))
      handle.agent.inbox.append('next-turn', h.msg('pending-2'))
      const again: Promise<void>[] = []
      const order: string[] = []
      h.ctx.on('agent/inbox/discarded', ({ agent }) => {
        if (agent === handle.agent) again.push(handle.dispose().then(() => { order.push('again') }))
      })
      h.ctx.on('agent/disposed', ({ agent }) => { if (agent === handle.agent) order.push('agent/disposed') })
      const first = handle.dispose().then(() => { order.push('first') })
      let settledAll = false
      const all = Promise.all([first, ...again]).then(() => { settledAll = true })
      for (let i = 0; i < 20 && !settledAll; i++) await settle()
      assert.ok(again.length >= 1, 'the teardown discarded the pending items (§9 114)')
      assert.equal(settledAll, true, `every dispose() settles (${again.length} requested from the discarded listener)`)
      await all
      assert.equal(order[0], 'agent/disposed', `no dispose() resolves before agent/disposed: ${order.join(', ')}`)
      assert.equal(h.ctx.agents.get('s1'), undefined)
    },
  },
  {
    group: GROUP, clause: 112,
    needs: ['warnings'],
    title: 'a throwing (sync or async) agent/disposed listener: dispose resolves, agent and session gone, later listener runs, warning logged',
    async run(target) {
      for (const mode of ['sync', 'async'] as const) {
        const h = await makeHarness(target)
        const failure = new Error(`${mode} agent/disposed failure`)
        const later: string[] = []
        h.ctx.on('agent/disposed', ({ agent }) => {
          if (agent.id !== 's1') return
          if (mode === 'sync') throw failure
          return Promise.reject(failure)
        })
        h.ctx.on('agent/disposed', ({ agent }) => { later.push(`${agent.id}:${held(h, agent.id)}`) })
        const handle = await h.create('s1')
        await handle.dispose()
        assert.deepEqual(later, ['s1:session'], `${mode}: the later listener still runs`)
        assertEmpty(h)
        assert.deepEqual(lifecycle(h, 's1').slice(3), ['agent/disposed', 'session/disposed'])
        await settle()
        assert.ok(h.logged(failure), `${mode}: the failure is logged as a warning`)
      }
    },
  },
  {
    group: GROUP, clause: 113,
    needs: ['warnings'],
    title: 'a throwing agent/status listener cannot break disposal or leave the registry entry',
    async run(target) {
      const reached = gate()
      const h = await makeHarness(target, { script: [hangAt(reached)] })
      h.ctx.on('agent/status', ({ agent, status }) => { throw new Error(`status listener fails on ${agent.id}:${status}`) })
      const handle = await withOpenTurn(h, reached)
      await handle.dispose()
      assertEmpty(h)
      assert.deepEqual(turnEnds(handle.agent), [DISPOSED_END])
      assert.deepEqual(h.statuses('s1'), ['running', 'idle'])
      assert.equal(handle.agent.status, 'idle')
      assert.deepEqual(lifecycle(h, 's1').slice(3), ['agent/disposed', 'session/disposed'])
      assert.ok(h.warnings.length >= 2, 'both status failures are logged')
    },
  },
  {
    group: GROUP, clause: 114,
    title: 'pending inbox items at disposal are durably cancelled while the session is still attached (and stay cancelled on resume)',
    async run(target) {
      const h = await makeHarness(target)
      const handle = await h.create('s1')
      const step = h.msg('parked context')
      const turn = h.msg('parked prompt')
      handle.agent.inject(step)
      handle.agent.send(turn, 'next-turn', false)
      assert.equal(count(handle.agent, 'turn/start'), 0)
      await handle.dispose()
      const canceled = handle.agent.session.events.filter((e) => e.type === 'agent/inbox/spliced' && (e.data as { outcome?: string }).outcome === 'canceled')
      assert.deepEqual(canceled.map((e) => e.data), [
        { target: 'next-step', start: 0, removedCount: 1, inserted: [], outcome: 'canceled' },
        { target: 'next-turn', start: 0, removedCount: 1, inserted: [], outcome: 'canceled' },
      ])
      const published = h.observed.filter((o) => o.id === 's1' && o.name === 'session/event' && o.detail === 'agent/inbox/spliced')
      assert.equal(published.length, 4, 'both cancellations were published (the session was still attached)')
      assert.ok(published.every((o) => o.sessionLive))
      assert.ok(h.observed.lastIndexOf(published.at(-1)!) < indexOf(h, 's1', 'agent/disposed'), 'cancellation precedes agent/disposed')
      assert.deepEqual(h.names('s1', (o) => o.name === 'agent/inbox/discarded').length, 2)
      const h2 = await h.restart()
      const resumed = await h2.ctx.agents.resume({ resumeSessionId: 's1' })
      assert.deepEqual([resumed.agent.inbox.nextStep, resumed.agent.inbox.nextTurn], [[], []], 'resume finds nothing pending')
    },
  },
  {
    group: GROUP, clause: 114,
    title: 'Q4: teardown requested from inside a session/event observer with a non-empty inbox completes every step; nothing is appended afterwards',
    async run(target) {
      for (const variant of ['idle', 'open turn'] as const) {
        const reached = gate()
        const h = await makeHarness(target, { script: [hangAt(reached)] })
        const log: string[] = []
        const handle = variant === 'idle'
          ? await h.create('s1', { setup: scopeMarker(log) })
          : await withOpenTurn(h, reached, { setup: scopeMarker(log) })
        h.ctx.on('agent/disposed', ({ agent }) => { if (agent.id === 's1') log.push('agent-disposed') })
        h.ctx.on('session/disposed', (s) => { if (s.id === 's1') log.push('session-disposed') })
        handle.agent.inject(h.msg('pending'))
        let disposing: Promise<void> | undefined
        h.ctx.on('session/event', (session, event) => {
          if (session === handle.agent.session && event.type === 'agent/inbox/spliced' && !disposing) disposing = handle.dispose()
        })
        if (variant === 'idle') handle.agent.inject(h.msg('second'))
        else handle.agent.steer(h.msg('steer'))
        assert.ok(disposing, `${variant}: the observer should have requested teardown`)
        await disposing
        assert.deepEqual(log, ['scope-disposed', 'agent-disposed', 'session-disposed'], variant)
        assertEmpty(h)
        if (variant === 'open turn') {
          assert.deepEqual(turnEnds(handle.agent), [DISPOSED_END])
          assert.ok(indexOf(h, 's1', 'session/event', 'turn/end') < indexOf(h, 's1', 'agent/disposed'), 'quiescence precedes agent/disposed')
        }
        const disposedAt = indexOf(h, 's1', 'agent/disposed')
        assert.deepEqual(h.observed.slice(disposedAt).filter((o) => o.id === 's1' && o.name === 'session/event'), [], `${variant}: no appends published after agent/disposed`)
        const length = handle.agent.session.events.length
        await settle()
        assert.equal(handle.agent.session.events.length, length, `${variant}: the agent appends nothing after dispose resolved`)
      }
    },
  },
  {
    group: GROUP, clause: 115,
    title: 'a child created through parent.ctx is fully torn down before the parent agent/disposed',
    async run(target) {
      const reached = gate()
      const h = await makeHarness(target, { script: [hangAt(reached)] })
      const parent = await h.create('p')
      const child = await parent.agent.ctx.agents.create({ sessionId: 'c' })
      child.agent.followup(h.msg('child work'))
      await reached.promise
      await parent.dispose()
      const order = h.observed
        .filter((o) => o.name === 'agent/disposed' || o.name === 'session/disposed' || (o.name === 'session/event' && o.detail === 'turn/end'))
        .map((o) => `${o.id}:${o.name === 'session/event' ? 'turn/end' : o.name}`)
      assert.deepEqual(order, ['c:turn/end', 'c:agent/disposed', 'c:session/disposed', 'p:agent/disposed', 'p:session/disposed'])
      assert.deepEqual(turnEnds(child.agent), [DISPOSED_END])
      assertEmpty(h)
      const before = h.observed.length
      await child.dispose()
      assert.equal(h.observed.length, before, 'disposing the child handle afterwards emits nothing')
    },
  },
]
