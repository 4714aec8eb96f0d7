/**
 * `fuzz --checkpoint <file>`: read a campaign's checkpoint to resume from, and write it as the
 * campaign goes (at most every two seconds, and once at the end), atomically (a temporary file
 * renamed over the old one), so an interrupted campaign leaves a whole checkpoint behind.
 * @module
 */
import { existsSync, readFileSync, renameSync } from 'node:fs'
import type { CampaignCheckpoint } from '../scenarios/campaign/campaign.js'
import { InputError } from './errors.js'
import { writableFile, writeOutput } from './options.js'

/** Seconds between two writes of the checkpoint while the campaign runs. */
const EVERY_MS = 2_000

/** The checkpoint in `file` if there is one (an unreadable one is an input error naming it). */
export function readCheckpoint(file: string): CampaignCheckpoint | undefined {
  if (!existsSync(file)) return undefined
  try {
    const value = JSON.parse(readFileSync(file, 'utf8')) as CampaignCheckpoint
    if (value?.v !== 1 || typeof value.key !== 'string' || !Array.isArray(value.results) || !Array.isArray(value.failures)) throw new Error('not a dsh-kit campaign checkpoint')
    return value
  } catch (error) {
    throw new InputError(`--checkpoint ${file}: cannot resume from it (${(error as Error).message}); remove it to start afresh`)
  }
}

/** The campaign's `save` hook for `file`, and `flush` to write the last state when the campaign ends. */
export function checkpointWriter(file: string): { save: (state: CampaignCheckpoint) => void; flush: () => void } {
  const abs = writableFile('--checkpoint', file)
  let last = 0
  let pending: CampaignCheckpoint | undefined
  const write = (state: CampaignCheckpoint): void => {
    const temporary = `${abs}.${process.pid}.tmp`
    writeOutput('--checkpoint', temporary, `${JSON.stringify(state)}\n`)
    renameSync(temporary, abs)
    last = performance.now()
    pending = undefined
  }
  return {
    save: (state) => {
      pending = state
      if (performance.now() - last >= EVERY_MS) write(state)
    },
    flush: () => { if (pending) write(pending) },
  }
}
