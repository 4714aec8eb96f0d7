import { describe, expect, it } from 'vitest'
import type { Program } from './program.js'
import { validateProgram } from './program.js'
import { danglingReferences } from './references.js'
import { resolveReferences } from './resolve-references.js'
import {
  act, actor, announce, boundary, create, detach, dispose, enter, followup, on, program, register, resume, restart, setup, unloadOwner, whenIdle,
} from './build.js'
import { abortSignal, pause } from './build.js'
import { readRunFile } from '../trace/run-file.js'
import { runProgram } from '../run.js'
import { replay } from '../strategies/index.js'

function refusal(p: Program): string {
  try {
    validateProgram(p)
  } catch (error) {
    return (error as Error).message
  }
  return 'accepted'
}

describe('program validation: what a program names must exist in it', () => {
  it('refuses an owner, a session, a signal, a stub, a listener filter, an event type, a model or load key that nothing defines, naming the field', () => {
    expect(refusal(program([actor('a1', create('s1'), unloadOwner('a2'))])))
      .toBe('program.actors[0].ops[1].owner: no actor, creation or owner effect uses owner "a2" (owners: "a1")')
    expect(refusal(program([actor('a1', create('s1'), followup('s2'))])))
      .toBe('program.actors[0].ops[1].session: no operation creates, resumes, registers or enters session "s2" (sessions: "s1")')
    expect(refusal(program([actor('a1', create('s1', { parent: 's0' }))])))
      .toMatch(/^program\.actors\[0\]\.ops\[0\]\.parent: no operation creates/)
    expect(refusal(program([actor('a1', create('s1'), boundary('s1', whenIdle('s3')))])))
      .toMatch(/^program\.actors\[0\]\.ops\[1\]\.ops\[0\]\.session: no operation creates, resumes, registers or enters session "s3"/)
    expect(refusal(program([actor('a1', create('s1'), abortSignal('g1'))])))
      .toBe('program.actors[0].ops[1].signal: no create or resume carries signal "g1" (signals: none)')
    expect(refusal(program([actor('a1', register('x1'), announce('x1'))])))
      .toMatch(/^program\.actors\[0\]\.ops\[1\]\.session: no operation enters a stub under session "x1"/)
    expect(refusal(program([actor('a1', create('s1'))], { listeners: [on('agent/created', act(dispose('s1')), { session: 's9' })] })))
      .toMatch(/^program\.env\.listeners\[0\]\.session: no operation creates/)
    expect(refusal(program([actor('a1', create('s1'))], { listeners: [on('session/event', act(dispose('s1')), { eventType: 'turn/started' })] })))
      .toMatch(/^program\.env\.listeners\[0\]\.eventType: a session log never carries event type "turn\/started"/)
    expect(refusal(program([actor('a1', create('s1'))], { listeners: [on('agent/created', act(dispose('s1')), { eventType: 'turn/start' })] })))
      .toBe('program.env.listeners[0].eventType: only a session/event listener sees an appended event type; this one listens to agent/created')
    expect(refusal(program([actor('a1', create('s1', { setup: setup(0, { listeners: [on('agent/status', act(followup('s2')))] }) }))])))
      .toMatch(/^program\.actors\[0\]\.ops\[0\]\.setup\.listeners\[0\]\.action\.op\.session: no operation creates/)
    expect(refusal(program([actor('a1', create('s1'))], { model: { s2: [{ reply: 'hang' }] } })))
      .toMatch(/^program\.env\.model\.s2: no operation creates or resumes session "s2"/)
    expect(refusal(program([actor('a1', create('s1'))], { loads: { s1: { load: 'fail' } } })))
      .toMatch(/^program\.env\.loads\.s1: no operation resumes session "s1", so it is never loaded/)
  })

  it('accepts what is defined anywhere: inline creations, resumes and restarts, registered and entered stubs, actors, named owners and owner effects', () => {
    const accepted = [
      // an inline create (from a listener) defines the id for an actor's later send, and for the owner "inline"
      program([actor('a1', create('s1'), followup('s2'), unloadOwner('inline'))], { listeners: [on('agent/created', act(create('s2')), { session: 's1' })] }),
      // a resume (after a restart) defines the id; an actor's own name is an owner, so is an explicit one and an owner effect's
      program([actor('a1', create('s1'), restart(), resume('s1', { owner: 'o1' }), followup('s1'), unloadOwner('o1'), unloadOwner('a1'), unloadOwner('o2'))],
        { effects: [{ on: 'owner:o2', disposer: { do: 'slow' } }], loads: { s1: { load: 'slow', steps: 1 } }, model: { s1: [{ reply: 'text' }] } }),
      // a registered stub holds its id; announce and detach act on an entered one
      program([actor('a1', register('x1'), whenIdle('x1'), enter('y1'), announce('y1'), detach('y1', { stale: true }))]),
      // a signal a create carries; a parent created anywhere
      program([actor('a1', create('s1', { signal: 'g1' }), abortSignal('g1')), actor('a2', create('s2', { parent: 's1' }))]),
      program([actor('a1', pause())]),
    ]
    for (const p of accepted) expect(refusal(p), JSON.stringify(p)).toBe('accepted')
  })

  it('a run file is replayed as it ran: a saved program that names an owner nothing uses still reads and replays to its hash', async () => {
    const file = readRunFile('conformance/checkers/fixtures/reference-137-boundary-held-by-its-own-hanging-setup.json')
    expect(danglingReferences(file.program).map((d) => d.path)).toEqual(['.actors[0].ops[1].ops[1].owner'])
    const strategy = replay(file.decisions)
    strategy.beginRun()
    const result = await runProgram(file.program, strategy)
    expect(result.hash).toBe(file.hash)
    // The same program written anew is refused.
    expect(refusal(JSON.parse(JSON.stringify(file.program)))).toMatch(/ops\[1\]\.ops\[1\]\.owner: no actor, creation or owner effect uses owner "o2"/)
  })
})

describe('resolveReferences', () => {
  it('renames onto what exists, else drops: a send or a listener filter on an unknown id goes to a created one, an unload to an actor, an abort of no signal becomes a pause', () => {
    const p = program([actor('a1', create('s1'), followup('s2'), unloadOwner('o9'), abortSignal('g1'))], {
      listeners: [on('agent/created', act(dispose('s1')), { session: 's7' }), on('agent/created', act(abortSignal('g2')))],
    })
    expect(resolveReferences(p)).toEqual(program([actor('a1', create('s1'), followup('s1'), unloadOwner('a1'), pause())], { listeners: [on('agent/created', act(dispose('s1')), { session: 's1' })] }))
  })
})
