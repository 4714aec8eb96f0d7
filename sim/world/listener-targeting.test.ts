import { describe, expect, it } from 'vitest'
import { printProgram } from '../program/program-print.js'
import * as build from '../program/build.js'
import type { ListenerSpec, Operation, Program } from '../program/program.js'
import { ProgramError, validateProgram } from '../program/program.js'
import { runProgram } from '../run.js'
import { random } from '../strategies/index.js'
import type { TraceEntry } from '../trace/trace.js'

async function run(program: Program, seed = 1): Promise<readonly TraceEntry[]> {
  const strategy = random({ seed })
  strategy.beginRun()
  return (await runProgram(program, strategy)).trace.entries
}

const one = (...ops: Operation[]): Program['actors'] => [{ id: 'a1', ops }]
const inline = (entries: readonly TraceEntry[]): string[] => entries.flatMap((e) => (e.k === 'invoke' && e.actor === 'inline' ? [e.what] : []))
/** The appended event each inline operation was performed after (the observer it ran in). */
const observed = (entries: readonly TraceEntry[]): string[] => {
  const out: string[] = []
  let last = ''
  for (const e of entries) {
    if (e.k === 'append') last = `${e.type}#${e.seq}`
    if (e.k === 'invoke' && e.actor === 'inline') out.push(last)
  }
  return out
}
const withListener = (l: ListenerSpec, ...ops: Operation[]): Program => ({ v: 1, actors: one({ op: 'create', session: 's1' }, ...ops), env: { listeners: [l] } })
const noop: ListenerSpec['action'] = { do: 'op', op: { op: 'pause' } }

