/**
 * The world's abort listeners on the code under test's signals end with the run. Node keeps an
 * `AbortSignal.any()` signal that has an abort listener, and all that listener reaches, for as long
 * as it has not aborted: a signal of a run that ended mid-wait never aborts, so a listener the world
 * left on it would keep the whole world alive in a process that runs thousands of runs.
 */
import { getEventListeners } from 'node:events'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { Program } from '../program/program.js'
import { runProgram } from '../run.js'
import { random } from '../strategies/index.js'

/** A turn whose model call hangs, and a resume whose load hangs: the run ends with both still waiting. */
const hanging: Program = {
  v: 1,
  actors: [
    { id: 'a1', ops: [{ op: 'create', session: 's1' }, { op: 'followup', session: 's1' }] },
    { id: 'a2', ops: [{ op: 'resume', session: 's2' }] },
  ],
  env: { model: { s1: [{ reply: 'hang' }] }, loads: { s2: { load: 'hang' } } },
}

/** The file that called `addEventListener` (the first frame past this test and the spy). */
function caller(): string {
  const frames = (new Error().stack ?? '').split('\n').slice(1)
  return frames.find((f) => !f.includes('abort-listeners.test') && !f.includes('node_modules') && !f.includes('node:')) ?? ''
}

afterEach(() => {
  vi.restoreAllMocks()
})

describe('the world\'s abort listeners', () => {
  it('are removed when the run ends, from the signals of waits that never ended', async () => {
    const warnings: string[] = []
    const warned = (w: Error): void => { warnings.push(w.message) }
    process.on('warning', warned)
    const added: { signal: AbortSignal; listener: unknown; world: boolean }[] = []
    const add = EventTarget.prototype.addEventListener
    vi.spyOn(AbortSignal.prototype, 'addEventListener').mockImplementation(function (this: AbortSignal, type: string, listener: any, options?: any) {
      if (type === 'abort') added.push({ signal: this, listener, world: /[\\/]sim[\\/]world[\\/]/.test(caller()) })
      return add.call(this, type, listener, options)
    })
    const strategy = random({ seed: 1 })
    strategy.beginRun()
    const result = await runProgram(hanging, strategy)
    vi.restoreAllMocks()
    const hangs = (result.trace.facts ?? []).flatMap((f) => (f.k === 'hang' && f.n === 1 ? [f.note] : []))
    expect(hangs.sort()).toEqual(['load:s2:hang', 'model:s1:hang'])
    // The world listened to signals the run left unaborted (the hung model call's, the hung load's)...
    const unaborted = added.filter(({ signal, world }) => world && !signal.aborted)
    expect(unaborted.length).toBeGreaterThanOrEqual(2)
    // ...and none of its listeners is left on them.
    expect(unaborted.filter(({ signal, listener }) => getEventListeners(signal, 'abort').includes(listener as never))).toEqual([])
    process.off('warning', warned)
    expect(warnings).toEqual([])
  })

  it('take any number of waits in one run without a warning (each holds a listener on the run\'s lifetime)', async () => {
    const warnings: string[] = []
    const warned = (w: Error): void => { warnings.push(w.message) }
    process.on('warning', warned)
    try {
      // Twelve sessions whose model calls hang: twelve waits, each heard through the run's lifetime.
      const ids = Array.from({ length: 12 }, (_, i) => `s${i + 1}`)
      const many: Program = {
        v: 1,
        actors: ids.map((id, i) => ({ id: `a${i + 1}`, ops: [{ op: 'create' as const, session: id }, { op: 'followup' as const, session: id }] })),
        env: { model: Object.fromEntries(ids.map((id) => [id, [{ reply: 'hang' as const }]])) },
      }
      const strategy = random({ seed: 2 })
      strategy.beginRun()
      const result = await runProgram(many, strategy)
      expect((result.trace.facts ?? []).filter((f) => f.k === 'hang' && f.n === 1)).toHaveLength(12)
      // A warning is emitted on the next tick.
      await new Promise((resolve) => setImmediate(resolve))
      expect(warnings).toEqual([])
    } finally {
      process.off('warning', warned)
    }
  })
})
