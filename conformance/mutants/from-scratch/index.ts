/**
 * The second mutant gallery: one bug each in the independent example factory
 * (`examples/from-scratch-factory/`), written from the contract without the first gallery in view.
 * Each entry names its module (`<id>-<name>.ts`, an adapter module), the clause it is expected to
 * violate (from the contract, not from what the kit reports) and the bug in one line.
 * `README.md` has what the kit finds of each, measured.
 * @module
 */

/** One mutant of the gallery. */
export interface ScratchMutant {
  /** `f00`, `f01`, …: the module's prefix. */
  readonly id: string
  /** The module is `<id>-<name>.ts`. */
  readonly name: string
  /** The §9 clause the bug should violate first (others may follow). */
  readonly clause: string
  /** What is wrong, in one line. */
  readonly description: string
}

export const SCRATCH_MUTANTS: readonly ScratchMutant[] = [
  {
    id: 'f00', name: 'turn-after-dispose-began', clause: 'AGENT-TEARDOWN-TEST 107',
    description: "the example as it stood: the next turn renews an activity controller aborted by a turn/end observer's teardown",
  },
  {
    id: 'f01', name: 'liveness-trusts-abort-signals', clause: 'AGENT-PREPARE-PUBLISH 60',
    description: 'the publication re-checks read only the creation signal, so an owner that began unloading inside a creation edge still counts as live',
  },
  {
    id: 'f02', name: 'setup-not-raced', clause: 'AGENT-ATOMIC-TEST 67',
    description: 'setup is awaited instead of raced against the creation abort, so an abort during a hung setup never rejects',
  },
  {
    id: 'f03', name: 'signal-dropped-after-setup', clause: 'AGENT-PREPARE-PUBLISH 58',
    description: 'the creation signal is let go once setup settled, so an abort during publication is ignored',
  },
  {
    id: 'f04', name: 'rollback-not-awaited', clause: 'AGENT-TEARDOWN-TEST 95',
    description: 'a failed creation rejects before its rollback settled, while the id is still taken',
  },
  {
    id: 'f05', name: 'detaches-recorded-late', clause: 'AGENT-ATOMIC-TEST 65',
    description: 'step 7 stores the session detach only after agents.enter succeeded, so an agent-only collision orphans the session',
  },
  {
    id: 'f06', name: 'same-id-refused-early', clause: 'AGENT-ATOMIC-TEST 63',
    description: 'a create of an id already being created is refused before its setup instead of losing at enter',
  },
  {
    id: 'f07', name: 'session-detached-first', clause: 'AGENT-TEARDOWN-TEST 97',
    description: 'the teardown detaches the session before the agent: session/disposed precedes agent/disposed',
  },
  {
    id: 'f08', name: 'owner-skips-running-teardown', clause: 'AGENT-TEARDOWN-TEST 98',
    description: 'an owner unload after another owner started the teardown resolves without waiting for it (upstream D17)',
  },
  {
    id: 'f09', name: 'teardown-flag-never-raised', clause: 'AGENT-TEARDOWN-TEST 110',
    description: 'beginTeardown does nothing: a waking send during teardown starts a new driver the teardown then waits for',
  },
  {
    id: 'f10', name: 'claim-ignores-target', clause: 'AGENT-INBOX-TEST 126',
    description: 'every step claims a next-turn item, so a followup joins a running multi-step turn',
  },
  {
    id: 'f11', name: 'replace-inserted-first', clause: 'AGENT-INBOX-TEST 118',
    description: 'an edit that removes and inserts notifies inserted before discarded',
  },
  {
    id: 'f12', name: 'discarded-not-contained', clause: 'AGENT-INBOX-TEST 125',
    description: 'agent/inbox/discarded is a veto emit: a throwing listener escapes a cancel before it aborts',
  },
  {
    id: 'f13', name: 'fork-replays-parent-splices', clause: 'AGENT-CREATE-RESUME 54',
    description: "inbox replay starts at seq 0 instead of seedLength, replaying a fork's parent splices",
  },
  {
    id: 'f14', name: 'replay-clamps-removed-count', clause: 'AGENT-INBOX-REPLAY 117',
    description: 'replay clamps a persisted removedCount that exceeds the list instead of rejecting the splice',
  },
  {
    id: 'f15', name: 'latch-survives-clear', clause: 'X-CANCEL 146',
    description: 'a plain cancel clears the inbox but keeps the wake latch, which then runs later input',
  },
  {
    id: 'f16', name: 'latch-replay-ignores-teardown', clause: 'AGENT-TEARDOWN-TEST 110',
    description: 'the latch replay at convergence does not check that teardown began',
  },
  {
    id: 'f17', name: 'idle-cancel-noop', clause: 'X-CANCEL 154',
    description: 'cancel on an idle agent does nothing, so parked input survives it (the stale prose of §11 (D8))',
  },
  {
    id: 'f18', name: 'abort-before-clear', clause: 'X-CANCEL 155',
    description: 'cancel aborts before clearing, so work an abort observer sends is cleared with its latch',
  },
  {
    id: 'f19', name: 'whenidle-single-wait', clause: 'AGENT-RUNTIME-SCOPE 27',
    description: 'whenIdle awaits the activity it found once and does not follow replacement work',
  },
  {
    id: 'f20', name: 'maintenance-not-an-activity', clause: 'AGENT-RUNTIME-SCOPE 33',
    description: 'runMaintenance does not replace the activity, so whenIdle and the teardown do not wait for the task',
  },
  {
    id: 'f21', name: 'driver-boundary-released', clause: 'AGENT-INITIATOR-DRAIN 141',
    description: "the driver's withInitiator boundary returns at once, so a registry drain does not wait for the driver",
  },
  {
    id: 'f22', name: 'late-preparation-kept', clause: 'AGENT-CREATE-RESUME 50',
    description: "a resume that lost its load's race never releases the preparation that arrives later",
  },
]

/** The module path of a mutant, relative to the package root (what `--adapter` takes). */
export function modulePath(m: ScratchMutant): string {
  return `conformance/mutants/from-scratch/${m.id}-${m.name}.ts`
}

/** The entry of `id`; throws for an unknown one. */
export function findScratchMutant(id: string): ScratchMutant {
  const found = SCRATCH_MUTANTS.find((m) => m.id === id)
  if (!found) throw new Error(`unknown from-scratch mutant "${id}" (known: ${SCRATCH_MUTANTS.map((m) => m.id).join(', ')})`)
  return found
}
