import { describe, expect, it } from 'vitest'
import type { Program } from '../../sim/program/program.js'
import { drawForSeed } from '../campaign/draw.js'
import { Corpus } from './corpus.js'
import { drawGuided, GuidedDraw, GUIDANCE_LAG, LoadedPrograms, loadProgram, storeProgram } from './guided-draw.js'
import { mutantProgram } from './mutant.js'
import type { DrawnProgram, StoredProgram } from './guided-draw.js'
import { operationSlots } from './mutate.js'

const programs: Program[] = Array.from({ length: 40 }, (_, r) => drawForSeed(r, {}, []).program)

/** A guided corpus holding `programs`, each novel for one transition of its own. */
function corpusOf(list: readonly Program[]): Corpus<StoredProgram> {
  const corpus = new Corpus<StoredProgram>(true, undefined, (p) => p.size)
  list.forEach((p, r) => corpus.take(r, storeProgram(p), 1, [r + 1]))
  return corpus
}

describe('guided draw', () => {
  it('stores a program as bytes that load back as an equal program, undefined fields and shared objects included, with its size', () => {
    const shared = { do: 'throw' as const }
    const program = { ...programs[3]!, note: undefined, env: { listeners: [{ event: 'agent/status' as const, action: shared }, { event: 'agent/created' as const, action: shared }] } } as Program
    const stored = storeProgram(program)
    const back = loadProgram(stored.bytes)
    expect(back).toStrictEqual(program)
    expect('note' in back).toBe(true)
    expect(back.env!.listeners![0]!.action).toBe(back.env!.listeners![1]!.action)
    expect(stored.size).toBe(operationSlots(program).length)
  })

  it('decides a mutant in the feeding thread and makes the same program in any thread, its corpus programs loaded or not', () => {
    const corpus = corpusOf(programs)
    let mutants = 0
    for (let r = 100; r < 160; r++) {
      const drawn = drawGuided(r, corpus, [])
      if (drawn.origin !== 'mutant') continue
      mutants++
      // As a worker receives it: a structured clone of the unit.
      const posted = structuredClone(drawn) as Extract<DrawnProgram, { origin: 'mutant' }>
      const warm = new LoadedPrograms()
      for (const p of programs.keys()) warm.get({ r: p, bytes: storeProgram(programs[p]!).bytes })
      const a = mutantProgram(r, drawn, {})
      const b = mutantProgram(r, posted, {}, warm)
      expect(b).toStrictEqual(a)
      expect(a.name).toBe(`guided ${r} from ${drawn.parent.r}`)
      // Loaded programs serve again unchanged.
      expect(mutantProgram(r, posted, {}, warm)).toStrictEqual(a)
    }
    expect(mutants).toBeGreaterThan(30)
  })

  it('draws seeds 0 … GUIDANCE_LAG from the empty corpus and a later seed only once the ledger took the seed L+1 before it', () => {
    const corpus = corpusOf(programs)
    const draw = new GuidedDraw(corpus, [], (j) => 1000 + j, 100)
    expect(draw.programFor(GUIDANCE_LAG).origin).toBe('fresh')
    expect(() => draw.programFor(GUIDANCE_LAG + 1)).toThrow(/not drawn yet/)
    draw.taken(0)
    expect(draw.programFor(GUIDANCE_LAG + 1)).toStrictEqual(drawGuided(1000 + GUIDANCE_LAG + 1, corpusOf(programs), []))
  })
})
