/**
 * The capability probe: the adapter installed (or its process booted) once into a throwaway
 * process, so an adapter that throws on install or registers no factory is reported as such (exit
 * 78), not as a hundred failing clauses. The CLI runs it in a watched worker, like all adapter code.
 * @module
 */
import { createRoot } from '../../core/root.js'
import { settleOrHang } from '../../sim/pool/settle-or-hang.js'
import { AdapterError } from './adapter.js'
import type { NormalizedAdapter } from './adapter.js'

/**
 * Install the adapter once into a throwaway process, so an adapter that throws on install or does
 * not register a factory is reported as such, not as a hundred failing clauses.
 */
export async function probeInstall(adapter: NormalizedAdapter, source: string): Promise<void> {
  if (adapter.foreign) return probeProcess(adapter, source)
  const root = createRoot({ warn: () => undefined })
  try {
    const installed = adapter.installFactory(root.ctx)
    const factory = root.registry.factory as unknown
    if (!factory) {
      throw new AdapterError(`${source}: install(world) returned without registering a factory; call world.ctx.agents.setFactory(factory) (or use factoryAdapter/referenceAdapter)`)
    }
    await awaitProbeTeardown(() => installed.unload())
  } finally {
    await awaitProbeTeardown(() => root.shutdown())
    root.abandon()
  }
}

/**
 * How long the probe waits for its throwaway process to unload (less if the event loop drains first).
 * A runtime whose unload never settles is not an adapter error: the probe moves on and the watched
 * cases charge the hang to a clause (waiting unwatched here ended certify as "the event loop went
 * idle", naming nothing).
 */
const PROBE_TEARDOWN_MS = 2_000

/** Await a probe's teardown under the watchdogs of {@link settleOrHang}: a rejection propagates, a hang is left to the cases. */
async function awaitProbeTeardown(teardown: () => Promise<unknown>): Promise<void> {
  const settled = await settleOrHang(teardown, { timeoutMs: PROBE_TEARDOWN_MS })
  if (settled.kind === 'rejected') throw settled.error
}

/** Boot a process adapter once outside the simulator and check it exposes the registries. */
async function probeProcess(adapter: NormalizedAdapter, source: string): Promise<void> {
  const handle = await adapter.processFactory({
    now: () => 0, newId: (kind) => `${kind}-probe`, warn: () => undefined, checkpoint: () => Promise.resolve(),
    model: { call: async () => ({ text: 'probe' }) }, disk: new Map(),
  })
  try {
    if (typeof handle?.ctx?.agents?.create !== 'function' || typeof handle.ctx.sessions?.list !== 'function') {
      throw new AdapterError(`${source}: process(services) must return a handle whose ctx exposes agents and sessions`)
    }
    for (const method of ['observe', 'owner', 'unloadFactory', 'shutdown', 'abandon'] as const) {
      if (typeof handle[method] !== 'function') throw new AdapterError(`${source}: process(services) returned a handle without ${method}()`)
    }
    await awaitProbeTeardown(() => handle.shutdown())
  } finally {
    handle?.abandon?.()
  }
}
