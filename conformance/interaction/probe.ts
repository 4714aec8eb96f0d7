/**
 * Probing a variant: which situations (phase, pending, stage) the probe of an interaction program
 * meets at its trigger, over the schedules the interaction mode runs (`schedules.ts`). The action
 * plays no part in it (the situation is read before the action runs), so the probe runs a neutral
 * one. What the variants reach on the reference decides which variants the mode runs for each
 * trigger (`variants.ts`, written by `build-variants.ts`).
 * @module
 */
import type { ProcessFactory } from '../../core/process.js'
import { runProgram } from '../../sim/run.js'
import { interactionsOf } from './features.js'
import { interactionProgram } from './programs.js'
import type { Drive, ProbeFilter } from './programs.js'
import { interactionSchedules, MODE_SCHEDULES } from './schedules.js'
import type { ScheduleBound } from './schedules.js'

/** The action a probe plays: an operation where only operations are allowed, else one that changes nothing. */
export function neutralAction(trigger: string): string {
  if (trigger === 'actor' || trigger.startsWith('abort:')) return 'op:whenIdle'
  return trigger === 'agent/pre-step' ? 'slow' : 'block'
}

/** A situation as `phase|pending|stage`. */
export type Situation = string

/** The situations the probe of `trigger` in variant (`drive`, `filter`) meets, over the mode's schedules. */
export async function probeSituations(
  trigger: string, variant: { drive: Drive; filter: ProbeFilter }, options: { process?: ProcessFactory; bound?: ScheduleBound } = {},
): Promise<Set<Situation>> {
  const process = options.process
  const program = interactionProgram({ ...variant, trigger, action: neutralAction(trigger) })
  const out = new Set<Situation>()
  if (program === undefined) return out
  for (const strategy of interactionSchedules(options.bound ?? MODE_SCHEDULES)) {
    const result = await runProgram(program, strategy, process ? { process } : {})
    for (const i of interactionsOf(result.trace)) {
      const entry = result.trace.entries[i.i]
      if (i.trigger !== trigger) continue
      if (trigger === 'actor') {
        if (entry?.k !== 'invoke') continue
        const probe = variant.filter.at === undefined ? entry.actor === 'a2' : entry.actor === 'a1' && entry.op === variant.filter.at
        if (!probe) continue
      }
      out.add(`${i.phase}|${i.pending}|${i.stage}`)
    }
  }
  return out
}
