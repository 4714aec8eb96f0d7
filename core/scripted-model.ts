import type { Model, ModelReply, ModelRequest } from './contract.js'

/** One scripted behaviour of a model call (§10.3). */
export type ScriptEntry =
  | { kind: 'text'; text: string }
  | { kind: 'delay'; ms: number; then: ScriptEntry }
  | { kind: 'hang' }
  | { kind: 'hangSlow'; ms: number }
  | { kind: 'fn'; run: (request: ModelRequest) => ScriptEntry }
  | { kind: 'fail'; message: string }
  | { kind: 'toolFollowUp'; run: (request: ModelRequest) => void | Promise<void> }
  | { kind: 'unheeding'; run: (request: ModelRequest) => void | Promise<void>; text: string }

/** Builders for script entries. */
export const script = {
  text: (text: string): ScriptEntry => ({ kind: 'text', text }),
  delay: (ms: number, then: ScriptEntry): ScriptEntry => ({ kind: 'delay', ms, then }),
  hang: (): ScriptEntry => ({ kind: 'hang' }),
  hangSlow: (ms: number): ScriptEntry => ({ kind: 'hangSlow', ms }),
  fn: (run: (request: ModelRequest) => ScriptEntry): ScriptEntry => ({ kind: 'fn', run }),
  fail: (message: string): ScriptEntry => ({ kind: 'fail', message }),
  toolFollowUp: (run: (request: ModelRequest) => void | Promise<void>): ScriptEntry => ({ kind: 'toolFollowUp', run }),
  /** Runs `run` (which may abort the call), then answers `text` even if the signal aborted meanwhile: a provider that does not honour abort. */
  unheeding: (run: (request: ModelRequest) => void | Promise<void>, text: string): ScriptEntry => ({ kind: 'unheeding', run, text }),
}

function abortError(signal: AbortSignal): unknown {
  return signal.reason ?? new Error('aborted')
}

/** Resolves after `ms` of (possibly virtual) time; rejects with the signal's reason on abort. */
function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(abortError(signal))
    const onAbort = (): void => { clearTimeout(timer); reject(abortError(signal!)) }
    const timer = setTimeout(() => { signal?.removeEventListener('abort', onAbort); resolve() }, ms)
    signal?.addEventListener('abort', onAbort, { once: true })
  })
}

function untilAborted(signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve()
    signal.addEventListener('abort', () => resolve(), { once: true })
  })
}

/**
 * The scripted fake model (§10.3): consumes one entry per call and records every request. The
 * `default` entry (if given) answers once the script is exhausted; otherwise exhaustion rejects.
 */
export class ScriptedModel implements Model {
  readonly requests: ModelRequest[] = []
  readonly #queue: ScriptEntry[]

  constructor(entries: readonly ScriptEntry[] = [], private readonly fallback?: ScriptEntry) {
    this.#queue = [...entries]
  }

  /** Append entries to the script. */
  push(...entries: ScriptEntry[]): void { this.#queue.push(...entries) }

  async call(request: ModelRequest): Promise<ModelReply> {
    this.requests.push(request)
    const entry = this.#queue.shift() ?? this.fallback
    if (!entry) throw new Error(`scripted model exhausted after ${this.requests.length - 1} call(s)`)
    return this.#play(entry, request)
  }

  async #play(entry: ScriptEntry, request: ModelRequest): Promise<ModelReply> {
    const { signal } = request
    signal.throwIfAborted()
    switch (entry.kind) {
      case 'text':
        return { text: entry.text }
      case 'delay':
        await sleep(entry.ms, signal)
        return this.#play(entry.then, request)
      case 'hang':
        await untilAborted(signal)
        throw abortError(signal)
      case 'hangSlow':
        await untilAborted(signal)
        await sleep(entry.ms, undefined)
        throw abortError(signal)
      case 'fn':
        return this.#play(entry.run(request), request)
      case 'fail':
        throw new Error(entry.message)
      case 'toolFollowUp':
        await entry.run(request)
        signal.throwIfAborted()
        return { text: 'tool', followUp: true }
      case 'unheeding':
        await entry.run(request)
        return { text: entry.text }
    }
  }
}
