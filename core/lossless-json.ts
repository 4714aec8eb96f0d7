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
  return copy(value, { objects: [], keys: [] })
}

/**
 * Where a copy is: the objects being copied, outermost first (a cycle returns to one of them), and
 * the key or index of each step below the root. Every append snapshots its data, so the path of an
 * error is only spelled when one is thrown.
 */
interface Walk {
  readonly objects: object[]
  readonly keys: (string | number)[]
}

/** The error for the value at the walk's current path. */
function notLossless(walk: Walk, reason: string): NotLosslessJsonError {
  let path = ''
  for (const key of walk.keys) path += typeof key === 'number' ? `[${key}]` : `.${key}`
  return new NotLosslessJsonError(path, reason)
}

function copy(value: unknown, walk: Walk): JsonValue {
  if (value === null || typeof value === 'boolean' || typeof value === 'string') return value
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw notLossless(walk, 'non-finite number')
    if (Object.is(value, -0)) throw notLossless(walk, '-0')
    return value
  }
  if (typeof value !== 'object') throw notLossless(walk, typeof value)
  if (walk.objects.includes(value)) throw notLossless(walk, 'cycle')
  // (a throw ends the whole snapshot, so the walk is only unwound on success)
  walk.objects.push(value)
  const out = Array.isArray(value) ? copyArray(value, walk) : copyObject(value, walk)
  walk.objects.pop()
  return out
}

function copyObject(value: object, walk: Walk): JsonValue {
  const proto = Object.getPrototypeOf(value)
  if (proto !== Object.prototype && proto !== null) throw notLossless(walk, 'exotic object')
  const out: Record<string, JsonValue> = {}
  for (const key of Reflect.ownKeys(value)) {
    if (typeof key === 'symbol') throw notLossless(walk, 'symbol key')
    walk.keys.push(key)
    const desc = Object.getOwnPropertyDescriptor(value, key)!
    if (!desc.enumerable) throw notLossless(walk, 'non-enumerable key')
    const v = copy('value' in desc ? desc.value : (value as Record<string, unknown>)[key], walk)
    // An assignment keeps the copy a fast object; `__proto__` would set its prototype instead.
    if (key === '__proto__') Object.defineProperty(out, key, { value: v, enumerable: true, writable: true, configurable: true })
    else out[key] = v
    walk.keys.pop()
  }
  return Object.freeze(out)
}

function copyArray(value: unknown[], walk: Walk): JsonValue {
  if (Object.getPrototypeOf(value) !== Array.prototype) throw notLossless(walk, 'array subclass')
  const keys = Reflect.ownKeys(value)
  const length = value.length
  // Dense arrays own exactly the indices 0..length-1 plus `length`.
  if (keys.length !== length + 1) throw notLossless(walk, 'sparse array or array with extra properties')
  const out: JsonValue[] = []
  for (let i = 0; i < length; i++) {
    walk.keys.push(i)
    const desc = Object.getOwnPropertyDescriptor(value, i)
    if (!desc) throw notLossless(walk, 'hole in array')
    out.push(copy('value' in desc ? desc.value : value[i], walk))
    walk.keys.pop()
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
