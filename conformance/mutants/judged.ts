/**
 * The blind spots the checkers no longer have, each proven by a mutant that lives in one: a buggy
 * factory whose saved run violates a clause the checkers of e286b1d declined to judge in that shape
 * (the decline rows of `conformance/checkers/README.md`), and that the checkers now report. Each
 * run file (`judged/`) replays strictly on its mutant; the same program under the same schedule is
 * clean on the reference (kept as a fixture in `conformance/checkers/fixtures/`). These mutants are
 * not in the certify gallery (`index.ts`): what they prove is one shape, which a saved run reaches.
 * @module
 */

/** One blind spot removed, and the mutant that proves it. */
export interface JudgedProof {
  /** The mutant module under conformance/mutants/ (a gallery mutant, or a `j`-mutant written for it). */
  readonly mutant: string
  /** Its run file under conformance/mutants/judged/. */
  readonly run: string
  /** The clause the run violates. */
  readonly clause: string
  /** The decline rows of the README the shape fell under. */
  readonly rows: readonly string[]
  /** Whether the trace's facts decide it (without them, the checkers decline it again). */
  readonly byFacts: boolean
}

/** Every proof, by mutant. */
export const JUDGED: readonly JudgedProof[] = [
  { mutant: 'j01-user-cause-outranks-disposal.ts', run: 'j01-user-cause-outranks-disposal.json', clause: 'X-CANCEL 156', rows: ['D53', 'D56'], byFacts: true },
  { mutant: 'j02-rollback-keeps-inbox.ts', run: 'j02-rollback-keeps-inbox.json', clause: 'AGENT-TEARDOWN-TEST 114', rows: ['D20'], byFacts: true },
  { mutant: 'j03-wake-only-an-empty-inbox.ts', run: 'j03-wake-only-an-empty-inbox.json', clause: 'AGENT-RUNTIME-SCOPE 19', rows: ['D47'], byFacts: false },
  { mutant: 'j03-wake-only-an-empty-inbox.ts', run: 'j03-wake-only-an-empty-inbox-second-lifecycle.json', clause: 'AGENT-RUNTIME-SCOPE 19', rows: ['D45', 'windows.ts teardownRequest lower bound'], byFacts: false },
  { mutant: 'j04-resumed-agent-runs-at-announcement.ts', run: 'j04-resumed-agent-runs-at-announcement.json', clause: 'AGENT-PREPARE-PUBLISH 56', rows: ['D7'], byFacts: true },
  { mutant: 'j05-driver-retires-at-replacement.ts', run: 'j05-driver-retires-at-replacement.json', clause: 'AGENT-RUNTIME-SCOPE 24', rows: ['D44'], byFacts: false },
  { mutant: 'j06-dispose-clears-every-inbox.ts', run: 'j06-dispose-clears-every-inbox.json', clause: 'X-INPUT 163', rows: ['D28'], byFacts: false },
  { mutant: 'j07-scope-disposed-after-detach.ts', run: 'j07-scope-disposed-after-detach.json', clause: 'AGENT-TEARDOWN-TEST 97', rows: ['D14'], byFacts: false },
  { mutant: 'a10-cancel-after-stop-check.ts', run: 'a10-cancel-after-stop-check-child-of-a-disposed-parent.json', clause: 'X-CANCEL 157', rows: ['D61'], byFacts: true },
  { mutant: 'a10-cancel-after-stop-check.ts', run: 'a10-cancel-after-stop-check-slow-turn-stopping-listener.json', clause: 'X-CANCEL 157', rows: ['D59'], byFacts: true },
  { mutant: 'j08-flush-ignores-async-listeners.ts', run: 'j08-flush-ignores-async-listeners.json', clause: 'AGENT-REGISTRY-TEST 87', rows: ['D64'], byFacts: true },
  { mutant: 'j09-latch-kept-by-a-new-driver.ts', run: 'j09-latch-kept-by-a-new-driver.json', clause: 'X-INPUT 163', rows: ['mutation survivors core/agent.ts:203 (3f796f4)'], byFacts: false },
  { mutant: 'a7-signal-after-return-tears-down.ts', run: 'a7-signal-after-return-tears-down-then-a-dispose.json', clause: 'AGENT-ATOMIC-TEST 68', rows: ['D33'], byFacts: true },
]
