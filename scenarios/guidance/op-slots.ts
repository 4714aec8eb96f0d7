/**
 * A program's operations as slots (top-level and nested), which mutation rewrites and a corpus
 * entry is weighed by. Apart from `mutate.ts` (and its generators): the thread that feeds a guided
 * campaign's workers weighs entries but never mutates.
 * @module
 */
import type { Action, Operation, Program, SetupSpec } from '../../sim/program/program.js'

/**
 * A slot holding an operation somewhere in the program (an actor's list or a nested site): the
 * object or array that holds it and under which key. A class, not a pair of closures per slot:
 * slots are listed for every mutation, and code created per call is compiled again after each
 * full GC once no closure of it is left.
 */
export class OpSlot {
  constructor(private readonly holder: Record<string | number, unknown>, private readonly key: string | number) {}

  get(): Operation {
    return this.holder[this.key] as Operation
  }

  set(op: Operation): void {
    this.holder[this.key] = op
  }
}

/** Every operation of the program, top-level and nested, as slots. */
export function operationSlots(program: Program): OpSlot[] {
  const slots: OpSlot[] = []
  for (const actor of program.actors) {
    const ops = actor.ops
    for (let i = 0; i < ops.length; i++) {
      slots.push(new OpSlot(ops as unknown as Record<number, unknown>, i))
      visitOp(ops[i]!, slots)
    }
  }
  const env = program.env
  if (env?.listeners) for (const l of env.listeners) visitAction(l.action, slots)
  if (env?.effects) for (const e of env.effects) visitAction(e.disposer, slots)
  if (env?.minting) for (const m of env.minting) visitAction(m.action, slots)
  for (const steps of Object.values(env?.model ?? {})) {
    for (const step of steps) {
      if (step.reply === 'tool' && step.op) {
        slots.push(new OpSlot(step as unknown as Record<string, unknown>, 'op'))
        visitOp(step.op, slots)
      }
    }
  }
  return slots
}

function visitAction(a: Action, slots: OpSlot[]): void {
  if (a.do === 'op') {
    slots.push(new OpSlot(a as unknown as Record<string, unknown>, 'op'))
    visitOp(a.op, slots)
  }
}

function visitSetup(s: SetupSpec | undefined, slots: OpSlot[]): void {
  if (!s) return
  if (s.commitOp) {
    slots.push(new OpSlot(s as unknown as Record<string, unknown>, 'commitOp'))
    visitOp(s.commitOp, slots)
  }
  if (s.effects) for (const e of s.effects) visitAction(e.disposer, slots)
  if (s.listeners) for (const l of s.listeners) visitAction(l.action, slots)
}

function visitOp(op: Operation, slots: OpSlot[]): void {
  if (op.op === 'create' || op.op === 'resume') visitSetup(op.setup, slots)
}
