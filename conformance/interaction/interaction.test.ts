import { describe, expect, it } from 'vitest'
import { act, actor, create, dispose, followup, on, program, runMaintenance, steer, unloadOwner, cancel } from '../../sim/program/build.js'
import { OPERATION_KINDS, validateProgram } from '../../sim/program/program.js'
import { runProgram } from '../../sim/run.js'
import { checkRun } from '../checkers/index.js'
import { normalizeAdapter } from '../adapters/adapter.js'
import f00 from '../mutants/from-scratch/f00-turn-after-dispose-began.js'
import { canonicalKey } from './canonical.js'
import { ACTIONS, FACTOR_VALUES, FACTORS, inScope, interactionKey, interactionsOf, NON_LIFECYCLE_OPERATIONS, TRIGGERS } from './features.js'
import { actionOperation, DRIVES, interactionProgram, variantName, variantsOf } from './programs.js'
import { probeSituations } from './probe.js'
import { interactionSchedules } from './schedules.js'
import { actionAllowed, combinationCodesOf, combinationsOf, InteractionCoverage, interactionScope, STUB_ACTIONS } from './scope.js'
import { interactionSuite } from './suite.js'
import { VARIANT_TABLE } from './variants.js'

/** Every interaction (by key) of `p` over the mode's schedules on the reference, and the runs. */
async function exercised(p: ReturnType<typeof program>): Promise<Set<string>> {
  const out = new Set<string>()
  for (const s of interactionSchedules()) for (const i of interactionsOf((await runProgram(p, s)).trace)) out.add(interactionKey(i))
  return out
}

describe('interaction features', () => {
  it('reads a turn/end observer\'s dispose with a followup pending from the trace, and each actor operation with its target\'s situation', async () => {
    const p = program([actor('a1', create('s1'), followup('s1', 'one'), followup('s1', 'two'))], {
      listeners: [on('session/event', act(dispose('s1')), { session: 's1', eventType: 'turn/end' })],
    })
    const keys = await exercised(p)
    // The first turn closed with the second followup pending (some schedules), or already claimed (others).
    expect(keys).toContain('session/event:turn/end|op:dispose|running|yes|live')
    expect(keys).toContain('session/event:turn/end|op:dispose|running|no|live')
    expect(keys).toContain('actor|op:create|absent|no|none')
    expect([...keys].filter((k) => k.startsWith('actor|op:followup|')).length).toBeGreaterThan(1)
    for (const k of keys) expect(k.split('|')).toHaveLength(5)
  })

  it('names an abort observer\'s trigger, a listener\'s plain action and a teardown stage', async () => {
    const p = program([actor('a1', create('s1'), runMaintenance('s1', 2, { onAbort: act(steer('s1')) })), actor('a3', dispose('s1'))], {
      listeners: [on('agent/disposed', { do: 'throw' }, { session: 's1' })],
    })
    const keys = await exercised(p)
    expect([...keys].some((k) => k.startsWith('abort:maintenance|op:steer|'))).toBe(true)
    expect(keys).toContain('agent/disposed|throw|absent|no|agent-gone')
    expect([...keys].some((k) => k.startsWith('actor|op:dispose|') && k.endsWith('|live'))).toBe(true)
  })

  it('a trigger or action outside the values the scope lists is not in scope', () => {
    expect(inScope({ trigger: 'session/event:agent/inbox/spliced:other', action: 'throw', phase: 'idle', pending: 'no', stage: 'live' })).toBe(false)
    expect(inScope({ trigger: 'agent/created', action: 'op:dispose', phase: 'idle', pending: 'no', stage: 'agent' })).toBe(true)
    expect(FACTORS.map((f) => FACTOR_VALUES[f].length)).toEqual([TRIGGERS.length, ACTIONS.length, 5, 2, 8])
  })
})

describe('canonical programs', () => {
  it('are equal up to id renaming and actor order, and differ otherwise', () => {
    const a = program([actor('a1', create('s1'), followup('s1')), actor('a2', unloadOwner('a1'))], { listeners: [on('agent/created', act(cancel('s1')), { session: 's1' })] })
    const b = program([actor('x', unloadOwner('y')), actor('y', create('q'), followup('q'))], { listeners: [on('agent/created', act(cancel('q')), { session: 'q' })] })
    expect(canonicalKey(b)).toBe(canonicalKey(a))
    const c = program([actor('a1', create('s1'), followup('s1')), actor('a2', unloadOwner('a2'))], { listeners: [on('agent/created', act(cancel('s1')), { session: 's1' })] })
    expect(canonicalKey(c)).not.toBe(canonicalKey(a))
  })
})

