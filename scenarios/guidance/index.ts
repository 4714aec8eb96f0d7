/**
 * State-coverage guidance of a fuzz campaign: the abstract transitions a run went through (from its
 * trace), the corpus of programs that reached new ones, and the structural mutations a guided
 * campaign draws its programs with.
 * @module
 */
export { stateTransitions } from './state-coverage.js'
export { Corpus, MAX_CORPUS } from './corpus.js'
export type { CorpusEntry, GrowthPoint } from './corpus.js'
export { MUTATIONS, mutateProgram, operationSlots, REENTRANT_EVENTS } from './mutate.js'
export type { MutateOptions, MutationName } from './mutate.js'
export { drawGuided, FRESH_SHARE, GUIDANCE_LAG, GuidedDraw } from './guided-draw.js'
export type { DrawnProgram } from './guided-draw.js'
