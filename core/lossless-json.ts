import type { JsonValue } from './contract.js'

/** Thrown (internally) when a value is not lossless JSON; callers wrap it in their contract error. */
export class NotLosslessJsonError extends Error {
  constructor(readonly path: string, readonly reason: string) {
    super(`${reason} at ${path || '<root>'}`)
    this.name = 'NotLosslessJsonError'
  }
}

/**
 * Validate and snapshot a value as lossless JSON in one pass (§1.2 append rule 1): each property is
 * read once, so a getter cannot show one value to validation and another to storage. Returns a
 * detached deep-frozen copy. Shared acyclic sub-objects are copied; cycles are rejected.
 */
export function snapshotJson(value: unknown): JsonValue {
  return copy(value, '', new Set())
}

function copy(value: unknown, path: string, ancestors: Set<object>): JsonValue {
  if (value === null || typeof value === 'boolean' || typeof value === 'string') return value
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new NotLosslessJsonError(path, 'non-finite number')
    if (Object.is(value, -0)) throw new NotLosslessJsonError(path, '-0')
    return value
  }
  if (typeof value !== 'object') throw new NotLosslessJsonError(path, typeof value)
  if (ancestors.has(value)) throw new NotLosslessJsonError(path, 'cycle')
  ancestors.add(value)
  try {
    if (Array.isArray(value)) return copyArray(value, path, ancestors)
    const proto = Object.getPrototypeOf(value)
    if (proto !== Object.prototype && proto !== null) throw new NotLosslessJsonError(path, 'exotic object')
    const out: Record<string, JsonValue> = {}
    for (const key of Reflect.ownKeys(value)) {
      if (typeof key === 'symbol') throw new NotLosslessJsonError(path, 'symbol key')
      const desc = Object.getOwnPropertyDescriptor(value, key)!
      if (!desc.enumerable) throw new NotLosslessJsonError(`${path}.${key}`, 'non-enumerable key')
      const v = 'value' in desc ? desc.value : (value as Record<string, unknown>)[key]
      Object.defineProperty(out, key, { value: copy(v, `${path}.${key}`, ancestors), enumerable: true, writable: false, configurable: false })
    }
    return Object.freeze(out)
  } finally {
    ancestors.delete(value)
  }
}

function copyArray(value: unknown[], path: string, ancestors: Set<object>): JsonValue {
  if (Object.getPrototypeOf(value) !== Array.prototype) throw new NotLosslessJsonError(path, 'array subclass')
  const keys = Reflect.ownKeys(value)
  const length = value.length
  // Dense arrays own exactly the indices 0..length-1 plus `length`.
  if (keys.length !== length + 1) throw new NotLosslessJsonError(path, 'sparse array or array with extra properties')
  const out: JsonValue[] = []
  for (let i = 0; i < length; i++) {
    const desc = Object.getOwnPropertyDescriptor(value, i)
    if (!desc) throw new NotLosslessJsonError(`${path}[${i}]`, 'hole in array')
    const v = 'value' in desc ? desc.value : value[i]
    out.push(copy(v, `${path}[${i}]`, ancestors))
  }
  return Object.freeze(out)
}

/** Deep-freeze a value already known to be plain JSON. */
export function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value)
    for (const key of Object.keys(value)) deepFreeze((value as Record<string, unknown>)[key])
  }
  return value
}