describe('the interaction scope', () => {
  const scope = interactionScope()

  it('counts the feasible combinations as the projections of the feasible interactions', () => {
    expect(scope.triggers).not.toContain('session/flush') // no operation of the language requests a flush
    // Each trigger's situations times its allowed actions, but a stub action's only situation is its fresh stub's.
    const onSession = scope.actions.filter((a) => !STUB_ACTIONS.includes(a))
    expect(scope.feasible.size).toBe(scope.triggers.reduce((n, t) => n + VARIANT_TABLE[t]!.feasible.length * onSession.filter((a) => actionAllowed(t, a)).length + STUB_ACTIONS.length, 0))
    expect([...scope.feasible].filter((k) => k.split('|')[1] === 'op:announce').every((k) => k.endsWith('|op:announce|absent|no|none'))).toBe(true)
    const pairs = new Set([...scope.feasible].flatMap((k) => { const [trigger, action, phase, pending, stage] = k.split('|') as [string, string, string, string, string]; return combinationsOf({ trigger, action, phase, pending, stage }, 2) }))
    expect(scope.combinations(2)).toEqual(pairs)
    expect(combinationsOf({ trigger: 't', action: 'a', phase: 'p', pending: 'n', stage: 's' }, 3)).toHaveLength(10)
    expect(actionAllowed('actor', 'throw')).toBe(false)
    expect(actionAllowed('abort:maintenance', 'op:cancel')).toBe(true)
    expect(actionAllowed('agent/created', 'block')).toBe(true)
  })

  it('numbers each combination by a code of its own, the same wherever it comes from', () => {
    for (const t of [2, 3]) {
      const codes = scope.codes(t)
      // One code per feasible combination: no two share one.
      const names = new Set([...scope.feasible].flatMap((k) => { const [trigger, action, phase, pending, stage] = k.split('|') as [string, string, string, string, string]; return combinationsOf({ trigger, action, phase, pending, stage }, t) }))
      expect(new Set(codes.values())).toEqual(names)
      expect(codes.size).toBe(names.size)
      expect(scope.feasibleCodes(t)).toEqual(new Set(codes.keys()))
      expect(scope.feasibleCount(t)).toBe(codes.size)
      // A scope of fewer operation kinds: its masks and counts from its own interactions too.
      const narrow = interactionScope({ operations: ['create', 'dispose', 'followup'] })
      expect(narrow.feasibleCodes(t)).toEqual(new Set(narrow.codes(t).keys()))
      expect(narrow.feasibleCount(t)).toBe(narrow.codes(t).size)
      expect(narrow.feasibleCount(t)).toBeLessThan(codes.size)
      for (const key of [...scope.feasible].slice(0, 200)) {
        const [trigger, action, phase, pending, stage] = key.split('|') as [string, string, string, string, string]
        const i = { trigger, action, phase, pending, stage }
        expect(combinationCodesOf(i, t).map((c) => codes.get(c))).toEqual(combinationsOf(i, t))
      }
    }
    // A value outside the factor's values has no code; the other choices keep theirs.
    const codes = combinationCodesOf({ trigger: 'nobody', action: 'throw', phase: 'idle', pending: 'no', stage: 'live' }, 2)
    expect(codes.filter((c) => c < 0)).toHaveLength(4)
    expect(codes.filter((c) => c >= 0)).toHaveLength(6)
  })

  it('a coverage counts each feasible combination once, and only feasible ones', () => {
    const coverage = new InteractionCoverage(scope)
    const key = 'session/event:turn/end|op:dispose|running|yes|live'
    expect(scope.feasible.has(key)).toBe(true)
    expect(coverage.add([key])).toBe(20)
    expect(coverage.add([key])).toBe(0)
    expect(coverage.covered(2)).toBe(10)
    // An actor never throws: the full interaction is infeasible, but its feasible pairs still count.
    coverage.add(['actor|throw|idle|no|live'])
    expect(coverage.uncovered(2)).not.toContain('trigger=actor&action=throw')
    expect(coverage.levels().map((l) => l.t)).toEqual([2, 3])
    expect(coverage.levels()[0]!.total).toBe(scope.combinations(2).size)
  })

  it('leaves the actions of operations an adapter cannot run out of its scope', () => {
    const noResume = interactionScope({ operations: OPERATION_KINDS.filter((k) => k !== 'resume' && k !== 'restart' && k !== 'crash') })
    expect(noResume.actions).not.toContain('op:resume')
    expect(noResume.combinations(2).size).toBeLessThan(scope.combinations(2).size)
  })
})

