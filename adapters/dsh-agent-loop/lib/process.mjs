/**
 * One upstream "process" over the services the kit's simulator supplies: a fresh cordis root
 * `Context`, and under it ONE plugin fiber (`dsh-process`) holding LlmRuntime, SessionStore,
 * SystemPrompt, ToolRuntime, AgentRegistry, the in-memory persistence, the kit's model as an
 * `LlmAdapter`, and the factory plugin (AgentLoop by default). Unloading that fiber is a real
 * shutdown: cordis' own root fiber cannot be disposed (its `dispose()` restarts it).
 * @module
 */
import { AsyncLocalStorage } from 'node:async_hooks'
import { Context } from '@deepseek-ai/cordis'
import { AgentRegistry, agentEvents } from '@deepseek-ai/dsh-agent'
import { LlmRuntime } from '@deepseek-ai/dsh-llm'
import { SessionStore } from '@deepseek-ai/dsh-session'
import { createScope, scopeOf } from '@deepseek-ai/dsh-scope'
import { SystemPrompt } from '@deepseek-ai/dsh-system-prompt'
import { ToolRuntime } from '@deepseek-ai/dsh-tools'
import { followUpTool, KitModelAdapter } from './model.mjs'
import { MemoryPersistence, rawHook } from './persistence.mjs'

/** The packages whose `./invariant` companion the `invariants` option loads. */
export const INVARIANT_COMPANIONS = ['dsh-session', 'dsh-agent', 'dsh-scope', 'dsh-agent-loop', 'dsh-llm', 'dsh-tools', 'dsh-system-prompt', 'dsh-session-persistence']

/** Logger levels forwarded to `services.warn` (cordis: error 1, warn 2, info 3). */
const FORWARDED = new Set(['error', 'warn'])

function errorText(value) {
  return value instanceof Error ? value.message : typeof value === 'string' ? value : (() => { try { return JSON.stringify(value) } catch { return String(value) } })()
}

/**
 * `crypto.randomUUID` minted from the simulator's ids while the process lives (upstream mints
 * message ids with it); returns the restorer.
 */
function patchRandomUUID(newId) {
  const crypto = globalThis.crypto
  const original = Object.getOwnPropertyDescriptor(crypto, 'randomUUID')
  const minted = () => {
    const n = /(\d+)$/.exec(newId('uuid'))?.[1] ?? '0'
    return `00000000-0000-4000-8000-${n.padStart(12, '0').slice(-12)}`
  }
  Object.defineProperty(crypto, 'randomUUID', { value: minted, configurable: true, writable: true })
  return () => {
    if (crypto.randomUUID !== minted) return
    if (original) Object.defineProperty(crypto, 'randomUUID', original)
    else delete crypto.randomUUID
  }
}

const REAL = Symbol('dsh-kit.real-context')

/**
 * A context facade for the kit: the real cordis context of a fiber, except that `agents` and
 * `sessions` stay readable after that fiber unloaded (the kit reads the registries while and after
 * the process shuts down; cordis refuses service access through an inactive context). The
 * services behind it are the real upstream objects, reached through the context while it lives.
 */
/**
 * The contract's `ctx.createScope(key, name)`: upstream mints scopes with dsh-scope's
 * `createScope(ctx, key)` (the name is a label the kit's own scopes keep; upstream has none).
 * Minted from a scoped context, the new scope's parent is that scope (events flow up the chain).
 */
function mintScope(ctx, key) {
  const real = unwrap(ctx)
  const parent = scopeOf(real)
  const scope = createScope(real, key ?? Symbol('scope'), parent === undefined ? {} : { parent })
  return { ctx: facade(scope.ctx), dispose: () => scope.dispose() }
}

function facade(ctx) {
  const mint = (key) => mintScope(ctx, key)
  let agents = ctx.agents
  let sessions = ctx.sessions
  const live = (name, fallback) => {
    try {
      return ctx[name] ?? fallback
    } catch {
      return fallback
    }
  }
  return new Proxy(ctx, {
    get(target, prop) {
      if (prop === REAL) return target
      if (prop === 'agents') return (agents = live('agents', agents))
      if (prop === 'sessions') return (sessions = live('sessions', sessions))
      if (prop === 'createScope') return mint
      if (prop === 'scopeKey') return scopeOf(target)
      const value = Reflect.get(target, prop)
      return typeof value === 'function' ? value.bind(target) : value
    },
  })
}

/** The real cordis context behind a facade (or the context itself). */
function unwrap(ctx) {
  return ctx?.[REAL] ?? ctx
}

/**
 * A host's unload of a plugin fiber that every caller awaits to the end. A cordis fiber's
 * `dispose()` is a single-shot effect wrapper: a later call (or a call after the parent's unload
 * already disposed the fiber) returns at once instead of joining the unload in flight (§2.2 item 4).
 * The host joins it through the fiber's in-flight transition (`fiber.inertia`), as cordis' own
 * structural owners do; the kit's own process gets the same from its memoized scopes.
 */
function unloadOf(fiber) {
  return async () => {
    await fiber.dispose()
    while (fiber.inertia) await fiber.inertia
  }
}

/**
 * Boot one upstream process.
 * @param services the kit's `ProcessServices`
 * @param options `{ factoryPlugin, factoryConfig, invariants, provider, model }`
 */
