/** Internal phases of the reference agent (§7.1). Public status maps `running` → running, else idle. */
export interface IdlePhase { readonly kind: 'idle'; readonly lastTurn: number }
export interface MaintenancePhase { readonly kind: 'maintenance'; readonly abort: AbortController; readonly lastTurn: number; wakeRequested: boolean }
export interface RunningPhase { readonly kind: 'running'; abort: AbortController; turn: number; step: number; wakeRequested: boolean }
export type Phase = IdlePhase | MaintenancePhase | RunningPhase

/** A `{kind:'disposed'}` cancel cause never latches a wake (§7.2). */
export function isDisposedCause(reason: unknown): boolean {
  return typeof reason === 'object' && reason !== null && (reason as { kind?: unknown }).kind === 'disposed'
}
