/**
 * Runs a fixed 3-actor program (two same-id creates with async setup, an owner unload, a cancel)
 * under `random` for seeds 0..n-1 and prints one combined hash. The determinism test runs it in a
 * second process (`node dist/sim/determinism-probe.js 1000`) and compares with its own result.
 * @module
 */
import { createHash } from 'node:crypto'
import { pathToFileURL } from 'node:url'
import type { Program } from './program/program.js'
import { runProgram } from './run.js'
import { random } from './strategies/random.js'

/** The program of the determinism check. */
export const PROBE_PROGRAM: Program = {
  v: 1,
  name: 'determinism probe',
  actors: [
    { id: 'a1', ops: [{ op: 'create', session: 's1', setup: { steps: 2 } }, { op: 'followup', session: 's1' }, { op: 'cancel', session: 's1' }] },
    { id: 'a2', ops: [{ op: 'create', session: 's1', setup: { steps: 2 } }, { op: 'cancel', session: 's1', keepInbox: true }] },
    { id: 'a3', ops: [{ op: 'unloadOwner', owner: 'a1' }] },
  ],
}

/** The trace hashes of seeds `0..n-1`, and their combined hash. */
export async function probeHashes(n: number): Promise<{ hashes: string[]; combined: string }> {
  const hashes: string[] = []
  for (let seed = 0; seed < n; seed++) {
    const strategy = random({ seed })
    strategy.beginRun()
    hashes.push((await runProgram(PROBE_PROGRAM, strategy)).hash)
  }
  return { hashes, combined: createHash('sha256').update(hashes.join('\n')).digest('hex').slice(0, 16) }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const n = Number(process.argv[2] ?? 1000)
  probeHashes(n).then(({ combined }) => console.log(combined))
}
