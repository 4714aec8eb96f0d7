/**
 * Seeded random programs for the suite: a few actors mixing every operation over a small pool of
 * ids (so operations collide), with environment faults. Drawn from the run seed's `program` stream,
 * so a program is reproducible from its seed and printed in full in every failure.
 * (`scenarios/arbitraries` is the fast-check face of the same idea, with shrinking.)
 * @module
 */
import { EVENT_NAMES } from '../../core/contract.js'
import type { Action, ListenerSpec, ModelStepSpec, Operation, Program, SetupSpec } from '../../sim/program/program.js'
import { resolveReferences } from '../../sim/program/resolve-references.js'
import { createStreams } from '../../sim/streams.js'
import type { Rng } from '../../sim/streams.js'

const SESSIONS = ['s1', 's2', 's3']
const OWNERS = ['a1', 'a2', 'o1']

function pick<T>(rng: Rng, items: readonly T[]): T {
  return items[rng.int(items.length)]!
}

function setup(rng: Rng): SetupSpec | undefined {
  if (rng.bool(0.2)) return undefined
  const spec: SetupSpec = { steps: rng.int(3) }
  if (rng.bool(0.5)) spec.effects = [{ disposer: pick<Action>(rng, [{ do: 'slow' }, { do: 'throw' }, { do: 'slow' }]) }]
  const fault = rng.int(12)
  if (fault === 0) spec.throwSync = true
  if (fault === 1 && spec.steps > 0) spec.rejectAt = 1 + rng.int(spec.steps)
  if (fault === 2) spec.commitThrows = true
  if (fault === 3) spec.listeners = [{ event: pick(rng, EVENT_NAMES), action: { do: 'throw' } }]
  return spec
}

function operation(rng: Rng, depth = 0): Operation {
  const session = pick(rng, SESSIONS)
  const roll = rng.int(100)
  if (roll < 22) {
    const op: Operation = { op: 'create', session }
    const s = setup(rng)
    if (s) op.setup = s
    if (rng.bool(0.15)) op.owner = pick(rng, OWNERS)
    if (rng.bool(0.1) && depth === 0) op.parent = pick(rng, SESSIONS.filter((x) => x !== session))
    if (rng.bool(0.1)) op.signal = 'g1'
    return op
  }
  if (roll < 28) return { op: 'resume', session, ...(rng.bool(0.3) ? { setup: { steps: 1 } } : {}) }
  if (roll < 38) return { op: 'dispose', session }
  if (roll < 46) return { op: 'cancel', session, cause: pick(rng, ['user', 'parent', 'hook'] as const), ...(rng.bool(0.4) ? { keepInbox: true } : {}) }
  if (roll < 68) return { op: pick(rng, ['followup', 'steer', 'inject', 'queue', 'followup'] as const), session }
  if (roll < 72) return { op: 'runMaintenance', session, steps: 1 + rng.int(2) }
  if (roll < 79) return { op: 'whenIdle', session }
  if (roll < 82) return { op: 'abortSignal', signal: 'g1' }
  if (roll < 88) return { op: 'unloadOwner', owner: pick(rng, OWNERS) }
  if (roll < 91) return { op: 'unloadFactory' }
  if (roll < 93) return { op: 'shutdown' }
  if (roll < 95) return { op: 'restart' }
  // A crash and the registry's enter/announce/detach steps on stubs (a runtime without the
  // capability answers them "not supported", and the program goes on).
  if (roll < 97) return { op: 'crash' }
  const step = pick(rng, ['enter', 'announce', 'detach'] as const)
  return step === 'detach' ? { op: 'detach', session, ...(rng.bool(0.3) ? { stale: true as const } : {}) } : { op: step, session }
}

function listener(rng: Rng): ListenerSpec {
  const event = pick(rng, EVENT_NAMES)
  const kind = rng.int(4)
  const action: Action = kind === 0 ? { do: 'throw' } : kind === 1 ? { do: 'reject' } : kind === 2 ? { do: 'slow' } : { do: 'op', op: operation(rng, 1) }
  return { event, action, times: 1 + rng.int(2), ...(rng.bool(0.5) ? { session: pick(rng, SESSIONS) } : {}) }
}

/** A random program drawn from `seed`. */
export function randomProgram(seed: string | number): Program {
  const rng = createStreams(seed).program
  const actors = 2 + rng.int(2)
  const program: Program = { v: 1, name: `random ${seed}`, actors: [] }
  for (let a = 0; a < actors; a++) {
    const ops: Operation[] = [{ op: 'create', session: SESSIONS[a % SESSIONS.length]!, setup: { steps: 1 + rng.int(2) } }]
    const length = 2 + rng.int(5)
    for (let k = 0; k < length; k++) ops.push(operation(rng))
    program.actors.push({ id: `a${a + 1}`, ops })
  }
  const listeners: ListenerSpec[] = []
  for (let k = rng.int(3); k > 0; k--) listeners.push(listener(rng))
  const model: Record<string, ModelStepSpec[]> = {}
  for (const s of SESSIONS) {
    if (!rng.bool(0.5)) continue
    model[s] = Array.from({ length: 1 + rng.int(3) }, () => pick<ModelStepSpec>(rng, [{ reply: 'text' }, { reply: 'tool' }, { reply: 'fail' }, { reply: 'hang' }, { reply: 'tool', op: { op: 'steer', session: s } }, { reply: 'delay', ms: 10 }]))
  }
  program.env = { listeners, model }
  if (rng.bool(0.3)) program.env.loads = { [pick(rng, SESSIONS)]: pick(rng, [{ load: 'slow', steps: 1 }, { load: 'fail' }, { load: 'hang' }] as const) }
  if (rng.bool(0.3)) program.env.effects = [{ on: 'root', disposer: { do: 'slow' } }]
  // What the draws name that nothing creates (an owner, a signal, a session, a stub) is renamed or dropped.
  return resolveReferences(program)
}