export async function bootProcess(services, options) {
  const { factoryPlugin, factoryConfig = { agents: [] }, invariants = false, provider = 'kit', model = 'scripted' } = options
  const restoreUUID = patchRandomUUID(services.newId)
  const root = new Context()
  const warn = (message, error) => services.warn(message, error)
  // With the invariant companions on, a violated upstream invariant fails the run (the kit reports
  // it as X-RUN 1, a crash): upstream contains most listener throws, which would hide it.
  let violated = false
  const invariantViolated = (text) => {
    if (!invariants || violated || !/invariant violated by/.test(text)) return
    violated = true
    Promise.reject(new Error(`upstream runtime invariant: ${text}`))
  }
  // Contained failures (listener throws, rejected disposers) reach the kit as warnings.
  root.logger.exporter({
    levels: { default: 3 },
    export: (record) => {
      if (!FORWARDED.has(record.type)) return
      const text = `[${record.name}] ${record.args.map(errorText).join(' ')}`
      // The thrown value itself is the warning's error (capability `warnings`): cordis logs a
      // contained listener or disposer failure with it among the arguments.
      warn(text, record.args.find((arg) => arg instanceof Error) ?? record.args.find((arg) => typeof arg === 'object' && arg !== null))
      invariantViolated(text)
    },
  })
  if (invariants) rawHook(root, 'agent/error', ({ error }) => invariantViolated(errorText(error)), { prepend: false })
  if (invariants) {
    const { default: InvariantRegistry } = await import('@deepseek-ai/dsh-invariants')
    await root.plugin(InvariantRegistry, { enabled: true })
    for (const pkg of INVARIANT_COMPANIONS) await root.plugin(await import(`@deepseek-ai/${pkg}/invariant`))
  }
  let persistence
  let factoryFiber
  const proc = root.plugin({
    name: 'dsh-process',
    async apply(ctx) {
      await ctx.plugin(LlmRuntime)
      await ctx.plugin(SessionStore)
      await ctx.plugin(SystemPrompt)
      await ctx.plugin(ToolRuntime)
      await ctx.plugin(AgentRegistry)
      // Capability `noPersistence`: `services.persistence === false` boots without one.
      if (services.persistence !== false) {
        await ctx.plugin(MemoryPersistence, { disk: services.disk, beforeLoad: services.beforeLoad, afterLoad: services.afterLoad, prepared: services.prepared, root })
      }
      await ctx.plugin({
        name: 'dsh-kit-model',
        inject: services.persistence === false ? ['llm', 'tools'] : ['llm', 'tools', 'sessionPersistence'],
        apply(modelCtx) {
          if (services.persistence !== false) persistence = modelCtx.sessionPersistence
          modelCtx.llm.registerAdapter([provider], new KitModelAdapter(services.model))
          modelCtx.tools.register(followUpTool())
          // Agents created without a provider/model route (a directed case passes its own agent
          // options, or none) reach the kit's model: upstream's documented agent/request waterfall.
          modelCtx.on('agent/request', (_payload, next) => next().then((config) => (config.provider && config.model ? config : { ...config, provider, model })))
        },
      })
      factoryFiber = ctx.plugin(factoryPlugin, factoryConfig)
      await factoryFiber
    },
  })
  await proc
  if (proc.state !== undefined && factoryFiber === undefined) throw new Error('the process plugin did not start (see warnings)')
  // The kit acts through a host fiber of the process (programs' root listeners and effects are its
  // effects; creations through it are owned by it); owners are sibling fibers.
  const host = proc.ctx.plugin({ name: 'dsh-kit:root', inject: ['agents', 'sessions'], apply() {} })
  await host
  const ctx = facade(host.ctx)
  // The registry's initiator storages (dsh-agent's AgentRegistry keeps two AsyncLocalStorages and
  // disables them only when a shutdown's initiator drain completes). A real process that dies takes
  // them along; here thousands of simulated processes share one Node process, and every enabled
  // storage makes each later promise of the thread pay for propagating it (Node 22 runs every
  // enabled storage's `_propagate` at each promise's creation), so a process abandoned without a
  // finished shutdown disables them, as the reference's `abandon` disables its initiator's.
  const storages = Object.values(host.ctx.agents).filter((value) => value instanceof AsyncLocalStorage)
  const owners = new Map()
  const removers = []
  return {
    ctx,
    agentOptions: { provider, model },
    observe(name, listener) {
      removers.push(rawHook(root, name, listener))
    },
    owner(name) {
      let owner = owners.get(name)
      if (!owner) {
        const fiber = proc.ctx.plugin({ name: `owner:${name}`, inject: ['agents', 'sessions'], apply() {} })
        owner = { ctx: facade(fiber.ctx), unload: unloadOf(fiber) }
        owners.set(name, owner)
      }
      return owner
    },
    /** dsh-scope's `createScope(ctx, key)` (upstream contexts have no `createScope` method). */
    createScope: (via, key) => mintScope(via, key),
    /** dsh-scope's `scopeOf(ctx)` (upstream contexts carry no `scopeKey`). */
    scopeOf: (via) => scopeOf(unwrap(via)),
    /** Capability `agentEvents`: upstream's own `agentEvents(ctx, agent).emit`. */
    agentEvents: (via, agent) => agentEvents(unwrap(via), agent),
    unloadFactory: () => unloadOf(factoryFiber)(),
    shutdown: unloadOf(proc),
    abandon() {
      for (const remove of removers.splice(0)) remove()
      persistence?.detach()
      for (const storage of storages) storage.disable()
      restoreUUID()
    },
    /** Not part of the kit's handle: the upstream objects, for tests and exploration. */
    upstream: { root, proc, host, factory: () => factoryFiber, persistence: () => persistence },
  }
}
