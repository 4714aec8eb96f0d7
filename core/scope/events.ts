import type { EventDispatch, EventMap, EventName, ListenOptions } from '../contract.js'
import type { WarnFn } from './fiber.js'

interface ListenerEntry {
  readonly fn: (...args: any[]) => unknown
  readonly tag: unknown
  readonly global: boolean
}

function isPromiseLike(value: unknown): value is PromiseLike<unknown> {
  return (typeof value === 'object' || typeof value === 'function') && value !== null &&
    typeof (value as { then?: unknown }).then === 'function'
}

/**
 * The root's listener table and the dispatch modes of §1.9 with scope-filtered routing (§2.5).
 * Listener registration itself lives on the context (a listener is an effect of its fiber).
 */
export class EventBus implements EventDispatch {
  readonly #listeners = new Map<string, ListenerEntry[]>()
  /** Scope key → the scope key of the context the scope was minted under. */
  readonly #keyParents = new WeakMap<object, unknown>()

  constructor(private readonly warn: WarnFn) {}

  /** Record that scope `key` was minted under a context whose scope key is `parentKey`. */
  linkScopeKey(key: unknown, parentKey: unknown): void {
    if (typeof key === 'object' && key !== null) this.#keyParents.set(key, parentKey)
  }

  /** Add a listener; returns its remover. Call through `Context.on`, which makes it an effect. */
  add(name: string, fn: (...args: any[]) => unknown, tag: unknown, options: ListenOptions = {}): () => void {
    const entry: ListenerEntry = { fn, tag, global: options.global === true }
    const list = this.#listeners.get(name) ?? []
    const next = options.prepend ? [entry, ...list] : [...list, entry]
    this.#listeners.set(name, next)
    return () => {
      const current = this.#listeners.get(name)
      if (current) this.#listeners.set(name, current.filter((e) => e !== entry))
    }
  }

  /** Number of listeners registered for an event (all scopes). */
  count(name: EventName): number { return this.#listeners.get(name)?.length ?? 0 }

  /** Snapshot of the listeners that hear `name` routed with `carrierKey`. */
  #snapshot(name: string, carrierKey: unknown): ListenerEntry[] {
    const list = this.#listeners.get(name)
    if (!list || list.length === 0) return []
    return list.filter((l) => l.global || l.tag === undefined || this.#chainContains(carrierKey, l.tag))
  }

  #chainContains(carrier: unknown, tag: unknown): boolean {
    let key = carrier
    for (let depth = 0; depth < 1000; depth++) {
      if (key === tag) return true
      if (typeof key !== 'object' || key === null || !this.#keyParents.has(key)) return false
      key = this.#keyParents.get(key)
    }
    return false
  }

  #observe(name: string, result: unknown): void {
    if (isPromiseLike(result)) {
      Promise.resolve(result).then(undefined, (error) => this.warn(`async "${name}" listener rejected`, error))
    }
  }

  veto<K extends EventName>(name: K, carrierKey: unknown, ...args: Parameters<EventMap[K]>): void {
    for (const l of this.#snapshot(name, carrierKey)) this.#observe(name, l.fn(...args))
  }

  contained<K extends EventName>(name: K, carrierKey: unknown, ...args: Parameters<EventMap[K]>): void {
    this.#deliverContained(name, this.#snapshot(name, carrierKey), args)
  }

  /**
   * Resolve the listener set now and deliver later (contained). `Session.append` resolves its
   * `session/event` observers before the push, which is its commit point (§1.2 rule 4).
   */
  prepareContained<K extends EventName>(name: K, carrierKey: unknown): (...args: Parameters<EventMap[K]>) => void {
    const listeners = this.#snapshot(name, carrierKey)
    return (...args) => this.#deliverContained(name, listeners, args)
  }

  #deliverContained(name: string, listeners: readonly ListenerEntry[], args: readonly unknown[]): void {
    for (const l of listeners) {
      try {
        this.#observe(name, l.fn(...args))
      } catch (error) {
        this.warn(`"${name}" listener threw`, error)
      }
    }
  }

  async parallel<K extends EventName>(name: K, carrierKey: unknown, ...args: Parameters<EventMap[K]>): Promise<boolean> {
    const listeners = this.#snapshot(name, carrierKey)
    const results = await Promise.allSettled(listeners.map((l) => new Promise((resolve) => resolve(l.fn(...args)))))
    const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected')
    if (failed) throw failed.reason
    return listeners.length > 0
  }

  async serial<K extends EventName>(name: K, carrierKey: unknown, ...args: Parameters<EventMap[K]>): Promise<void> {
    for (const l of this.#snapshot(name, carrierKey)) await l.fn(...args)
  }

  waterfall<P, R>(name: 'agent/pre-step', carrierKey: unknown, payload: P, fallback: () => R | Promise<R>): Promise<R> {
    const listeners = this.#snapshot(name, carrierKey)
    const call = (index: number): Promise<R> => {
      if (index >= listeners.length) return new Promise<R>((resolve) => resolve(fallback()))
      let called = false
      const next = (): Promise<R> => {
        if (called) return Promise.reject(new Error(`"${name}" listener called next() twice`))
        called = true
        return call(index + 1)
      }
      return new Promise<R>((resolve) => resolve(listeners[index]!.fn(payload, next) as R | Promise<R>))
    }
    return call(0)
  }
}
