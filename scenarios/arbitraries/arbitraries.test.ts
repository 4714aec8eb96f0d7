import { deepStrictEqual } from 'node:assert/strict'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import type { Program } from '../../sim/program/program.js'
import { OPERATION_KINDS, parseProgram, validateProgram, validateProgramShape } from '../../sim/program/program.js'
import { resolveReferences } from '../../sim/program/resolve-references.js'
import { runProgram } from '../../sim/run.js'
import { random } from '../../sim/strategies/index.js'
import * as build from '../../sim/program/build.js'
import {
  ALL_COVERAGE_KEYS, classifyLog, coverageOf, listenerArbitrary, mergeCoverage, missingCoverage, operationArbitrary,
  persistedLogArbitrary, printProgram, programArbitrary, setupArbitrary,
} from './index.js'

/** Evaluate builder code printed by `printProgram` with the builder's exports in scope. */
function evaluate(code: string): Program {
  const names = Object.keys(build)
  return new Function(...names, `return ${code}`)(...names.map((n) => (build as Record<string, unknown>)[n])) as Program
}

describe('program arbitrary', () => {
  it('every generated program passes validateProgram (200 runs)', () => {
    fc.assert(fc.property(programArbitrary(), (p) => { validateProgram(p) }), { numRuns: 200, seed: 1 })
  })

  it('over 500 samples every coverage key is reached at least once, and no unknown key appears', () => {
    const total: Record<string, number> = {}
    for (const p of fc.sample(programArbitrary(), { numRuns: 500, seed: 42 })) mergeCoverage(total, coverageOf(p))
    expect(missingCoverage(total)).toEqual([])
    expect(Object.keys(total).filter((k) => !ALL_COVERAGE_KEYS.includes(k))).toEqual([])
  })

  it('the key list names every operation kind and every event-by-action listener', () => {
    for (const kind of OPERATION_KINDS) expect(ALL_COVERAGE_KEYS).toContain(`op:${kind}`)
    expect(ALL_COVERAGE_KEYS.filter((k) => /^listener:[a-z-]+\/[a-z/-]+:(throw|reject|slow|op)$/.test(k))).toHaveLength(14 * 4)
    expect(new Set(ALL_COVERAGE_KEYS).size).toBe(ALL_COVERAGE_KEYS.length)
  })

  it('the key list names the block action on every event and effect site, minting, mutate and remove', () => {
    expect(ALL_COVERAGE_KEYS.filter((k) => /^listener:[a-z-]+\/[a-z/-]+:block$/.test(k))).toHaveLength(14)
    for (const on of ['root', 'owner', 'setup']) expect(ALL_COVERAGE_KEYS).toContain(`effect:${on}:block`)
    for (const a of ['throw', 'reject', 'slow', 'op', 'block']) expect(ALL_COVERAGE_KEYS).toContain(`minting:${a}`)
    for (const k of ['minting:times', 'site:minting', 'input:mutate', 'remove:last', 'op:remove', 'op:register', 'op:crash', 'op:enter', 'op:announce', 'op:detach', 'detach:stale']) expect(ALL_COVERAGE_KEYS).toContain(k)
  })

  it('options restrict the generator: hangs:false never hangs; operations limits every kind, nested ones included', () => {
    const total: Record<string, number> = {}
    for (const p of fc.sample(programArbitrary({ hangs: false, operations: ['create', 'followup', 'dispose'] }), { numRuns: 300, seed: 3 })) {
      validateProgram(p)
      mergeCoverage(total, coverageOf(p))
    }
    expect(Object.keys(total).filter((k) => /hang/.test(k))).toEqual([])
    // (a pause stands in for an operation that named an id nothing creates: resolveReferences)
    expect(Object.keys(total).filter((k) => k.startsWith('op:') && k !== 'op:pause').sort()).toEqual(['op:create', 'op:dispose', 'op:followup'])
    expect(() => programArbitrary({ operations: ['explode' as never] })).toThrow(/unknown operation kind "explode"/)
  })

  it('ids come from the pools so operations collide', () => {
    fc.assert(fc.property(programArbitrary({ sessions: ['x'], owners: ['w'], signals: ['z'] }), (p) => {
      const text = JSON.stringify(p)
      for (const m of text.matchAll(/"(session|parent)":"([^"]*)"/g)) expect(m[2]).toBe('x')
      // (an unload of an owner nothing uses goes to one that exists: an actor's own)
      for (const m of text.matchAll(/"owner":"([^"]*)"/g)) expect(['w', ...p.actors.map((a) => a.id)]).toContain(m[1])
      for (const m of text.matchAll(/"signal":"([^"]*)"/g)) expect(m[1]).toBe('z')
    }), { numRuns: 100, seed: 5 })
  })

  it('the pieces compose on their own: operations, setups and listeners are each well formed inside a one-actor program, and valid once its names resolve', () => {
    fc.assert(fc.property(operationArbitrary(), setupArbitrary(), listenerArbitrary(), (op, setup, listener) => {
      const p = build.program([build.actor('a1', op, build.create('s1', { setup }))], { listeners: [listener] })
      validateProgramShape(p)
      validateProgram(resolveReferences(p))
    }), { numRuns: 200, seed: 7 })
  })

  it('generated programs run on the reference factory without a crash, uncontrolled async work or a livelock', async () => {
    const bad: string[] = []
    const samples = fc.sample(programArbitrary(), { numRuns: 150, seed: 11 })
    for (const [i, p] of samples.entries()) {
      const strategy = random({ seed: i })
      strategy.beginRun()
      const { outcome } = await runProgram(p, strategy)
      if (outcome.kind === 'crash' || outcome.kind === 'uncontrolled' || outcome.kind === 'livelock') bad.push(`${outcome.kind}:\n${printProgram(p)}`)
    }
    expect(bad).toEqual([])
  })
})

