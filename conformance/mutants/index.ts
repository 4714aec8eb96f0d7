/**
 * The mutant gallery: buggy variants of the reference factory, one bug each, reproducing the real
 * lifecycle bugs of ../shared/bugs/catalog.md (M..), its spec-derived appendix (A1–A8) and further
 * spec-derived bugs of the same kinds (A9–: quiescence and reentrancy, each proving one of the
 * checks of the settled state). Most subclass the reference factory and replace one step; A13 is
 * a process adapter (its bug is in the process's persistence, not in the factory).
 * Each module's default export is an adapter; its top comment says what it breaks and how.
 *
 * The meta-test (mutants.test.ts) runs every directed case against every mutant and requires each
 * mutant to be caught, except those marked `caughtByDirected: false` (with the reason), which are
 * kept for the trace checkers and random programs.
 * @module
 */
import type { Adapter } from '../adapters/adapter.js'
import a1DriverBoundaryNotReturned from './a1-driver-boundary-not-returned.js'
import a2InitiatorWrapper from './a2-initiator-wrapper.js'
import a3SetupUnderChildInitiator from './a3-setup-under-child-initiator.js'
import a4InboxMutatesBeforeAppend from './a4-inbox-mutates-before-append.js'
import a5ClearNextTurnFirst from './a5-clear-next-turn-first.js'
import a6UnannouncedDisposedEdge from './a6-unannounced-disposed-edge.js'
import a7SignalAfterReturnTearsDown from './a7-signal-after-return-tears-down.js'
import a8ClaimNextTurnFirst from './a8-claim-next-turn-first.js'
import a9WakeDecidedBeforeInsert from './a9-wake-decided-before-insert.js'
import a10CancelAfterStopCheck from './a10-cancel-after-stop-check.js'
import a11CauseRecordedAfterAbort from './a11-cause-recorded-after-abort.js'
import a12DriverStartFailureKeepsRunning from './a12-driver-start-failure-keeps-running.js'
import a13LiveSessionCrashRepaired from './a13-live-session-crash-repaired.js'
import a14RollbackKeepsScope from './a14-rollback-keeps-scope.js'
import a15TeardownRethrowsDeferredClear from './a15-teardown-rethrows-deferred-clear.js'
import m01SetupAfterPublish from './m01-setup-after-publish.js'
import m04SessionStartBeforeCreated from './m04-session-start-before-created.js'
import m05AgentDetachCapturedLate from './m05-agent-detach-captured-late.js'
import m07AgentOnCopiedSession from './m07-agent-on-copied-session.js'
import m09SecondCreatedEdge from './m09-second-created-edge.js'
import m10UncontainedSessionStart from './m10-uncontained-session-start.js'
import m12OrphanSessionOnAgentCollision from './m12-orphan-session-on-agent-collision.js'
import m13ProxyReceiver from './m13-proxy-receiver.js'
import m15RollbackKeepsSession from './m15-rollback-keeps-session.js'
import m18FactoryForgetsLiveAgents from './m18-factory-forgets-live-agents.js'
import m19SetupAfterMintingUnload from './m19-setup-after-minting-unload.js'
import m20NoRecheckAfterEdges from './m20-no-recheck-after-edges.js'
import m22UncontainedStatus from './m22-uncontained-status.js'
import m24SessionDetachedBeforeDrain from './m24-session-detached-before-drain.js'
import m25OwnerUnloadUnregistersEarly from './m25-owner-unload-unregisters-early.js'
import m28OwnerEffectNotRetired from './m28-owner-effect-not-retired.js'
import m29ScopeCleanupNotAwaited from './m29-scope-cleanup-not-awaited.js'
import m31TurnOpensAfterDispose from './m31-turn-opens-after-dispose.js'
import m32DisposeIsStopAndWait from './m32-dispose-is-stop-and-wait.js'
import m33TeardownKeepsInbox from './m33-teardown-keeps-inbox.js'
import m35SteeringDroppedAtStop from './m35-steering-dropped-at-stop.js'
import m37BlockedAdmissionClearsInbox from './m37-blocked-admission-clears-inbox.js'
import m38InjectWakes from './m38-inject-wakes.js'
import m39CancelOnlyAborts from './m39-cancel-only-aborts.js'
import m40IdleCancelPoisons from './m40-idle-cancel-poisons.js'
import m43LatchReplayUnconditional from './m43-latch-replay-unconditional.js'
import m44NoopCancelNotifies from './m44-noop-cancel-notifies.js'
import m48WhenidleStatusShortcut from './m48-whenidle-status-shortcut.js'
import m49WhenidleNoFollow from './m49-whenidle-no-follow.js'
import m51FinalTurnEndDeferred from './m51-final-turn-end-deferred.js'
import m52TurnCounterRestarts from './m52-turn-counter-restarts.js'
import m53ClaimBeforeTurnStart from './m53-claim-before-turn-start.js'
import m57InboxAliasesCallerMessage from './m57-inbox-aliases-caller-message.js'
import m58ResumeAsFresh from './m58-resume-as-fresh.js'
import m59TeardownResolvesBeforeRelease from './m59-teardown-resolves-before-release.js'

