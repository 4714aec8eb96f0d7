/**
 * The timer that holds a worker's running unit to its budget: one real timer per worker, not one
 * per unit. A fuzz seed's unit ends within milliseconds, and a timer set and cleared per unit was a
 * few percent of the supervising thread's time, which bounds the workers it can feed. The timer
 * stays armed while units end on time; when it fires before the current deadline it is armed again
 * for the rest, and a deadline earlier than the armed one re-arms it at once.
 * @module
 */
import { realClearTimeout, realNow, realSetTimeout } from './real-clock.js'

/** A deadline for the unit a worker runs, checked by one timer. */
export class BudgetTimer {
  #timer: NodeJS.Timeout | undefined
  /** When the armed timer fires, and the current deadline (real ms, `realNow`). */
  #firesAt = 0
  #deadline = 0

  /**
   * @param due called once the deadline has passed while `running()` says a unit still runs.
   * @param running whether the worker still holds a unit (a timer firing after its last unit ended does nothing).
   */
  constructor(private readonly due: () => void, private readonly running: () => boolean) {}

  /** Check the running unit at `deadline` (replacing any earlier deadline). */
  arm(deadline: number): void {
    this.#deadline = deadline
    if (this.#timer !== undefined && this.#firesAt <= deadline) return
    realClearTimeout(this.#timer)
    this.#firesAt = deadline
    this.#timer = realSetTimeout(() => {
      this.#timer = undefined
      if (!this.running()) return
      if (this.#deadline > realNow()) this.arm(this.#deadline)
      else this.due()
    }, Math.max(0, deadline - realNow()))
  }

  /** No deadline: the worker holds no unit, or is gone. */
  disarm(): void {
    realClearTimeout(this.#timer)
    this.#timer = undefined
  }
}
