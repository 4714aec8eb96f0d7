/**
 * Building each piece of a program arbitrary once. A top-level arbitrary (a program, or a piece a
 * caller asks for directly) opens a **build scope**; inside it, a piece asked for again with the
 * same arguments (an operation arbitrary at the same depth with the same options, from another
 * actor, setup or listener) is the one already built, not a copy. Pieces are built on first use
 * ({@link Lazy}, {@link chainOnce}), later, in the scope they were declared in.
 *
 * Why: without it, every place that offers an operation built its own operation tree, and a
 * long-lived program arbitrary (a campaign keeps one per option set) kept building copies of rare
 * branches as draws first reached them: its heap grew for the whole campaign (about 1.4 MB per
 * 10,000 runs of a guided campaign, most of its growth). With one copy per distinct piece it is
 * bounded by the number of distinct (piece, options, depth).
 *
 * Sharing never changes a value drawn: fast-check arbitraries are immutable descriptions, so a
 * reused one draws from a random stream what a fresh one would. (A `oneof` counts its own nesting
 * depth while it generates; a piece is never nested inside itself, or the tree would be infinite,
 * so it always starts at depth 0, as a fresh one does.) A scope lives as long as the arbitraries
 * built in it: a swarm configuration's arbitrary, built per draw, takes its scope with it.
 * @module
 */
import fc from 'fast-check'
import type { Arbitrary } from 'fast-check'

/** The pieces built in one top-level arbitrary, by {@link shared} key. */
type Scope = Map<string, Arbitrary<unknown>>

/** The scope pieces are being built in (undefined outside any build). */
let current: Scope | undefined

/** Run `build` with `scope` as the current build scope. */
function within<T>(scope: Scope, build: () => T): T {
  const before = current
  current = scope
  try {
    return build()
  } finally {
    current = before
  }
}

/**
 * The piece named `key` (its function and every argument it depends on) of the current build
 * scope, built by `build` the first time; outside any scope, `build` opens a new one.
 */
export function shared<T>(key: string, build: () => Arbitrary<T>): Arbitrary<T> {
  if (current === undefined) return within(new Map(), () => shared(key, build))
  let piece = current.get(key) as Arbitrary<T> | undefined
  if (piece === undefined) current.set(key, (piece = build()))
  return piece
}

/** The current build scope, opened if there is none (for a piece built later, on first use). */
function scopeHere(): Scope {
  return current ?? new Map()
}

/**
 * `arb.chain(build)`, building the arbitrary for each distinct `key(value)` once, in the scope
 * `chainOnce` was called in. Rebuilding them for every value drawn was most of the cost of
 * drawing a program (a whole operation tree per actor, per listener, per setup).
 */
export function chainOnce<T, U>(arb: Arbitrary<T>, build: (value: T) => Arbitrary<U>, key: (value: T) => string | number = (value) => String(value)): Arbitrary<U> {
  const scope = scopeHere()
  const built = new Map<string | number, Arbitrary<U>>()
  return arb.chain((value) => {
    const k = key(value)
    let chained = built.get(k)
    if (chained === undefined) built.set(k, (chained = within(scope, () => build(value))))
    return chained
  })
}

/**
 * An arbitrary built on first use, in the scope it was declared in: a program arbitrary offers
 * every operation kind at every nesting level, and a swarm configuration builds a new one per
 * draw, most of whose branches that draw never takes. Generation and shrinking are the built
 * one's, so the values are the same.
 */
export class Lazy<T> extends fc.Arbitrary<T> {
  #built: Arbitrary<T> | undefined
  readonly #scope = scopeHere()
  constructor(private readonly make: () => Arbitrary<T>) {
    super()
  }

  #arb(): Arbitrary<T> {
    return (this.#built ??= within(this.#scope, this.make))
  }

  generate(mrng: fc.Random, biasFactor: number | undefined): fc.Value<T> {
    return this.#arb().generate(mrng, biasFactor)
  }

  canShrinkWithoutContext(value: unknown): value is T {
    return this.#arb().canShrinkWithoutContext(value)
  }

  shrink(value: T, context: unknown): fc.Stream<fc.Value<T>> {
    return this.#arb().shrink(value, context)
  }
}
