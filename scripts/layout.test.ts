/**
 * The layout holds (README "Layout"): no import circle, no import pointing up a layer
 * (core <- sim <- conformance <- scenarios <- report <- cli), checked by dependency-cruiser with the
 * rules of `.dependency-cruiser.cjs`; and no source file outside `conformance/cases/` over 500
 * lines unless its opening comment says why.
 */
import { execFile } from 'node:child_process'
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { describe, expect, it } from 'vitest'

const exec = promisify(execFile)
const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..')
const DEPCRUISE = join(ROOT, 'node_modules', '.bin', 'depcruise')
const CONFIG = join(ROOT, '.dependency-cruiser.cjs')
const FOLDERS = ['core', 'sim', 'conformance', 'scenarios', 'report', 'cli', 'bench', 'examples']

/** Run dependency-cruiser over `folders` of `cwd`; its exit code is the number of errors. */
async function cruise(cwd: string, folders: readonly string[]): Promise<{ code: number; out: string }> {
  return exec(DEPCRUISE, ['--config', CONFIG, '--output-type', 'err', ...folders], { cwd, maxBuffer: 16 * 1024 * 1024 }).then(
    ({ stdout }) => ({ code: 0, out: stdout }),
    (error: { code: number; stdout: string; stderr: string }) => ({ code: error.code, out: `${error.stdout}${error.stderr}` }),
  )
}

describe('the import graph', () => {
  it('has no circle and no import pointing up a layer', async () => {
    const { code, out } = await cruise(ROOT, FOLDERS)
    expect(out).toContain('no dependency violations found')
    expect(code).toBe(0)
  }, 120_000)

  it('the rules catch a circle and an upward import (a tree built to break them)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'dsh-layout-'))
    const file = (path: string, text: string): void => {
      mkdirSync(dirname(join(dir, path)), { recursive: true })
      writeFileSync(join(dir, path), text)
    }
    file('sim/a.ts', "import { b } from './b.js'\nexport const a = (): number => b\n")
    file('sim/b.ts', "import type { c } from '../report/c.js'\nimport { a } from './a.js'\nexport const b = 1 as typeof c\nexport const d = a\n")
    file('report/c.ts', 'export const c = 2\n')
    const { code, out } = await cruise(dir, ['sim', 'report'])
    expect(out).toMatch(/no-circular: sim\/(a|b)\.ts/)
    expect(out).toContain('sim-imports-no-layer-above: sim/b.ts → report/c.ts')
    expect(code).toBeGreaterThan(0)
  }, 120_000)
})

describe('file size', () => {
  it('no source file outside conformance/cases/ is over 500 lines unless its opening comment says why', async () => {
    const { stdout } = await exec('git', ['ls-files', '*.ts', '*.mjs', '*.js'], { cwd: ROOT, maxBuffer: 16 * 1024 * 1024 })
    const long = stdout.split('\n').filter((f) => f !== '' && !f.startsWith('conformance/cases/')).flatMap((f) => {
      const text = readFileSync(join(ROOT, f), 'utf8')
      const lines = text.split('\n').length - (text.endsWith('\n') ? 1 : 0)
      if (lines <= 500) return []
      const opening = /^\s*\/\*\*?[\s\S]*?\*\//.exec(text)?.[0] ?? ''
      return /Longer than 500 lines because/.test(opening) ? [] : [`${f} (${lines} lines)`]
    })
    expect(long, 'files over 500 lines whose opening comment does not say "Longer than 500 lines because …"').toEqual([])
  })
})