/** One mutant of the gallery. */
export interface MutantEntry {
  /** The module file name under conformance/mutants/. */
  readonly file: string
  readonly adapter: Adapter
  /** The catalog entry it reproduces: `M15`, `A6`, ... */
  readonly catalog: string
  /** `false` when no directed case is expected to catch it (yet); the default is `true`. */
  readonly caughtByDirected?: false
  /** Why no directed case catches it (required with `caughtByDirected: false`). */
  readonly reason?: string
  /** Clause ids expected to fail on this mutant (filled in by the clause-checker suite). */
  readonly expectedClauses?: readonly string[]
}

/** Every mutant, in file order. */
export const MUTANTS: readonly MutantEntry[] = [
  { file: 'a1-driver-boundary-not-returned.ts', adapter: a1DriverBoundaryNotReturned, catalog: 'A1' },
  { file: 'a2-initiator-wrapper.ts', adapter: a2InitiatorWrapper, catalog: 'A2' },
  { file: 'a3-setup-under-child-initiator.ts', adapter: a3SetupUnderChildInitiator, catalog: 'A3' },
  { file: 'a4-inbox-mutates-before-append.ts', adapter: a4InboxMutatesBeforeAppend, catalog: 'A4' },
  { file: 'a5-clear-next-turn-first.ts', adapter: a5ClearNextTurnFirst, catalog: 'A5' },
  { file: 'a6-unannounced-disposed-edge.ts', adapter: a6UnannouncedDisposedEdge, catalog: 'A6' },
  { file: 'a7-signal-after-return-tears-down.ts', adapter: a7SignalAfterReturnTearsDown, catalog: 'A7' },
  { file: 'a8-claim-next-turn-first.ts', adapter: a8ClaimNextTurnFirst, catalog: 'A8' },
  { file: 'a9-wake-decided-before-insert.ts', adapter: a9WakeDecidedBeforeInsert, catalog: 'A9', caughtByDirected: false,
    reason: 'only an operation from inside an inbox observer reaches it; caught by the quiescence checks (idle-pending.ts, §9 31)' },
  { file: 'a10-cancel-after-stop-check.ts', adapter: a10CancelAfterStopCheck, catalog: 'A10', caughtByDirected: false,
    reason: 'needs a cancel landing in a checkpoint after the stop check; caught by completed-turn.ts (§9 157)' },
  { file: 'a11-cause-recorded-after-abort.ts', adapter: a11CauseRecordedAfterAbort, catalog: 'A11', caughtByDirected: false,
    reason: 'only a cancel from an abort observer reaches it; caught by cancel-cause.ts (§9 156)' },
  { file: 'a12-driver-start-failure-keeps-running.ts', adapter: a12DriverStartFailureKeepsRunning, catalog: 'A12', caughtByDirected: false,
    reason: 'no directed case reads the status after a wake raced a shutdown; caught by status-activity.ts (§9 11/27)' },
  { file: 'a13-live-session-crash-repaired.ts', adapter: a13LiveSessionCrashRepaired, catalog: 'A13', caughtByDirected: false,
    reason: 'a process adapter (its persistence is buggy): directed cases run only on factory adapters; caught by stored-log.ts (§9 43)' },
  { file: 'a14-rollback-keeps-scope.ts', adapter: a14RollbackKeepsScope, catalog: 'A14' },
  { file: 'a15-teardown-rethrows-deferred-clear.ts', adapter: a15TeardownRethrowsDeferredClear, catalog: 'A15' },
  { file: 'm01-setup-after-publish.ts', adapter: m01SetupAfterPublish, catalog: 'M01' },
  { file: 'm04-session-start-before-created.ts', adapter: m04SessionStartBeforeCreated, catalog: 'M04' },
  { file: 'm05-agent-detach-captured-late.ts', adapter: m05AgentDetachCapturedLate, catalog: 'M05' },
  { file: 'm07-agent-on-copied-session.ts', adapter: m07AgentOnCopiedSession, catalog: 'M07' },
  { file: 'm09-second-created-edge.ts', adapter: m09SecondCreatedEdge, catalog: 'M09' },
  { file: 'm10-uncontained-session-start.ts', adapter: m10UncontainedSessionStart, catalog: 'M10', caughtByDirected: false,
    reason: 'caught by the trace checkers (a throwing agent/session-start listener in a directed program rejects the create), not by a directed case' },
  { file: 'm12-orphan-session-on-agent-collision.ts', adapter: m12OrphanSessionOnAgentCollision, catalog: 'M12' },
  { file: 'm13-proxy-receiver.ts', adapter: m13ProxyReceiver, catalog: 'M13' },
  { file: 'm15-rollback-keeps-session.ts', adapter: m15RollbackKeepsSession, catalog: 'M15' },
  { file: 'm18-factory-forgets-live-agents.ts', adapter: m18FactoryForgetsLiveAgents, catalog: 'M18' },
  { file: 'm19-setup-after-minting-unload.ts', adapter: m19SetupAfterMintingUnload, catalog: 'M19' },
  { file: 'm20-no-recheck-after-edges.ts', adapter: m20NoRecheckAfterEdges, catalog: 'M20' },
  { file: 'm22-uncontained-status.ts', adapter: m22UncontainedStatus, catalog: 'M22' },
  { file: 'm24-session-detached-before-drain.ts', adapter: m24SessionDetachedBeforeDrain, catalog: 'M24' },
  { file: 'm25-owner-unload-unregisters-early.ts', adapter: m25OwnerUnloadUnregistersEarly, catalog: 'M25' },
  { file: 'm28-owner-effect-not-retired.ts', adapter: m28OwnerEffectNotRetired, catalog: 'M28' },
  { file: 'm29-scope-cleanup-not-awaited.ts', adapter: m29ScopeCleanupNotAwaited, catalog: 'M29' },
  { file: 'm31-turn-opens-after-dispose.ts', adapter: m31TurnOpensAfterDispose, catalog: 'M31' },
  { file: 'm32-dispose-is-stop-and-wait.ts', adapter: m32DisposeIsStopAndWait, catalog: 'M32' },
  { file: 'm33-teardown-keeps-inbox.ts', adapter: m33TeardownKeepsInbox, catalog: 'M33' },
  { file: 'm35-steering-dropped-at-stop.ts', adapter: m35SteeringDroppedAtStop, catalog: 'M35' },
  { file: 'm37-blocked-admission-clears-inbox.ts', adapter: m37BlockedAdmissionClearsInbox, catalog: 'M37' },
  { file: 'm38-inject-wakes.ts', adapter: m38InjectWakes, catalog: 'M38' },
  { file: 'm39-cancel-only-aborts.ts', adapter: m39CancelOnlyAborts, catalog: 'M39' },
  { file: 'm40-idle-cancel-poisons.ts', adapter: m40IdleCancelPoisons, catalog: 'M40' },
  { file: 'm43-latch-replay-unconditional.ts', adapter: m43LatchReplayUnconditional, catalog: 'M43' },
  { file: 'm44-noop-cancel-notifies.ts', adapter: m44NoopCancelNotifies, catalog: 'M44' },
  { file: 'm48-whenidle-status-shortcut.ts', adapter: m48WhenidleStatusShortcut, catalog: 'M48' },
  { file: 'm49-whenidle-no-follow.ts', adapter: m49WhenidleNoFollow, catalog: 'M49' },
  { file: 'm51-final-turn-end-deferred.ts', adapter: m51FinalTurnEndDeferred, catalog: 'M51' },
  { file: 'm52-turn-counter-restarts.ts', adapter: m52TurnCounterRestarts, catalog: 'M52' },
  { file: 'm53-claim-before-turn-start.ts', adapter: m53ClaimBeforeTurnStart, catalog: 'M53' },
  { file: 'm57-inbox-aliases-caller-message.ts', adapter: m57InboxAliasesCallerMessage, catalog: 'M57' },
  { file: 'm58-resume-as-fresh.ts', adapter: m58ResumeAsFresh, catalog: 'M58' },
  { file: 'm59-teardown-resolves-before-release.ts', adapter: m59TeardownResolvesBeforeRelease, catalog: 'M59' },
]
