/**
 * The example's regressions: programs that once violated a clause on it, run with `dsh-kit run`
 * through the built CLI as a user runs them. Each must pass on the example and still fail on the
 * gallery fixture that keeps the example as it stood (`conformance/mutants/from-scratch/`), so the
 * program keeps proving it reaches the bug.
 */
import { execFile } from 'node:child_process'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { describe, expect, it } from 'vitest'

const exec = promisify(execFile)
const HERE = dirname(fileURLToPath(import.meta.url))
const KIT_ROOT = join(HERE, '..', '..')
const CLI = join(KIT_ROOT, 'dist', 'cli', 'main.js')

async function run(program: string, adapter: string): Promise<{ code: number; stdout: string }> {
  const out = mkdtempSync(join(tmpdir(), 'dsh-scratch-run-'))
  return exec(process.execPath, [CLI, 'run', program, '--adapter', adapter, '--out', out], { cwd: KIT_ROOT, maxBuffer: 64 * 1024 * 1024 }).then(
    ({ stdout }) => ({ code: 0, stdout }),
    (error: { code: number; stdout: string }) => ({ code: error.code, stdout: error.stdout }),
  )
}

const REGRESSIONS = [
  {
    program: 'examples/from-scratch-factory/regressions/turn-after-dispose.mjs',
    clause: 'AGENT-TEARDOWN-TEST 107',
    fixture: 'conformance/mutants/from-scratch/f00-turn-after-dispose-began.ts',
  },
]

describe('examples/from-scratch-factory regressions (dsh-kit run, built CLI)', () => {
  for (const { program, clause, fixture } of REGRESSIONS) {
    it(`${program} passes on the example`, async () => {
      const result = await run(program, 'examples/from-scratch-factory/adapter.ts')
      expect(result.stdout).toContain('PASSED: no violation in 100 runs')
      expect(result.code, result.stdout).toBe(0)
    }, 60_000)

    it(`${program} still violates ${clause} on the example as it stood (${fixture})`, async () => {
      const result = await run(program, fixture)
      expect(result.stdout).toContain(`${clause} violated`)
      expect(result.code, result.stdout).toBe(1)
    }, 60_000)
  }
})