describe('listener targeting', () => {
  it('nth: the listener acts first on the nth matching occurrence, then `times` times in all', async () => {
    const sends = [build.inject('s1'), build.inject('s1'), build.inject('s1'), build.inject('s1')]
    const second = await run(withListener({ event: 'agent/inbox/inserted', action: noop, nth: 2 }, ...sends))
    expect(observed(second)).toEqual(['agent/inbox/spliced#1'])
    const twoFromThird = await run(withListener({ event: 'agent/inbox/inserted', action: noop, nth: 3, times: 2 }, ...sends))
    expect(observed(twoFromThird)).toEqual(['agent/inbox/spliced#2', 'agent/inbox/spliced#3'])
  })

  it('where: payload filters select the splice, status, turn and reason they name', async () => {
    const ops = [build.followup('s1'), build.whenIdle('s1'), build.inject('s1'), build.followup('s1'), build.whenIdle('s1')]
    // A splice observed while an item is already pending (the live inbox lags the log, §6.3): the
    // inject's is not (nothing was pending before it), the followup's after it is.
    const pending = await run(withListener({ event: 'session/event', eventType: 'agent/inbox/spliced', where: { pending: true, outcome: 'inserted' }, action: noop }, ...ops))
    expect(observed(pending)).toEqual(['agent/inbox/spliced#9'])
    const claimed = await run(withListener({ event: 'session/event', where: { outcome: 'claimed', target: 'next-step' }, action: noop }, ...ops))
    expect(observed(claimed)).toEqual(['agent/inbox/spliced#11'])
    const idle = await run(withListener({ event: 'agent/status', where: { status: 'idle' }, action: noop, times: 2 }, ...ops))
    expect(inline(idle)).toHaveLength(2)
    const secondTurn = await run(withListener({ event: 'session/event', where: { turn: 2, reason: 'completed' }, action: noop }, ...ops))
    expect(observed(secondTurn)).toEqual(['turn/end#18'])
  })

  it('onAbort: an abort observer on the activity signal acts synchronously inside the abort', async () => {
    // The tool body cancels during the model call, after the pre-step listener began observing.
    const entries = await run({
      v: 1, actors: one(build.create('s1'), build.followup('s1')),
      env: {
        model: { s1: [{ reply: 'tool', op: build.cancel('s1') }] },
        listeners: [{ event: 'agent/pre-step', action: { do: 'slow' }, onAbort: build.act(build.steer('s1', 'from the abort')) }],
      },
    })
    const order = entries.flatMap((e) => (e.k === 'invoke' || e.k === 'outcome' ? [`${e.k} ${e.what}`] : []))
    // The observer's steer runs inside the cancel (before its outcome), and it is latched: it runs in a new turn.
    expect(order.indexOf('invoke steer(s1) from env:abort')).toBeGreaterThan(order.indexOf('invoke cancel(s1,user) from model:s1.tool'))
    expect(order.indexOf('invoke steer(s1) from env:abort')).toBeLessThan(order.indexOf('outcome cancel(s1,user) from model:s1.tool'))
    expect(entries.some((e) => e.k === 'mark' && e.label === 'env:abort abort:agent/pre-step op')).toBe(true)
    const turns = entries.flatMap((e) => (e.k === 'append' && e.type === 'turn/end' ? [JSON.stringify(e.data)] : []))
    expect(turns).toEqual(['{"turn":1,"reason":{"kind":"aborted","reason":{"kind":"user"}}}', '{"turn":2,"reason":{"kind":"completed"}}'])
    // A maintenance task observes its own signal's abort too.
    const maintenance = await run({ v: 1, actors: [{ id: 'a1', ops: [build.create('s1'), build.runMaintenance('s1', 2, { onAbort: build.act(build.inject('s1')) })] }, { id: 'a2', ops: [build.pause(), build.pause(), build.pause(), build.cancel('s1')] }] }, 5)
    const maintenanceOrder = maintenance.flatMap((e) => (e.k === 'invoke' ? [e.what] : []))
    expect(maintenanceOrder).toContain('inject(s1) from a1:runMaintenance(s1):abort')
  })

  it('validation names a filter the event never carries, an unknown field, a bad nth and an abort observer that is not an operation', () => {
    const bad = (l: unknown, pattern: RegExp): void => { expect(() => validateProgram({ v: 1, actors: one(build.create('s1')), env: { listeners: [l] } })).toThrow(pattern) }
    bad({ event: 'agent/created', action: noop, where: { status: 'idle' } }, /listeners\[0\]\.where\.status: agent\/created never carries a status/)
    bad({ event: 'agent/status', action: noop, where: { colour: 'red' } }, /where\.colour: unknown filter field/)
    bad({ event: 'agent/status', action: noop, where: { status: 'busy' } }, /where\.status: expected one of "idle"\|"running"/)
    bad({ event: 'session/event', action: noop, where: { turn: -1 } }, /where\.turn: expected an integer >= 0/)
    bad({ event: 'agent/status', action: noop, nth: 0 }, /listeners\[0\]\.nth: expected an integer >= 1/)
    bad({ event: 'agent/created', action: noop, onAbort: noop }, /onAbort: only a listener on agent\/pre-step or agent\/turn-stopping/)
    bad({ event: 'agent/pre-step', action: noop, onAbort: { do: 'throw' } }, /onAbort: an abort observer performs an operation/)
    expect(() => validateProgram({ v: 1, actors: one({ op: 'runMaintenance', session: 's1', onAbort: { do: 'slow' } } as never) })).toThrow(ProgramError)
    validateProgram({ v: 1, actors: one(build.create('s1')), env: { listeners: [{ event: 'agent/turn-stopping', action: noop, where: { turn: 1, pending: false }, nth: 2, times: 2, onAbort: noop }] } })
  })

  it('programs with targeting print as builder code that evaluates back to them', () => {
    const p = build.program([build.actor('a1', build.create('s1'), build.runMaintenance('s1', undefined, { onAbort: build.act(build.cancel('s1')) }))], {
      listeners: [build.on('agent/pre-step', build.SLOW, { session: 's1', where: { step: 1 }, nth: 2, onAbort: build.act(build.dispose('s1')) })],
    })
    const code = printProgram(p)
    expect(code).toContain("runMaintenance('s1', undefined, { onAbort: act(cancel('s1')) })")
    expect(code).toContain("on('agent/pre-step', SLOW, { session: 's1', where: { step: 1 }, nth: 2, onAbort: act(dispose('s1')) })")
    const names = Object.keys(build)
    expect(new Function(...names, `return ${code}`)(...names.map((n) => (build as Record<string, unknown>)[n]))).toEqual(p)
  })
})
