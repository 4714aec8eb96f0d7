/**
 * How checkers name what they saw: message ids quoted (a missing id said as such, never printed as
 * `undefined` or as nothing), and of two inbox projections only the lists and items that differ.
 * @module
 */

/** What a list of message ids prints where an item has no string id. */
export const NO_ID = '<no id>'

/** One message id, quoted; an item without a string id reads `<no id>`. */
export function quoteId(id: unknown): string {
  return typeof id === 'string' ? JSON.stringify(id) : NO_ID
}

/** A list of message ids: `["m1", "m2"]`, `[]` when empty. */
export function quoteIds(ids: readonly unknown[]): string {
  return `[${ids.map(quoteId).join(', ')}]`
}

/** `message "m1" of "s3"`, or `a message of "s3" with no id`. */
export function messageOf(session: string, id: unknown): string {
  return typeof id === 'string' ? `message ${JSON.stringify(id)} of ${JSON.stringify(session)}` : `a message of ${JSON.stringify(session)} with no id`
}

/** Two projections of one inbox, as the two sides of a comparison. */
export interface InboxSides {
  readonly nextTurn: readonly unknown[]
  readonly nextStep: readonly unknown[]
}

/** Whether two lists of ids are equal item by item. */
export function sameIds(a: readonly unknown[], b: readonly unknown[]): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i])
}

/**
 * The lists on which two inbox projections differ, each as `next-step: <left> ["m1"], <right>
 * ["m1", "m2"] ("m2" only in <right>)`; lists that agree are left out. Empty when they agree.
 */
export function inboxDifference(left: InboxSides, right: InboxSides, names: readonly [string, string]): string {
  const parts: string[] = []
  for (const [list, a, b] of [['next-turn', left.nextTurn, right.nextTurn], ['next-step', left.nextStep, right.nextStep]] as const) {
    if (sameIds(a, b)) continue
    parts.push(`${list}: ${names[0]} ${quoteIds(a)}, ${names[1]} ${quoteIds(b)}${itemDifference(a, b, names)}`)
  }
  return parts.join('; ')
}

/** Which items only one side holds, or that both hold the same items in another order. */
function itemDifference(a: readonly unknown[], b: readonly unknown[], names: readonly [string, string]): string {
  const onlyA = a.filter((x) => !b.includes(x))
  const onlyB = b.filter((x) => !a.includes(x))
  const notes: string[] = []
  if (onlyA.length > 0) notes.push(`${onlyA.map(quoteId).join(', ')} only in ${names[0]}`)
  if (onlyB.length > 0) notes.push(`${onlyB.map(quoteId).join(', ')} only in ${names[1]}`)
  if (notes.length === 0) notes.push(a.length === b.length ? 'same items, another order' : 'an item repeated')
  return ` (${notes.join('; ')})`
}
