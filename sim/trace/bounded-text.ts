/**
 * Text from the code under test (an error's message and stack, a thrown value) as the kit records,
 * formats and writes it: cut to a size limit, saying how much was cut, and produced without ever
 * throwing, whatever the value (a Proxy whose traps throw, throwing getters, a null prototype, a
 * cycle, a 3 MB message). A run that rejects every create with a huge message would otherwise copy
 * it into every trace entry, run file and report line.
 * @module
 */

/** Characters of one message kept (a stack keeps twice as many). */
export const MAX_MESSAGE_CHARS = 2_000

/** `text`, or its first `limit` characters and how many were cut. */
export function cut(text: string, limit = MAX_MESSAGE_CHARS): string {
  if (text.length <= limit) return text
  return `${text.slice(0, limit)}… [${text.length - limit} more characters cut by dsh-kit]`
}

/** Read `key` of `value`, or undefined if reading it throws (a getter, a Proxy trap). */
function read(value: object, key: PropertyKey): unknown {
  try {
    return (value as Record<PropertyKey, unknown>)[key]
  } catch {
    return undefined
  }
}

/** Whether `value` is an Error, without letting a Proxy's `getPrototypeOf` trap throw. */
export function isError(value: unknown): value is Error {
  try {
    return value instanceof Error
  } catch {
    return false
  }
}

/** `String(value)` that never throws (a Proxy, a null prototype). */
function safeString(value: unknown): string {
  try {
    return String(value)
  } catch {
    try {
      return Object.prototype.toString.call(value)
    } catch {
      return `[${typeof value}]`
    }
  }
}

/**
 * A short printable form of any value, JSON-like, bounded in depth, keys and length; a property
 * whose read throws prints as `<throws>`, a cycle as `[Circular]`.
 */
export function printValue(value: unknown, limit = 200): string {
  const seen = new Set<unknown>()
  let budget = limit + 1
  const out: string[] = []
  const emit = (text: string): boolean => {
    out.push(text)
    budget -= text.length
    return budget > 0
  }
  const walk = (v: unknown, depth: number): boolean => {
    if (typeof v === 'string') return emit(JSON.stringify(v.length > budget ? v.slice(0, Math.max(budget, 0)) : v))
    if (v === null || typeof v === 'number' || typeof v === 'boolean' || v === undefined) return emit(v === undefined ? 'undefined' : String(v))
    if (typeof v !== 'object') return emit(safeString(v))
    if (seen.has(v)) return emit('[Circular]')
    if (depth >= 3) return emit(Array.isArray(v) ? '[…]' : '{…}')
    seen.add(v)
    let keys: string[]
    try {
      keys = Object.keys(v)
    } catch {
      return emit(safeString(v))
    }
    const array = (() => { try { return Array.isArray(v) } catch { return false } })()
    if (!emit(array ? '[' : '{')) return false
    for (const [i, key] of keys.entries()) {
      if (i > 0 && !emit(',')) return false
      if (i >= 20) return emit(`…${keys.length - i} more`)
      if (!array && !emit(`${JSON.stringify(key)}:`)) return false
      let inner: unknown
      try {
        inner = (v as Record<string, unknown>)[key]
      } catch {
        if (!emit('<throws>')) return false
        continue
      }
      if (!walk(inner, depth + 1)) return false
    }
    return emit(array ? ']' : '}')
  }
  walk(value, 0)
  const text = out.join('')
  return text.length > limit ? `${text.slice(0, limit - 3)}...` : text
}

/** An error's message (cut), or the printed form of a thrown value that is not an Error. */
export function thrownMessage(value: unknown, limit = MAX_MESSAGE_CHARS): string {
  if (isError(value)) {
    const message = read(value, 'message')
    return cut(typeof message === 'string' ? message : `(an Error whose message cannot be read: ${printValue(message)})`, limit)
  }
  if (typeof value === 'string') return cut(value, limit)
  return printValue(value, Math.min(limit, 200))
}

/** `Name: message` of an error, or `a non-Error value …` (one line each way, cut). */
export function describeThrown(value: unknown, limit = MAX_MESSAGE_CHARS): string {
  if (isError(value)) {
    const name = read(value, 'name')
    return `${typeof name === 'string' ? cut(name, 100) : 'Error'}: ${thrownMessage(value, limit)}`
  }
  return `a non-Error value ${printValue(value)}`
}

/** An error's name, message and stack, each read without throwing and cut. */
export function errorParts(value: Error): { name: string; message: string; stack?: string } {
  const name = read(value, 'name')
  const stack = read(value, 'stack')
  return {
    name: typeof name === 'string' ? cut(name, 100) : 'Error',
    message: thrownMessage(value),
    ...(typeof stack === 'string' ? { stack: cut(stack, 2 * MAX_MESSAGE_CHARS) } : {}),
  }
}

/** What a trace records of a rejection: an error's message, else the value as JSON (or `String`), cut. */
export function errorText(value: unknown): string {
  if (isError(value)) return thrownMessage(value)
  try {
    return cut(JSON.stringify(value) ?? safeString(value))
  } catch {
    return cut(safeString(value))
  }
}

/** An error's message, else `String(value)`, cut and never throwing. */
export function stringText(value: unknown): string {
  return isError(value) ? thrownMessage(value) : cut(safeString(value))
}

/** An error's stack (or message), else `String(value)`: for a crash, cut and never throwing. */
export function crashText(value: unknown): string {
  if (!isError(value)) return cut(safeString(value))
  const parts = errorParts(value)
  return parts.stack ?? parts.message
}
