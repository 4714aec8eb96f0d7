/**
 * Whether a program uses an operation kind anywhere: an actor's list, a boundary's, a behaviour's
 * action, a commit or tool slot.
 * @module
 */

/** Whether some object in `value` (a program, or any part of one) is an operation of `kind`. */
export function containsOperation(value: unknown, kind: string): boolean {
  if (typeof value !== 'object' || value === null) return false
  if (Array.isArray(value)) {
    for (const item of value) if (containsOperation(item, kind)) return true
    return false
  }
  const record = value as Record<string, unknown>
  if (record.op === kind) return true
  for (const key in record) if (containsOperation(record[key], kind)) return true
  return false
}