describe('the interaction suite', () => {
  const suite = interactionSuite()

  it('every operation kind of the language is an action a program can perform', () => {
    for (const kind of OPERATION_KINDS) if (!NON_LIFECYCLE_OPERATIONS.includes(kind)) expect(actionOperation(kind), kind).toBeDefined()
    expect(ACTIONS).not.toContain('op:openGate')
    expect(actionOperation('no-such-operation')).toBeUndefined()
  })

  it('is deterministic, each program valid and of its own class, every trigger paired with every action in round 0', () => {
    expect(interactionSuite({ operations: [...OPERATION_KINDS] }).entries.map((e) => e.program)).toEqual(suite.entries.map((e) => e.program))
    const keys = new Set(suite.entries.map((e) => canonicalKey(e.program)))
    expect(keys.size).toBe(suite.entries.length)
    for (const e of suite.entries) validateProgram(e.program)
    const scope = interactionScope()
    const round0 = new Set(suite.entries.filter((e) => e.round === 0).map((e) => `${e.trigger} ${e.action}`))
    for (const t of scope.triggers) for (const a of scope.actions) if (actionAllowed(t, a)) expect(round0.has(`${t} ${a}`), `${t} ${a}`).toBe(true)
    expect(suite.pairwise).toBeGreaterThan(round0.size - 1)
    expect(suite.pairwise).toBeLessThanOrEqual(suite.entries.length)
    // Teardowns first: the first programs dispose from every trigger.
    expect(suite.entries.slice(0, scope.triggers.length).every((e) => e.action === 'op:dispose')).toBe(true)
  })

  it('an adapter without resume gets no program that resumes', () => {
    const ops = OPERATION_KINDS.filter((k) => k !== 'resume' && k !== 'restart' && k !== 'crash')
    for (const e of interactionSuite({ operations: ops }).entries) expect(JSON.stringify(e.program)).not.toMatch(/"op":"(resume|restart|crash)"/)
  })

  it('finds f00\'s AGENT-TEARDOWN-TEST 107 among its first programs, with no program aimed at it', async () => {
    const adapter = normalizeAdapter(f00, 'f00')
    let found: { index: number; name: string } | undefined
    for (const [index, e] of suite.entries.slice(0, 16).entries()) {
      for (const s of interactionSchedules()) {
        const r = await runProgram(e.program, s, { process: adapter.processFactory })
        if (checkRun(e.program, r.trace, r.outcome).some((v) => v.key === 'AGENT-TEARDOWN-TEST 107')) found ??= { index, name: e.program.name! }
      }
      if (found) break
    }
    expect(found).toBeDefined()
    expect(found!.name).toMatch(/^interaction session\/event:turn\/end op:dispose /)
  }, 60_000)

  it('the variant table is current: probing a variant meets what the table says, and every variant it names exists', async () => {
    for (const [trigger, t] of Object.entries(VARIANT_TABLE)) {
      const names = new Set(variantsOf(trigger).map(variantName))
      for (const [name] of t.variants) expect(names.has(name), `${trigger}: ${name}`).toBe(true)
    }
    for (const trigger of ['session/event:turn/end', 'agent/created', 'actor']) {
      const [name, situations] = VARIANT_TABLE[trigger]!.variants[0]!
      const variant = variantsOf(trigger).find((v) => variantName(v) === name)!
      expect([...await probeSituations(trigger, variant)].sort(), `${trigger} ${name}: regenerate with node scripts/interaction-variants.mjs --write`).toEqual([...situations])
    }
    expect(DRIVES.every((d) => interactionProgram({ drive: d, trigger: 'agent/created', action: 'op:cancel', filter: {} }) !== undefined)).toBe(true)
  }, 60_000)
})
