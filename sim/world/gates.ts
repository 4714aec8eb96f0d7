/**
 * A program's gates: named promises that `wait` actions, gated loads and preparations wait on, and
 * that an `openGate` operation resolves, at the point the program chooses. A gate exists from its
 * first use and stays open once opened, for the whole run.
 * @module
 */

interface Gate { open: boolean; readonly promise: Promise<void>; readonly resolve: () => void }

/** The gates of one run, by name. */
export class Gates {
  readonly #gates = new Map<string, Gate>()

  /** The promise gate `name` resolves when it opens. */
  wait(name: string): Promise<void> {
    return this.#gate(name).promise
  }

  /** Open gate `name`; false when it was already open (the opening is not marked again). */
  open(name: string): boolean {
    const gate = this.#gate(name)
    if (gate.open) return false
    gate.open = true
    gate.resolve()
    return true
  }

  #gate(name: string): Gate {
    let gate = this.#gates.get(name)
    if (!gate) {
      let resolve!: () => void
      const promise = new Promise<void>((r) => { resolve = r })
      gate = { open: false, promise, resolve }
      this.#gates.set(name, gate)
    }
    return gate
  }
}