describe('coverageOf', () => {
  it('counts operations at every site and every behaviour of a hand-written program exactly', () => {
    const p = build.program([
      build.actor('a1', build.create('s1', { owner: 'o1', setup: build.setup(2, { rejectAt: 1, commitOp: build.followup('s1'), listeners: [build.on('agent/created', build.THROW)] }) }), build.cancel('s1', { keepInbox: true, cause: 'hook' })),
      build.actor('a2', build.create('s2', { parent: 's1' }), build.restart()),
    ], {
      listeners: [build.on('session/event', build.act(build.dispose('s1')), { eventType: 'turn/start', times: 2 })],
      effects: [{ on: 'root', disposer: build.SLOW }, { on: 'owner:o2', disposer: build.act(build.unloadFactory()) }],
      model: { s1: [{ reply: 'tool', op: build.steer('s1') }, { reply: 'hang' }] },
      loads: { s1: { load: 'slow', steps: 2 } },
      persisted: [{ id: 's1', events: [build.spliced('next-turn', 1, [])] }, { id: 's2', events: [] }],
    })
    expect(coverageOf(p)).toEqual({
      'actors:2': 1,
      'op:create': 2, 'op:cancel': 1, 'op:restart': 1, 'op:followup': 1, 'op:dispose': 1, 'op:unloadFactory': 1, 'op:steer': 1,
      'site:actor': 4, 'site:commit': 1, 'site:listener': 1, 'site:effect': 1, 'site:tool': 1,
      'create:setup': 1, 'create:owner': 1, 'create:parent': 1,
      'setup:async': 1, 'setup:rejectAt': 1, 'setup:commitOp': 1, 'setup:listeners': 1,
      'listener:agent/created:throw': 1, 'listener-site:setup': 1,
      'listener:session/event:op': 1, 'listener-site:env': 1, 'listener:event-type-filter': 1, 'listener:times': 1,
      'cancel:keepInbox': 1, 'cancel:cause:hook': 1,
      'effect:root:slow': 1, 'effect:owner:op': 1,
      'model:tool': 1, 'model:tool-op': 1, 'model:hang': 1,
      'load:slow': 1,
      'persisted:invalid-splice': 1, 'persisted:empty': 1,
    })
  })

  it('counts crash and the registry-split operations, from an actor and from a listener', () => {
    const p = build.program([
      build.actor('a1', build.enter('x1'), build.announce('x1'), build.detach('x1'), build.detach('x1', { stale: true }), build.crash()),
    ], { listeners: [build.on('agent/created', build.act(build.enter('y1')))] })
    expect(coverageOf(p)).toEqual({
      'actors:1': 1,
      'op:enter': 2, 'op:announce': 1, 'op:detach': 2, 'op:crash': 1, 'detach:stale': 1,
      'site:actor': 5, 'site:listener': 1,
      'listener:agent/created:op': 1, 'listener-site:env': 1,
    })
    expect(evaluate(printProgram(p))).toEqual(p)
    expect(printProgram(p)).toContain("enter('x1'), announce('x1'), detach('x1'), detach('x1', { stale: true }), crash()")
  })

  it('counts the block action, minting behaviours, mutate inputs, remove and register', () => {
    const p = build.program([
      build.actor('a1', build.create('s1'), build.followup('s1', undefined, { mutate: true }), build.remove('s1', 'last'), build.remove('s1'), build.register('s2')),
    ], {
      listeners: [build.on('agent/pre-step', build.BLOCK)],
      minting: [{ action: build.act(build.unloadOwner('o1')), times: 2 }],
    })
    expect(coverageOf(p)).toEqual({
      'actors:1': 1,
      'op:create': 1, 'op:followup': 1, 'op:remove': 2, 'op:register': 1, 'op:unloadOwner': 1,
      'site:actor': 5, 'site:minting': 1,
      'input:mutate': 1, 'remove:last': 1,
      'listener:agent/pre-step:block': 1, 'listener-site:env': 1,
      'minting:op': 1, 'minting:times': 1,
    })
    expect(evaluate(printProgram(p))).toEqual(p)
    expect(printProgram(p)).toContain("followup('s1', undefined, { mutate: true }), remove('s1', 'last'), remove('s1'), register('s2')")
  })

  it('classifyLog agrees with the reference inbox replay on every generated persisted log', async () => {
    const logs = fc.sample(persistedLogArbitrary(), { numRuns: 60, seed: 13 })
    const classes = new Set<string>()
    for (const events of logs) {
      const kind = classifyLog(events)
      classes.add(kind)
      const strategy = random({ seed: 0 })
      strategy.beginRun()
      const { trace } = await runProgram(build.program([build.actor('a1', build.resume('s1'))], { persisted: [{ id: 's1', events }] }), strategy)
      const outcome = trace.entries.find((e) => e.k === 'outcome')
      const rejected = outcome?.k === 'outcome' && /invalid persisted inbox splice/.test(outcome.detail)
      expect(rejected, `${kind}: ${JSON.stringify(events)}`).toBe(kind === 'invalid-splice')
      if (!rejected && outcome?.k === 'outcome') expect(outcome.status).toBe('ok')
    }
    expect([...classes].sort()).toEqual(['empty', 'invalid-splice', 'pending', 'turns'])
  })
})

