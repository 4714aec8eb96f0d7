import assert from 'node:assert/strict'
import type { SessionEvent, SessionMeta, UserMessage } from '../../core/contract.js'
import { ERRORS } from '../../core/contract.js'
import type { CaseTarget, DirectedCase, Harness } from './harness.js'
import { gate, makeHarness, settle } from './harness.js'
import { assertEmpty, assertNothingPublished, drive, lifecycle, persisted, rejection, rejectsWith } from './lifecycle-helpers.js'

const GROUP = 'AGENT-CREATE-RESUME'

/** A small valid seed (a fork's copied log). */
const SEED: SessionEvent[] = [
  { type: 'note', seq: 0, time: 1, data: { text: 'forked' } },
  { type: 'note', seq: 1, time: 2, data: null },
]

function turnStarts(events: readonly SessionEvent[]): number[] {
  return events.filter((e) => e.type === 'turn/start').map((e) => (e.data as { turn: number }).turn)
}

function assertContiguous(events: readonly SessionEvent[]): void {
  events.forEach((e, i) => assert.equal(e.seq, i, `event ${i} has seq ${e.seq}`))
}

/** Every preparation the persistence handed out was released, and none was published. */
function assertPreparationsReleased(h: Harness): void {
  for (const p of h.preparations) assert.equal(p.released, true, `preparation of "${p.id}" must be released`)
}

/** "r1" with one idle inject pending, persisted and then crashed: the harness after the crash and the pending message. */
async function crashedWithPendingInject(target: CaseTarget): Promise<{ h: Harness; injected: UserMessage }> {
  const first = await makeHarness(target)
  const handle = await first.create('r1')
  const injected = first.msg('injected')
  handle.agent.inject(injected)
  return { h: await first.crash(), injected }
}

/** The next resume of "r1" still holds the restored item: the rollback before it left the inbox alone. */
async function assertRestoredItemSurvived(h: Harness, injected: UserMessage): Promise<void> {
  const { agent } = await h.ctx.agents.resume({ resumeSessionId: 'r1' })
  assert.deepEqual(agent.inbox.nextStep, [injected], 'the restored item survived the rollback')
}

/**
 * A create/resume started while the factory unloads is refused: `agent loop is not active` (§3.5
 * row I), or `no agent factory registered` (§9 1, 3) when the unload already cleared the registry
 * slot. The contract does not order the slot's clearing against the factory's own teardown.
 */
async function refusedByUnloadingFactory(promise: Promise<unknown>): Promise<void> {
  const error = await rejection(promise)
  assert.ok(error instanceof Error, `expected an Error, got ${String(error)}`)
  assert.ok([ERRORS.loopInactive, ERRORS.noFactory].some((m) => error.message.includes(m)), `expected ${JSON.stringify(ERRORS.loopInactive)} or ${JSON.stringify(ERRORS.noFactory)}, got ${JSON.stringify(error.message)}`)
}

