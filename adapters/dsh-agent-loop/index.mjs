/**
 * dsh-lifecycle-kit adapter for the upstream agent runtime published on npm
 * (`@deepseek-ai/dsh-agent-loop` and its companions). A process adapter: each simulated process
 * boots a whole upstream world in a fresh cordis `Context` (see `lib/process.mjs`).
 *
 *   dsh-kit certify --adapter adapters/dsh-agent-loop          # the published AgentLoop
 *
 * `createAdapter({ factoryPlugin })` certifies another factory plugin for the same harness.
 * Needs Node >= 22 (run it with the local Node that `scripts/setup.sh` installs).
 * @module
 */
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { AgentLoop } from '@deepseek-ai/dsh-agent-loop'
import { bootProcess } from './lib/process.mjs'

export { bootProcess, INVARIANT_COMPANIONS } from './lib/process.mjs'
export { MemoryPersistence, rawHook } from './lib/persistence.mjs'
export { KitModelAdapter, FOLLOW_UP_TOOL } from './lib/model.mjs'

const require = createRequire(import.meta.url)

/**
 * Run seeds a `dsh-kit fuzz` worker runs before a fresh one replaces it. Upstream keeps the whole
 * world of some runs in the thread for good: `resumeWith` fuses its signals with
 * `AbortSignal.any()` and listens to the result while the load runs, and a run that ends with that
 * load hung leaves the listener on a signal that never aborts, which Node keeps reachable (with
 * everything the listener reaches) as long as it has not aborted. About one run in 70 does, some
 * 380 KB each: a one-worker guided campaign's resident memory grew from 196 to 446 MB over 15,000
 * runs. A fresh worker costs 2-5 s of CPU (its load and JIT warm-up), 1-3% of 10,000 runs. See
 * REPORT.md ("Kit fixes made while certifying").
 */
export const DEFAULT_RECYCLE_AFTER = 10_000

/** The installed version of an npm package (from its package.json). */
function installedVersion(name) {
  try {
    return JSON.parse(readFileSync(require.resolve(`${name}/package.json`), 'utf8')).version
  } catch {
    return 'unknown'
  }
}

/**
 * Build an adapter.
 * @param {object} [options]
 * @param {Function|object} [options.factoryPlugin] the cordis plugin that registers the agent
 *   factory (`ctx.agents.setFactory`); `AgentLoop` by default
 * @param {object} [options.factoryConfig] its config (`{ agents: [] }` by default)
 * @param {boolean} [options.invariants] also load upstream's runtime invariant companions
 *   (`@deepseek-ai/dsh-invariants` and every `@deepseek-ai/dsh-*\/invariant`); off by default
 * @param {string} [options.name] reported name (the plugin's name by default)
 * @param {string} [options.version] reported version
 * @param {object} [options.supports] the kit's `supports` manifest
 * @param {number} [options.recycleAfter] run seeds per `dsh-kit fuzz` worker before a fresh one
 *   replaces it ({@link DEFAULT_RECYCLE_AFTER} by default; `fuzz --recycle-after` overrides it)
 */
export function createAdapter(options = {}) {
  const factoryPlugin = options.factoryPlugin ?? AgentLoop
  const upstream = factoryPlugin === AgentLoop
  const invariants = options.invariants === true
  const name = options.name ?? (upstream ? '@deepseek-ai/dsh-agent-loop' : factoryPlugin.name || 'factory-plugin')
  const version = options.version ?? (upstream ? installedVersion('@deepseek-ai/dsh-agent-loop') : '0.0.0')
  return {
    name: invariants ? `${name} (+invariants)` : name,
    version,
    // Capabilities of this process (conformance/adapters/capabilities.ts): upstream's logger forwards
    // contained failures with the thrown value, the in-memory persistence reports its loads, and a
    // process boots without persistence, and dsh-agent exports agentEvents. Upstream has no hook at
    // scope minting (`scopeMinting`).
    supports: { resume: true, queue: false, warnings: true, preparations: true, noPersistence: true, agentEvents: true, ...options.supports },
    recycleAfter: options.recycleAfter ?? DEFAULT_RECYCLE_AFTER,
    process: (services) => bootProcess(services, {
      factoryPlugin,
      factoryConfig: options.factoryConfig ?? { agents: [] },
      invariants,
    }),
  }
}

/** The published AgentLoop, without the invariant companions. */
export default createAdapter()