describe('printProgram', () => {
  it('builder code evaluates back to the same program (100 runs)', () => {
    fc.assert(fc.property(programArbitrary(), (p) => { deepStrictEqual(evaluate(printProgram(p)), p) }), { numRuns: 100, seed: 17 })
  })

  it('compact JSON parses back to the same program, one actor per line (100 runs)', () => {
    fc.assert(fc.property(programArbitrary(), (p) => {
      const text = printProgram(p, { format: 'json' })
      deepStrictEqual(parseProgram(text), p)
      expect(text.split('\n')).toHaveLength(p.actors.length + 2)
    }), { numRuns: 100, seed: 19 })
  })

  it('prints a small program as readable builder calls', () => {
    const p = build.program([build.actor('a1', build.create('s1', { setup: build.setup(2, { effects: [{ disposer: build.SLOW }] }) }), build.cancel('s1', { keepInbox: true }))],
      { listeners: [build.on('agent/created', build.act(build.unloadOwner('o1')), { session: 's1' })], model: { s1: [{ reply: 'hang' }] } }, 'demo')
    expect(printProgram(p)).toBe([
      'program([',
      "  actor('a1', create('s1', { setup: setup(2, { effects: [{ disposer: SLOW }] }) }), cancel('s1', { keepInbox: true })),",
      '], {',
      '  listeners: [',
      "    on('agent/created', act(unloadOwner('o1')), { session: 's1' }),",
      '  ],',
      "  model: { s1: [{ reply: 'hang' }] },",
      "}, 'demo')",
    ].join('\n'))
  })
})