export const createResumeCases: DirectedCase[] = [
  {
    group: GROUP, clause: 42, title: "session-start source is 'startup' for every create (seeded too) and 'resume' for resume",
    async run(target) {
      const { h } = await persisted(target, 'r1')
      const sources: string[] = []
      h.ctx.on('agent/session-start', ({ agent, source }) => { sources.push(`${agent.id}:${source}`) })
      const plain = await h.create('a')
      await h.create('b', { seed: SEED })
      await plain.agent.ctx.agents.create({ sessionId: 'c' })
      await h.ctx.agents.resume({ resumeSessionId: 'r1' })
      assert.deepEqual(sources, ['a:startup', 'b:startup', 'c:startup', 'r1:resume'])
    },
  },
  {
    group: GROUP, clause: 43, title: 'resumed log = persisted events + one session/end-seed; firstLiveSeq = persisted length; seqs contiguous',
    async run(target) {
      const { h, events } = await persisted(target, 'r1')
      assert.notEqual(events.at(-1)?.type, 'session/end-seed')
      const { agent } = await h.ctx.agents.resume({ resumeSessionId: 'r1' })
      const log = agent.session.events
      assert.equal(log.length, events.length + 1)
      assert.deepEqual(log.slice(0, events.length), events)
      assert.equal(log.at(-1)!.type, 'session/end-seed')
      assert.equal(agent.session.firstLiveSeq, events.length)
      assert.equal(agent.session.seq, log.length)
      assertContiguous(log)
      // Drive once more and resume again: the new log again gains exactly one end-seed.
      await drive(h, { agent }, 'more')
      const h2 = await h.restart()
      const second = [...h2.disk.get('r1')!.events]
      const again = await h2.ctx.agents.resume({ resumeSessionId: 'r1' })
      assert.equal(again.agent.session.events.length, second.length + 1)
      assert.deepEqual(again.agent.session.events.slice(0, second.length), second)
      assert.equal(again.agent.session.events.filter((e) => e.type === 'session/end-seed').length, 2)
      assert.equal(again.agent.session.firstLiveSeq, second.length)
      assertContiguous(again.agent.session.events)
      // A persisted log that already ends with an end-seed gains none.
      const h3 = await h2.restart()
      const third = [...h3.disk.get('r1')!.events]
      assert.equal(third.at(-1)!.type, 'session/end-seed')
      const last = await h3.ctx.agents.resume({ resumeSessionId: 'r1' })
      assert.deepEqual(last.agent.session.events, third)
      assert.equal(last.agent.session.firstLiveSeq, third.length)
    },
  },
  {
    group: GROUP, clause: 44, title: 'resumed turn numbering continues and derived history equals a replay of the persisted log',
    async run(target) {
      const { h, events, history } = await persisted(target, 'r1', { turns: 2 })
      assert.deepEqual(turnStarts(events), [1, 2])
      const { agent } = await h.ctx.agents.resume({ resumeSessionId: 'r1' })
      assert.deepEqual(agent.session.deriveMessages(), history)
      assert.equal(history.length, 4)
      agent.followup(h.msg('third'))
      await agent.whenIdle()
      assert.deepEqual(turnStarts(agent.session.events), [1, 2, 3])
      // The first request after the resume carries the whole resumed history, then the new input
      // (compared by role and text: the model seam's messages, not the session's own shape).
      const roleText = (m: { role: string; text?: string; content?: readonly { text?: string }[] }) => ({ role: m.role, text: m.text ?? (m.content ?? []).map((b) => b.text ?? '').join('') })
      assert.deepEqual(h.model.requests[0]!.messages.map(roleText), [...history.map(roleText), { role: 'user', text: 'third' }])
    },
  },
  {
    group: GROUP, clause: 45, title: 'resume preserves header cwd, parentSession, seedLength (from the header) and delegationDepth',
    async run(target) {
      const meta: SessionMeta = { cwd: '/work/project', parentSession: 'p0', seedLength: 1, origin: 'subagent', delegationDepth: 2, agentPreset: 'reviewer' }
      const { h, header, events } = await persisted(target, 'r1', { create: { meta, seed: SEED }, turns: 1 })
      assert.equal(header.seedLength, 1)
      const { agent } = await h.ctx.agents.resume({ resumeSessionId: 'r1' })
      const restored = agent.session.header
      assert.deepEqual(restored, header)
      assert.equal(restored.cwd, '/work/project')
      assert.equal(restored.parentSession, 'p0')
      assert.equal(restored.seedLength, 1, 'seedLength comes from the persisted header, not the seed length')
      assert.notEqual(events.length, 1)
      assert.equal(restored.delegationDepth, 2)
      assert.equal(restored.createdAt, header.createdAt)
    },
  },
  {
    group: GROUP, clause: 45, title: 'resume validates the persisted header: a version other than the format version, an id other than the session id, or a createdAt that is not a non-negative safe integer rejects and publishes nothing',
    resumes: true,
    async run(target) {
      // §1.2: the header is validated when built, the restored one too (§3.5 row A: nothing published).
      const { h, header, events } = await persisted(target, 'r1', { turns: 1 })
      const valid: Record<string, unknown> = { ...header }
      const without = (key: string): Record<string, unknown> => {
        const copy = { ...valid }
        delete copy[key]
        return copy
      }
      const bad: [string, Record<string, unknown>][] = [
        ['version + 1', { ...valid, version: header.version + 1 }],
        ['version as a string', { ...valid, version: String(header.version) }],
        ['no version', without('version')],
        ['another id', { ...valid, id: 'r2' }],
        ['no id', without('id')],
        ['negative createdAt', { ...valid, createdAt: -1 }],
        ['fractional createdAt', { ...valid, createdAt: 1.5 }],
        ['createdAt as a string', { ...valid, createdAt: String(header.createdAt) }],
        ['createdAt beyond the safe integers', { ...valid, createdAt: 2 ** 53 }],
        ['no createdAt', without('createdAt')],
      ]
      for (const [label, persistedHeader] of bad) {
        h.disk.set('r1', { header: persistedHeader as never, events: [...events] })
        const error = await rejection(h.ctx.agents.resume({ resumeSessionId: 'r1' }))
        assert.ok(error instanceof Error, `${label}: expected an Error, got ${String(error)}`)
        assertNothingPublished(h, 'r1')
      }
      assertEmpty(h)
      // The same log under its own header resumes: the rejections were the header's.
      h.disk.set('r1', { header: { ...valid, createdAt: 0 } as never, events: [...events] })
      const { agent } = await h.ctx.agents.resume({ resumeSessionId: 'r1' })
      assert.equal(agent.session.header.createdAt, 0, 'createdAt 0 is a non-negative safe integer')
      assert.equal(agent.session.header.id, 'r1')
    },
  },
  {
    group: GROUP, clause: 46, title: 'a session without cwd resumes with header.cwd undefined',
    async run(target) {
      const { h, header } = await persisted(target, 'r1', { turns: 1 })
      assert.equal(header.cwd, undefined)
      const { agent } = await h.ctx.agents.resume({ resumeSessionId: 'r1' })
      assert.equal(agent.session.header.cwd, undefined)
      assert.equal(agent.session.header.id, 'r1')
    },
  },
  {
    group: GROUP, clause: 47, title: 'a pending idle inject persisted before a crash is in inbox.nextStep after resume and enters the next request',
    async run(target) {
      const first = await makeHarness(target)
      const handle = await first.create('r1')
      await drive(first, handle, 'first')
      const injected = first.msg('injected')
      handle.agent.inject(injected)
      assert.equal(handle.agent.status, 'idle')
      const h = await first.crash()
      const { agent } = await h.ctx.agents.resume({ resumeSessionId: 'r1' })
      assert.deepEqual(agent.inbox.nextStep, [injected])
      assert.deepEqual(agent.inbox.nextTurn, [])
      await settle()
      assert.equal(agent.status, 'idle', 'restored items are not auto-run')
      assert.equal(h.model.requests.length, 0)
      agent.followup(h.msg('next'))
      await agent.whenIdle()
      const texts = h.model.requests[0]!.messages.map((m) => m.text)
      assert.ok(texts.includes('injected'), `the first request after resume carries the inject: ${JSON.stringify(texts)}`)
      assert.ok(texts.includes('next'))
      assert.equal(agent.inbox.hasPending, false)
    },
  },
  {
    group: GROUP, clause: 47, title: "a resume rolled back before publication (its setup throws) discards none of the restored inbox: no discarded event, and the next resume still holds it",
    async run(target) {
      // §3.5 rows E–I: a rollback before publication is "scope disposal only" (nothing announced, the
      // persisted log untouched), so the restored pending items are not the rollback's to cancel.
      const { h, injected } = await crashedWithPendingInject(target)
      const failure = new Error('setup failed')
      await rejectsWith(h.ctx.agents.resume({ resumeSessionId: 'r1', setup: () => { throw failure } }), failure.message)
      assert.deepEqual(h.names('r1', (o) => o.name === 'agent/inbox/discarded'), [], 'no discarded notification for an agent nobody was told about')
      await assertRestoredItemSurvived(h, injected)
    },
  },
  {
    group: GROUP, clause: 47, title: "a resume vetoed by a session/created listener (§3.5 row J) keeps the restored inbox: no agent events at all, and the next resume still holds it",
    async run(target) {
      // Row J: the agent entered both registries but was never announced, so it leaves silently
      // (§3.6 rule 3); discarding its restored items would announce it through agent/inbox/discarded.
      const { h, injected } = await crashedWithPendingInject(target)
      const thrown = new Error('veto')
      let armed = true
      h.ctx.on('session/created', (session) => { if (armed && session.id === 'r1') { armed = false; throw thrown } })
      assert.equal(await rejection(h.ctx.agents.resume({ resumeSessionId: 'r1' })), thrown)
      assert.deepEqual(h.names('r1', (o) => o.name.startsWith('agent/')), [], 'no agent events for an agent that was never announced')
      await assertRestoredItemSurvived(h, injected)
    },
  },
  {
    group: GROUP, clause: 48, title: 'resume without persistence rejects with the not-configured error',
    needs: ['noPersistence'],
    async run(target) {
      const h = await makeHarness(target, { noPersistence: true })
      await rejectsWith(h.ctx.agents.resume({ resumeSessionId: 's1' }), ERRORS.noPersistence)
      assertNothingPublished(h, 's1')
      assertEmpty(h)
      await h.create('s1')
      await rejectsWith(h.ctx.agents.resume({ resumeSessionId: 'other' }), ERRORS.noPersistence)
    },
  },
  {
    group: GROUP, clause: 49, title: 'resume with a pre-aborted signal rejects with the reason; a non-Error reason yields creation aborted',
    async run(target) {
      const { h } = await persisted(target, 'r1')
      const reason = new Error('stop')
      let setupCalled = false
      const error = await rejection(h.ctx.agents.resume({ resumeSessionId: 'r1', signal: AbortSignal.abort(reason), setup: () => { setupCalled = true } }))
      assert.equal(error, reason)
      const plain = { why: 'plain' }
      const wrapped = await rejectsWith(h.ctx.agents.resume({ resumeSessionId: 'r1', signal: AbortSignal.abort(plain) }), ERRORS.creationAborted('r1'))
      assert.equal(wrapped.cause, plain)
      assert.equal(setupCalled, false)
      assertNothingPublished(h, 'r1')
      assertPreparationsReleased(h)
      const ok = await h.ctx.agents.resume({ resumeSessionId: 'r1' })
      assert.equal(h.ctx.agents.get('r1'), ok.agent)
    },
  },
  {
    group: GROUP, clause: 50, title: 'owner unload during a hung load rejects promptly; the id is reusable; a late preparation is released unpublished',
    needs: ['preparations'],
    async run(target) {
      // A hung provider that honours the load signal.
      {
        const started = gate<AbortSignal | undefined>()
        const hold = gate()
        let loads = 0
        const { h } = await persisted(target, 'r1', {
          next: { beforeLoad: async (_id, signal) => { if (++loads === 1) { started.open(signal); await hold.promise } } },
        })
        const owner = h.owner()
        const pending = owner.ctx.agents.resume({ resumeSessionId: 'r1' })
        const signal = await started.promise
        const unloading = owner.unload()
        await rejectsWith(pending, ERRORS.ownerDisposed('r1'))
        await unloading
        assert.equal(hold.opened, false, 'rejected without waiting for the load')
        assert.equal(signal?.aborted, true, 'the load signal is aborted')
        assertNothingPublished(h, 'r1')
        const again = await h.ctx.agents.resume({ resumeSessionId: 'r1' })
        hold.open()
        await settle()
        assert.equal(h.ctx.agents.get('r1'), again.agent)
        assert.deepEqual(lifecycle(h, 'r1'), ['session/created', 'agent/created', 'agent/session-start'])
        await h.shutdown()
      }
      // A provider whose preparation arrives after the caller gave up.
      {
        const loaded = gate()
        const hold = gate()
        let loads = 0
        const { h } = await persisted(target, 'r1', {
          next: { afterLoad: async () => { if (++loads === 1) { loaded.open(); await hold.promise } } },
        })
        const owner = h.owner()
        const pending = owner.ctx.agents.resume({ resumeSessionId: 'r1' })
        await loaded.promise
        const unloading = owner.unload()
        await rejectsWith(pending, ERRORS.ownerDisposed('r1'))
        await unloading
        assert.equal(hold.opened, false)
        const again = await h.ctx.agents.resume({ resumeSessionId: 'r1' })
        assert.equal(h.preparations[0]!.released, false, 'still in flight')
        hold.open()
        await settle()
        assert.equal(h.preparations[0]!.released, true, 'the late preparation is released')
        assert.equal(h.ctx.agents.get('r1'), again.agent)
        assert.equal(h.ctx.sessions.get('r1'), again.agent.session)
        assert.deepEqual(h.ctx.sessions.list(), [again.agent.session])
        assert.deepEqual(lifecycle(h, 'r1'), ['session/created', 'agent/created', 'agent/session-start'])
      }
    },
  },
  {
    group: GROUP, clause: 50, title: 'a resume releases its preparation once it settles: after publication, and after a rollback (a throwing setup)',
    needs: ['preparations'],
    async run(target) {
      // §3.1 resume: "the preparation is disposed in a finally (after publication or rollback)".
      const { h } = await persisted(target, 'r1')
      const failure = new Error('setup failed')
      await rejectsWith(h.ctx.agents.resume({ resumeSessionId: 'r1', setup: () => { throw failure } }), failure.message)
      assert.equal(h.preparations.length, 1)
      assert.equal(h.preparations[0]!.released, true, 'released after the rollback')
      const resumed = await h.ctx.agents.resume({ resumeSessionId: 'r1' })
      assert.equal(h.ctx.agents.get('r1'), resumed.agent)
      assert.equal(h.preparations.length, 2)
      assert.equal(h.preparations[1]!.released, true, 'released after the publication')
    },
  },
  {
    group: GROUP, clause: 51, title: 'factory unload during a hung load rejects loop inactive; nothing is published even after the load resolves',
    needs: ['preparations'],
    async run(target) {
      const loaded = gate()
      const hold = gate()
      const { h } = await persisted(target, 'r1', { next: { afterLoad: async () => { loaded.open(); await hold.promise } } })
      const pending = h.ctx.agents.resume({ resumeSessionId: 'r1' })
      await loaded.promise
      const unloading = h.unloadFactory()
      await rejectsWith(pending, ERRORS.loopInactive)
      await unloading
      assert.equal(hold.opened, false)
      hold.open()
      await settle()
      assert.equal(h.preparations[0]!.released, true)
      assertNothingPublished(h, 'r1')
      assertEmpty(h)
    },
  },
  {
    group: GROUP, clause: 51, title: "a resume started inside the factory's own unload (from its load signal's abort) is refused at once (loop inactive, or no factory once its slot is cleared), never loading; the unload settles",
    needs: ['preparations'],
    async run(target) {
      const started = gate()
      const never = gate()
      let second: Promise<unknown> | undefined
      let loads = 0
      const { h } = await persisted(target, 'r1', {
        next: {
          beforeLoad: async (_id, signal) => {
            if (++loads === 1) {
              // Runs synchronously inside the factory's unload, once it stopped accepting (§1.8 (10)).
              signal?.addEventListener('abort', () => { second = h.ctx.agents.resume({ resumeSessionId: 'r1' }); second.catch(() => undefined) })
              started.open()
            }
            await never.promise
          },
        },
      })
      const first = h.ctx.agents.resume({ resumeSessionId: 'r1' })
      await started.promise
      const unloading = h.unloadFactory()
      await rejectsWith(first, ERRORS.loopInactive)
      let settled = false
      void unloading.then(() => { settled = true })
      for (let i = 0; i < 20 && !settled; i++) await settle()
      assert.ok(second !== undefined, 'the abort listener ran')
      await refusedByUnloadingFactory(second!)
      assert.equal(loads, 1, 'an inactive factory starts no load')
      assert.ok(settled, 'the factory unload settled (no load left hanging)')
      assertNothingPublished(h, 'r1')
    },
  },
  {
    group: GROUP, clause: 51, title: "a create started inside the factory's own unload (from a load signal's abort) is refused (loop inactive, or no factory once its slot is cleared) before any resource exists: no agent scope is minted",
    needs: ['preparations', 'scopeMinting'],
    async run(target) {
      // §3.1 step 3: "assert factory active ... all before any resource exists".
      const started = gate()
      const never = gate()
      let minted = 0
      let mintedByCreate = -1
      let created: Promise<unknown> | undefined
      const { h } = await persisted(target, 'r1', {
        next: {
          scopeCreated: () => { minted++ },
          beforeLoad: async (_id, signal) => {
            signal?.addEventListener('abort', () => {
              const before = minted
              created = h.ctx.agents.create({ sessionId: 'c1' })
              created.catch(() => undefined)
              mintedByCreate = minted - before
            })
            started.open()
            await never.promise
          },
        },
      })
      const pending = h.ctx.agents.resume({ resumeSessionId: 'r1' })
      pending.catch(() => undefined)
      await started.promise
      await h.unloadFactory()
      assert.ok(created !== undefined, 'the abort listener ran')
      await refusedByUnloadingFactory(created!)
      assert.equal(mintedByCreate, 0, 'no agent scope minted for a create the inactive factory refused')
      assertNothingPublished(h, 'c1')
    },
  },
  {
    group: GROUP, clause: 51, title: "the caller's creation signal bounds a resume's load: aborted before the call it rejects without loading, aborted during a hung load it rejects promptly; a later resume loads and publishes",
    needs: ['preparations'],
    async run(target) {
      // §3.1 R2–R4 and §3.3: the load races the fused signal (caller signal included). What becomes
      // of that signal once the load settled is not specified (§1.4: the persistence honours it until
      // prepare returns; upstream's R4 removal runs the temporary effect, which aborts it), so it is
      // not checked.
      const started = gate<AbortSignal | undefined>()
      const never = gate()
      const signals: (AbortSignal | undefined)[] = []
      let hang = false
      const { h } = await persisted(target, 'r1', {
        next: { beforeLoad: async (_id, signal) => { signals.push(signal); if (hang) { started.open(signal); await never.promise } } },
      })
      const reason = new Error('caller gave up')
      const early = new AbortController()
      early.abort(reason)
      const before = await rejection(h.ctx.agents.resume({ resumeSessionId: 'r1', signal: early.signal }))
      assert.equal(before, reason, 'an already aborted signal rejects with its reason')
      assert.equal(signals.length, 0, 'no load for an already aborted signal')
      hang = true
      const caller = new AbortController()
      const pending = h.ctx.agents.resume({ resumeSessionId: 'r1', signal: caller.signal })
      const loadSignal = await started.promise
      caller.abort(reason)
      let settled = false
      void pending.then(() => { settled = true }, () => { settled = true })
      for (let i = 0; i < 20 && !settled; i++) await settle()
      assert.ok(settled, 'rejected without waiting for the hung load')
      assert.equal(await rejection(pending), reason)
      assert.equal(loadSignal?.aborted, true, 'the load signal is aborted')
      assertNothingPublished(h, 'r1')
      hang = false
      const later = new AbortController()
      const ok = await h.ctx.agents.resume({ resumeSessionId: 'r1', signal: later.signal })
      assert.equal(h.ctx.agents.get('r1'), ok.agent)
      assert.equal(signals.length, 2, 'one load per resume that got past its signal check')
    },
  },
  {
    group: GROUP, clause: 52, title: 'a non-JSON seed rejects with the seed error; nothing is published; the id is reusable',
    async run(target) {
      const h = await makeHarness(target)
      for (const data of [{ n: Number.NaN }, new Map(), () => 1]) {
        const seed = [{ type: 'note', seq: 0, time: 1, data }] as unknown as SessionEvent[]
        let setupCalled = false
        await rejectsWith(h.create('s1', { seed, setup: () => { setupCalled = true } }), ERRORS.seedNotJson(0))
        assert.equal(setupCalled, false)
        assertNothingPublished(h, 's1')
        assertEmpty(h)
      }
      const ok = await h.create('s1', { seed: SEED })
      assert.equal(h.ctx.agents.get('s1'), ok.agent)
    },
  },
  {
    group: GROUP, clause: 53, title: 'meta.cwd sets header.cwd; a relative cwd rejects with absolute path and leaves no lifecycle state',
    async run(target) {
      const h = await makeHarness(target)
      let setupCalled = false
      await rejectsWith(h.create('s1', { meta: { cwd: 'rel/dir' }, setup: () => { setupCalled = true } }), ERRORS.cwdNotAbsolute('rel/dir'))
      assert.equal(setupCalled, false)
      assertNothingPublished(h, 's1')
      assertEmpty(h)
      assert.deepEqual(h.observed, [])
      const ok = await h.create('s1', { meta: { cwd: '/abs/dir' } })
      assert.equal(ok.agent.session.header.cwd, '/abs/dir')
      assert.equal(h.ctx.sessions.get('s1')!.header.cwd, '/abs/dir')
    },
  },
  {
    group: GROUP, clause: 53, title: 'create validates every meta header field (cwd a string path, parentSession and agentPreset strings, seedLength and delegationDepth non-negative safe integers, origin only subagent): a bad one rejects and leaves no lifecycle state',
    async run(target) {
      // §1.2 header validation; §3.1 step 2 and §3.5 row A: a sync rejection at prepare, nothing published.
      // Only that an Error rejects is asserted: the contract fixes no text except the relative cwd's (case above).
      const h = await makeHarness(target)
      const notCount = [-1, 1.5, '1', 2 ** 53, true]
      const bad: [string, Record<string, unknown>][] = [
        ['cwd a String object', { cwd: new String('/abs/dir') }],
        ['cwd a number', { cwd: 7 }],
        ['parentSession a number', { parentSession: 7 }],
        ['parentSession an object', { parentSession: { id: 'p0' } }],
        ...notCount.map((v): [string, Record<string, unknown>] => [`seedLength ${JSON.stringify(v)}`, { seedLength: v }]),
        ...notCount.map((v): [string, Record<string, unknown>] => [`delegationDepth ${JSON.stringify(v)}`, { delegationDepth: v }]),
        ['origin "parent"', { origin: 'parent' }],
        ['origin ""', { origin: '' }],
        ['origin 1', { origin: 1 }],
        ['agentPreset a number', { agentPreset: 7 }],
        ['agentPreset a boolean', { agentPreset: true }],
      ]
      for (const [label, meta] of bad) {
        let setupCalled = false
        const error = await rejection(h.create('s1', { meta: meta as SessionMeta, setup: () => { setupCalled = true } }))
        assert.ok(error instanceof Error, `${label}: expected an Error, got ${String(error)}`)
        assert.equal(setupCalled, false, `${label}: setup must not run`)
        assertNothingPublished(h, 's1')
      }
      assertEmpty(h)
      assert.deepEqual(h.observed, [])
      const meta: SessionMeta = { cwd: '/abs/dir', parentSession: 'p0', seedLength: 0, origin: 'subagent', delegationDepth: 0, agentPreset: 'reviewer' }
      const ok = await h.create('s1', { meta })
      const header = ok.agent.session.header
      assert.deepEqual(
        [header.cwd, header.parentSession, header.seedLength, header.origin, header.delegationDepth, header.agentPreset],
        ['/abs/dir', 'p0', 0, 'subagent', 0, 'reviewer'],
        'valid values (0 included) land in the header',
      )
    },
  },
  {
    group: GROUP, clause: 53, title: 'a sessionId that is not a string (a number, a boolean, an object) is a bad id: create rejects before setup and leaves no lifecycle state',
    async run(target) {
      // §1.1: a SessionId is a string; §3.5 row A: a bad id rejects with the validation error and
      // nothing is observable. Only that an Error rejects is asserted: the contract fixes no text.
      const h = await makeHarness(target)
      for (const id of [42, true, { id: 's1' }]) {
        let setupCalled = false
        const error = await rejection(h.create(id as never, { setup: () => { setupCalled = true } })).catch((failure: Error) => {
          throw new Error(`sessionId ${JSON.stringify(id)}: ${failure.message}`, { cause: failure })
        })
        assert.ok(error instanceof Error, `sessionId ${JSON.stringify(id)}: expected an Error, got ${String(error)}`)
        assert.equal(setupCalled, false, `sessionId ${JSON.stringify(id)}: setup must not run`)
      }
      assertEmpty(h)
      assert.deepEqual(h.observed, [])
    },
  },
]
