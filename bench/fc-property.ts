/**
 * The end-to-end baseline a user would write without the kit: a fast-check property around
 * `fc.scheduler()` and the factory under test, on the kit's runtime (`createRoot` and the factory's
 * install), with the checks a careful user writes by hand. None of the kit's world, programs,
 * strategies or checkers is used.
 *
 * - **Arbitrary**: up to 8 lifecycle operations on three session ids and two owner scopes: create
 *   (from the root or an owner; a setup of 0–2 awaited steps that may fail; a creation signal),
 *   resume, dispose, followup, steer, cancel, whenIdle, abort a creation signal, unload an owner.
 * - **Interleaving**: every operation, every setup step and every model reply is a task of
 *   `fc.scheduler()`, released in the order fast-check picks (`await s.waitIdle()`).
 * - **Checks**: every create/resume, dispose and whenIdle settles; a create rejected leaves its id
 *   unregistered unless another create of it won; a cancel leaves nothing pending; once a dispose resolves neither registry holds
 *   that agent or its session; `agent/created` once per published agent and `agent/disposed` at most
 *   once, after it; every live agent ends idle with nothing pending; both
 *   registries are empty once the factory's plugin unloads and every created agent was disposed; no
 *   unhandled rejection.
 *
 * `node dist/bench/fc-property.js --child throughput --runs N` and `--child detect --adapter <mutant
 * file> --seeds S --cap C` are the modes `bench/e2e.ts` runs; alone it checks the reference.
 * @module
 */
import fc from 'fast-check'
import type { Agent, AgentHandle, Context, Model, ModelReply, ModelRequest, SessionId } from '../core/contract.js'
import { createUserMessage } from '../core/messages.js'
import { InMemoryPersistence } from '../core/persistence.js'
import type { PersistedSession } from '../core/persistence.js'
import type { InstallFactory } from '../core/process.js'
import { createRoot } from '../core/root.js'

/** One operation of the hand-written property. */
export type UserOp =
  | { readonly kind: 'create'; readonly id: SessionId; readonly owner: Owner; readonly setupSteps: number; readonly setupFails: boolean; readonly signal: boolean }
  | { readonly kind: 'resume'; readonly id: SessionId; readonly owner: Owner }
  | { readonly kind: 'dispose' | 'followup' | 'steer' | 'cancel' | 'whenIdle' | 'abortCreate'; readonly id: SessionId }
  | { readonly kind: 'unloadOwner'; readonly owner: Exclude<Owner, 'root'> }

type Owner = 'root' | 'o1' | 'o2'

const ids = fc.constantFrom('s1', 's2', 's3')
const owners = fc.constantFrom<Owner>('root', 'o1', 'o2')

/** The operations a user would draw. */
export const userOpArbitrary: fc.Arbitrary<UserOp> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('create' as const), id: ids, owner: owners, setupSteps: fc.integer({ min: 0, max: 2 }), setupFails: fc.boolean(), signal: fc.boolean() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('resume' as const), id: ids, owner: owners }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constantFrom('dispose' as const, 'followup' as const, 'steer' as const, 'cancel' as const, 'whenIdle' as const, 'abortCreate' as const), id: ids }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('unloadOwner' as const), owner: fc.constantFrom('o1' as const, 'o2' as const) }) },
)

/** A program: 1..8 operations. */
export const userProgramArbitrary = fc.array(userOpArbitrary, { minLength: 1, maxLength: 8 })

/** A promise's state, read without awaiting it. */
interface Tracked<T> {
  readonly promise: Promise<T>
  state: 'pending' | 'fulfilled' | 'rejected'
  value?: T
}

function track<T>(promise: Promise<T>): Tracked<T> {
  const t: Tracked<T> = { promise, state: 'pending' }
  promise.then((value) => { t.state = 'fulfilled'; t.value = value }, () => { t.state = 'rejected' })
  return t
}

