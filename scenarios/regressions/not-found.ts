/**
 * Mutants of the gallery with no saved failing run yet, and why: neither `dsh-kit fuzz --time 30s`
 * (random programs) nor 60 runs of every named scenario nor `dsh-kit certify`'s simulated phases
 * produced a violation that the reference factory does not show too. Most break a §9 clause that
 * only a directed case checks (the trace checkers do not look at it), or need an input a program
 * cannot express. Each is a lead for a new checker or program behaviour; `certify` catches the
 * ones whose clause has a directed case.
 *
 * When a campaign finds one, save its shrunk run file here as `<mutant>.json` and drop the entry.
 */
export const NOT_FOUND: Readonly<Record<string, string>> = {
  'a1-driver-boundary-not-returned.ts': '§9 141 (the registry drain waits for the old driver) is checked only by a directed case; traces do not show the initiator store',
  'a2-initiator-wrapper.ts': '§9 130 (withInitiator returns the exact Promise object) is not observable in a trace',
  'a5-clear-next-turn-first.ts': 'the inbox checker checks each splice of clear() (§9 121), not that next-step comes first',
  'a7-signal-after-return-tears-down.ts': '§9 68 (aborting the creation signal after create resolved) is not trace-checked',
  'a8-claim-next-turn-first.ts': 'the inbox checker checks each claim splice (§9 126), not the next-step-first order of a batch',
  'm12-orphan-session-on-agent-collision.ts': 'needs an agent registered directly in the agent registry (§3.5 L), which programs cannot express',
  'm13-proxy-receiver.ts': 'programs act on agents by id through the registry, never through the event payload, so the proxy is never used',
  'm19-setup-after-minting-unload.ts': 'needs an observer of the scope minting that unloads the owner; programs have no such hook',
  'm20-no-recheck-after-edges.ts': '§9 60/61/93/94 (liveness re-checked after the publication listeners) are not trace-checked',
  'm28-owner-effect-not-retired.ts': '§9 99 (the owner-side teardown effect is retired at disposal) is not trace-checked: stale effects only re-run no-op hooks',
  'm31-turn-opens-after-dispose.ts': '§9 107/150/151 (no turn/start after a disposal from the running notification) are not trace-checked',
  'm33-teardown-keeps-inbox.ts': '§9 114 (pending items durably canceled at disposal) is not trace-checked',
  'm35-steering-dropped-at-stop.ts': '§9 162 (steering from turn-stopping makes another step) is not trace-checked',
  'm37-blocked-admission-clears-inbox.ts': '§9 163/165 (a rejected pre-step affects only the claimed batch) are not trace-checked',
  'm38-inject-wakes.ts': '§9 123/124 (an idle inject parks without opening a turn) are not trace-checked',
  'm39-cancel-only-aborts.ts': '§9 149/153/154 (cancel discards queued work and the latch) are not trace-checked',
  'm40-idle-cancel-poisons.ts': '§9 142 (an idle cancel is a no-op for the next followup) is not trace-checked',
  'm43-latch-replay-unconditional.ts': '§9 32/147 (no latch replay without pending work) are not trace-checked',
  'm48-whenidle-status-shortcut.ts': '§9 31/33 (whenIdle waits for a busy-but-idle-looking activity) are not trace-checked',
  'm49-whenidle-no-follow.ts': '§9 27 is trace-checked only as "whenIdle settles"; resolving too early is not detected',
  'm57-inbox-aliases-caller-message.ts': 'programs never mutate a message after sending it (§9 171)',
  'm58-resume-as-fresh.ts': 'the resume checks (§9 43/44) read the history from what the factory restored, so restoring nothing looks consistent; the fuzz "finding" (§9 36) is the same-id attribution false positive',
}
