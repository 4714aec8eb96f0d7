/**
 * The contract's own demands on the suite: every "Suite (MUST)", "suite must not" and "suite tests"
 * line of `spec/contract.md` §11–§12, with the named directed programs and cases that meet it. Each
 * named case runs on every runtime (it needs no capability) and each named program is a directed
 * program of `programs.ts`; `demands.test.ts` checks both, and `conformance/README.md` has the table.
 * @module
 */

/** One demand and what meets it. */
export interface SuiteDemand {
  /** The §11 row or §12 item, e.g. `D17`, `Q4`. */
  readonly id: string
  /** The demand, as the contract words it (shortened). */
  readonly demand: string
  /** Directed programs (by name) that exercise it under many schedules. */
  readonly programs: readonly string[]
  /** Directed cases (by title prefix, `GROUP N: …`) that check it. */
  readonly cases: readonly string[]
  /** How the suite meets it, in a sentence (for a "must not": what it refrains from). */
  readonly how: string
}

/** Every demand of §11–§12 on the suite. */
export const SUITE_DEMANDS: readonly SuiteDemand[] = [
  {
    id: 'D17', demand: 'Suite MUST test CH\'s reading: whichever owner triggers or joins the teardown, its promise resolves only after the full teardown',
    programs: ['dispose-races-owner-and-factory-unload'], cases: ['AGENT-TEARDOWN-TEST 98: D17:'],
    how: 'the case makes each owner (handle, owner unload, factory unload) trigger and the others join, asserting none resolves early; the program races them under every schedule and the teardown checker flags an owner unload that finished first',
  },
  {
    id: 'D18', demand: 'suite MUST NOT assert scope-vs-driver order on factory unload',
    programs: ['factory-unload-pending-and-live'], cases: ['AGENT-TEARDOWN-TEST 98: D17:'],
    how: 'the factory-unload leg of the D17 case and the program assert the full teardown and the owners\' resolution only; no checker orders scope disposal against the driver\'s convergence on a factory unload',
  },
  {
    id: 'Q3', demand: 'suite leaves unspecified what a send to an agent whose teardown began does',
    programs: ['sends-after-disposal-through-kept-handles'], cases: ['AGENT-TEARDOWN-TEST 111: Q3:', 'AGENT-TEARDOWN-TEST 110:'],
    how: 'the program sends through handles its actors kept after dispose() resolved; the send\'s outcome is recorded as info and neither the 111 checker nor the settled-state probe judges what the disposed agent does after it (refused, parked, even run); the Q3 case accepts any of those and requires only that nothing live is reached, and 110 keeps a send during the teardown from running',
  },
  {
    id: 'Q4', demand: 'Suite (MUST): a teardown requested from inside any dispatch, session/event observers included, still resolves and completes every step of §5.1; afterwards the agent appends nothing',
    programs: ['teardown-from-session-event-observer'], cases: ['AGENT-TEARDOWN-TEST 114: Q4:'],
    how: 'the case disposes from a session/event observer of a splice with a non-empty inbox and checks every step and the quiet log after; the program does the same under every schedule, checked by the liveness and teardown checkers',
  },
  {
    id: 'Q5', demand: 'Suite tests per-entry pairing only',
    programs: ['throwing-lifecycle-listeners'], cases: ['AGENT-REGISTRY-TEST 80:', 'AGENT-TEARDOWN-TEST 95:'],
    how: 'pairing is checked per registry entry (a created edge has one disposed edge); listeners after a vetoing one are not required to see created',
  },
  {
    id: 'Q6', demand: 'suite must not require either behaviour of a send from setup before publication',
    programs: [], cases: ['AGENT-SETUP-CONTRACT 37: Q6:'],
    how: 'the case accepts a send from setup that is run or rejected; only an adapter declaring supports.rejectsSendBeforePublication is held to rejecting it',
  },
  {
    id: 'Q7', demand: 'Suite must not test the sub-microtask wake gap',
    programs: ['inbox-burst-across-turns'], cases: ['AGENT-RUNTIME-SCOPE 31:'],
    how: 'no case or program targets the window between the driver\'s last pending check and its exit; the maintenance and burst programs send around turns, never timed into that gap',
  },
  {
    id: 'Q8', demand: 'Suite (MUST, liveness): a waking send racing a shutdown never leaves an agent running with nothing to run; every whenIdle() and every unload settles',
    programs: ['shutdown-with-wake'], cases: ['AGENT-INITIATOR-DRAIN 141:'],
    how: 'the program races followups and a steer with a shutdown under every schedule; the liveness checker fails a run where a whenIdle or an unload never settles (X-RUN 2 / AGENT-TEARDOWN-TEST 98)',
  },
  {
    id: 'Q10', demand: 'Suite should match /already (exists|registered)/ for same-id losers',
    programs: ['same-id-race'], cases: ['AGENT-ATOMIC-TEST 64:', 'AGENT-PREPARE-PUBLISH 57:'],
    how: 'the loser\'s rejection is matched against both texts; a collision only in the agent registry is covered by the register case of 57',
  },
  {
    id: 'Q12', demand: 'the suite tests CH\'s stronger reading of creation-signal detachment (D13) and owner join (D17)',
    programs: ['dispose-races-owner-and-factory-unload'], cases: ['AGENT-ATOMIC-TEST 68:', 'AGENT-TEARDOWN-TEST 98: D17:'],
    how: 'a signal aborted after the handle resolved must tear nothing down (68; the triggers checker in every run), and every owner joins the one teardown (D17)',
  },
]