/** One run of the property on `install`: the first failed check, or `undefined`. */
export async function userProperty(s: fc.Scheduler, ops: readonly UserOp[], install: InstallFactory): Promise<string | undefined> {
  const failures: string[] = []
  const fail = (message: string): void => { failures.push(message) }
  const unhandled: unknown[] = []
  const onRejection = (reason: unknown): void => { unhandled.push(reason) }
  process.on('unhandledRejection', onRejection)
  let n = 0
  let clock = 1_000
  const disk = new Map<SessionId, PersistedSession>()
  // The model answers when the scheduler lets it; an abort rejects at once.
  const model: Model = {
    call: (request: ModelRequest): Promise<ModelReply> => new Promise((resolve, reject) => {
      if (request.signal.aborted) return reject(request.signal.reason)
      request.signal.addEventListener('abort', () => reject(request.signal.reason), { once: true })
      s.schedule(Promise.resolve(), `reply ${request.sessionId}`).then(() => resolve({ text: 'ok' }), reject)
    }),
  }
  const root = createRoot({ now: () => clock++, newId: (kind) => `${kind}-${++n}`, warn: () => undefined, model, persistence: (ctx) => new InMemoryPersistence(ctx, disk) })
  try {
    const factory = install(root.ctx)
    const scopes = { o1: root.ctx.createScope(undefined, 'o1'), o2: root.ctx.createScope(undefined, 'o2') }
    const ctxOf = (owner: Owner): Context => (owner === 'root' ? root.ctx : scopes[owner].ctx)
    const created = new Map<Agent, number>()
    const disposed = new Map<Agent, number>()
    root.ctx.on('agent/created', ({ agent }) => {
      created.set(agent, (created.get(agent) ?? 0) + 1)
      if (disposed.has(agent)) fail(`agent/created of ${agent.id} after its agent/disposed`)
    })
    root.ctx.on('agent/disposed', ({ agent }) => {
      disposed.set(agent, (disposed.get(agent) ?? 0) + 1)
      if (!created.has(agent)) fail(`agent/disposed of ${agent.id} that was never created`)
    })
    const creates: { id: SessionId; t: Tracked<AgentHandle> }[] = []
    const waits: { what: string; t: Tracked<unknown> }[] = []
    const signals = new Map<SessionId, AbortController>()
    const live = (id: SessionId): AgentHandle | undefined => creates.filter((c) => c.id === id && c.t.state === 'fulfilled').map((c) => c.t.value!).at(-1)

    const perform = async (op: UserOp): Promise<void> => {
      switch (op.kind) {
        case 'create':
        case 'resume': {
          const setupSteps = op.kind === 'create' ? op.setupSteps : 1
          const setup = async (): Promise<void> => {
            for (let i = 0; i < setupSteps; i++) await s.schedule(Promise.resolve(), `setup ${op.id} ${i}`)
            if (op.kind === 'create' && op.setupFails) throw new Error('setup failed')
          }
          const controller = new AbortController()
          signals.set(op.id, controller)
          const signal = op.kind === 'create' && op.signal ? { signal: controller.signal } : {}
          const agents = ctxOf(op.owner).agents
          const t = track(op.kind === 'create' ? agents.create({ sessionId: op.id, setup, ...signal }) : agents.resume({ resumeSessionId: op.id, setup }))
          creates.push({ id: op.id, t })
          await t.promise.catch(() => undefined)
          if (t.state === 'rejected' && agents.get(op.id) !== undefined && live(op.id) === undefined && creates.every((c) => c.id !== op.id || c.t.state !== 'pending')) {
            fail(`${op.kind} of ${op.id} was rejected, yet ${op.id} is registered and no other create of it won`)
          }
          return
        }
        case 'dispose': {
          const handle = live(op.id)
          if (!handle) return
          const t = track(handle.dispose())
          waits.push({ what: `dispose of ${op.id}`, t })
          await t.promise.catch(() => undefined)
          if (t.state === 'rejected') fail(`dispose of ${op.id} rejected`)
          if (root.ctx.agents.get(op.id) === handle.agent) fail(`after dispose of ${op.id} the agent registry still holds it`)
          if (root.ctx.sessions.get(op.id) === handle.agent.session) fail(`after dispose of ${op.id} the session store still holds its session`)
          return
        }
        case 'followup':
        case 'steer': {
          const agent = root.ctx.agents.get(op.id)
          if (!agent) return
          const message = createUserMessage({ content: `${op.kind} to ${op.id}` }, root.services.newId)
          try {
            if (op.kind === 'followup') agent.followup(message)
            else agent.steer(message)
          } catch {
            // A send to an agent being disposed may throw (the contract allows it).
          }
          return
        }
        case 'cancel': {
          const agent = root.ctx.agents.get(op.id)
          if (!agent) return
          agent.cancel({ kind: 'user' })
          if (agent.inbox.hasPending) fail(`${op.id} still has pending input right after cancel`)
          return
        }
        case 'whenIdle': {
          const agent = root.ctx.agents.get(op.id)
          if (agent) waits.push({ what: `whenIdle of ${op.id}`, t: track(agent.whenIdle()) })
          return
        }
        case 'abortCreate':
          signals.get(op.id)?.abort(new Error('caller gave up'))
          return
        case 'unloadOwner':
          waits.push({ what: `unload of ${op.owner}`, t: track(scopes[op.owner].dispose()) })
      }
    }

    for (const [i, op] of ops.entries()) void s.schedule(Promise.resolve(), `op ${i} ${op.kind}`).then(() => perform(op))
    await s.waitIdle()
    for (const c of creates) if (c.t.state === 'pending') fail(`create/resume of ${c.id} never settled`)
    for (const w of waits) if (w.t.state === 'pending') fail(`${w.what} never settled`)
    // Every live agent ends idle, with nothing left pending.
    const agents = root.ctx.agents.list()
    const idle = agents.map((a) => ({ a, t: track(a.whenIdle()) }))
    await s.waitIdle()
    for (const { a, t } of idle) {
      if (t.state === 'pending') fail(`whenIdle of ${a.id} never settled`)
      else if (a.status !== 'idle') fail(`${a.id} is ${a.status} after whenIdle`)
      else if (a.inbox.hasPending) fail(`${a.id} is idle with pending input`)
    }
    for (const [agent, times] of created) if (times !== 1) fail(`agent/created emitted ${times} times for ${agent.id}`)
    for (const [agent, times] of disposed) if (times !== 1) fail(`agent/disposed emitted ${times} times for ${agent.id}`)
    for (const c of creates) if (c.t.state === 'fulfilled' && !created.has(c.t.value!.agent)) fail(`${c.id} was returned without agent/created`)
    // Unloading the factory (the plugin that owns it) disposes every agent it made.
    const unload = track(factory.unload())
    await s.waitIdle()
    if (unload.state === 'pending') fail('factory unload never settled')
    if (root.ctx.agents.list().length > 0) fail(`after the factory unloaded the agent registry holds ${root.ctx.agents.list().map((a) => a.id).join(', ')}`)
    if (root.ctx.sessions.list().length > 0) fail(`after the factory unloaded the session store holds ${root.ctx.sessions.list().map((x) => x.id).join(', ')}`)
    for (const agent of created.keys()) if (!disposed.has(agent)) fail(`${agent.id} was created but never disposed`)
    // Unhandled rejections are reported once the microtask queue has drained.
    await new Promise((resolve) => setImmediate(resolve))
    if (unhandled.length > 0) fail(`unhandled rejection: ${String(unhandled[0])}`)
  } finally {
    process.off('unhandledRejection', onRejection)
    root.abandon()
  }
  return failures[0]
}

/** The property, as a user would hand it to `fc.assert`. */
export function userPropertyOf(install: InstallFactory): fc.IAsyncPropertyWithHooks<[fc.Scheduler, UserOp[]]> {
  return fc.asyncProperty(fc.scheduler(), userProgramArbitrary, async (s, ops) => {
    const failure = await userProperty(s, ops, install)
    if (failure !== undefined) throw new Error(failure)
  })
}
