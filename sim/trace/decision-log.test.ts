import { describe, expect, it } from 'vitest'
import {
  DecisionLogError,
  DecisionRecorder,
  describeDecision,
  formatDecisionLog,
  parseDecisionLog,
  validateDecisionLog,
  type DecisionLog,
} from './decision-log.js'

const sample = (): DecisionLog => {
  const r = new DecisionRecorder()
  r.pick('a1:create@setup.1')
  r.random(3, 2)
  r.time(30)
  r.pick('timer@30')
  return r.toLog('pct d=3 seed=42 run=0', '42')
}

describe('DecisionRecorder', () => {
  it('records decisions in order into a versioned log', () => {
    const log = sample()
    expect(log).toEqual({
      v: 1,
      strategy: 'pct d=3 seed=42 run=0',
      seed: '42',
      decisions: [
        { kind: 'pick', label: 'a1:create@setup.1' },
        { kind: 'random', n: 3, value: 2 },
        { kind: 'time', at: 30 },
        { kind: 'pick', label: 'timer@30' },
      ],
    })
  })

  it('hands out a log that later recording does not change', () => {
    const r = new DecisionRecorder()
    r.pick('x')
    const log = r.toLog('random seed=1')
    r.pick('y')
    expect(log.decisions).toHaveLength(1)
    expect(r.length).toBe(2)
    expect('seed' in log).toBe(false)
  })
})

describe('formatDecisionLog / parseDecisionLog', () => {
  it('round-trips, one decision per line', () => {
    const log = sample()
    const text = formatDecisionLog(log)
    expect(parseDecisionLog(text)).toEqual(log)
    expect(text).toMatchInlineSnapshot(`
      "{
        "v": 1,
        "strategy": "pct d=3 seed=42 run=0",
        "seed": "42",
        "decisions": [
          {"kind":"pick","label":"a1:create@setup.1"},
          {"kind":"random","n":3,"value":2},
          {"kind":"time","at":30},
          {"kind":"pick","label":"timer@30"}
        ]
      }
      "
    `)
  })

  it('round-trips an empty log without a seed', () => {
    const log: DecisionLog = { v: 1, strategy: 'dfs', decisions: [] }
    expect(parseDecisionLog(formatDecisionLog(log))).toEqual(log)
  })

  it('refuses text that is not JSON', () => {
    expect(() => parseDecisionLog('{ v: 1')).toThrow(DecisionLogError)
    expect(() => parseDecisionLog('{ v: 1')).toThrow('not valid JSON')
  })
})

describe('validateDecisionLog', () => {
  const base = { v: 1, strategy: 's', decisions: [] as unknown[] }
  const withDecision = (d: unknown) => ({ ...base, decisions: [{ kind: 'pick', label: 'ok' }, d] })

  it.each([
    ['a non-object', 42, 'the log must be an object, got 42'],
    ['another version', { ...base, v: 2 }, 'v must be 1 (the only version this kit reads), got 2'],
    ['a missing strategy', { v: 1, decisions: [] }, 'strategy must be a string, got nothing'],
    ['a numeric seed', { ...base, seed: 42 }, 'seed must be a string when present, got 42'],
    ['decisions not an array', { ...base, decisions: {} }, 'decisions must be an array, got {}'],
    ['an unknown top-level field', { ...base, decision: [] }, 'the log has an unknown field "decision"'],
    ['an unknown kind', withDecision({ kind: 'wait' }), 'decisions[1].kind must be "pick", "random" or "time", got "wait"'],
    ['an empty label', withDecision({ kind: 'pick', label: '' }), 'decisions[1].label must be a non-empty string, got ""'],
    ['a misspelt field', withDecision({ kind: 'pick', lable: 'x' }), 'decisions[1] has an unknown field "lable"'],
    ['a random n of 0', withDecision({ kind: 'random', n: 0, value: 0 }), 'decisions[1].n must be an integer >= 1, got 0'],
    ['a random value out of range', withDecision({ kind: 'random', n: 3, value: 3 }), 'decisions[1].value must be an integer in [0, 3), got 3'],
    ['a non-finite time', withDecision({ kind: 'time', at: null }), 'decisions[1].at must be a finite number of ms, got null'],
  ])('refuses %s, naming the field', (_what, value, message) => {
    expect(() => validateDecisionLog(value)).toThrow(DecisionLogError)
    expect(() => validateDecisionLog(value)).toThrow(`decision log: ${message}`)
  })

  it('accepts a valid log and returns it typed', () => {
    expect(validateDecisionLog(JSON.parse(JSON.stringify(sample())))).toEqual(sample())
  })
})

describe('describeDecision', () => {
  it('prints each kind compactly', () => {
    expect(sample().decisions.map(describeDecision)).toEqual(['"a1:create@setup.1"', 'random(3)=2', 'time@30', '"timer@30"'])
  })
})
