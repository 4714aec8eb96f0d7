/**
 * The worked example certifies clean, through the built CLI as a user runs it, and stays an
 * independent implementation: it reaches the kit only through its public contract.
 */
import { execFile } from 'node:child_process'
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { describe, expect, it } from 'vitest'

const exec = promisify(execFile)
const HERE = dirname(fileURLToPath(import.meta.url))
const KIT_ROOT = join(HERE, '..', '..')
const CLI = join(KIT_ROOT, 'dist', 'cli', 'main.js')

/** What a loop implementer may take from the kit at run time: the contract's constants and a message helper. */
const PUBLIC_VALUES = new Set(['ERRORS', 'EVENT_NAMES', 'SESSION_FORMAT_VERSION', 'createUserMessage'])

describe('examples/from-scratch-factory', () => {
  it('certifies clean under the thorough profile (built CLI, child process)', async () => {
    const out = mkdtempSync(join(tmpdir(), 'dsh-scratch-'))
    const run = await exec(process.execPath, [
      CLI, 'certify', '--adapter', 'examples/from-scratch-factory/adapter.ts', '--profile', 'thorough', '--out', out,
    ], { cwd: KIT_ROOT, maxBuffer: 64 * 1024 * 1024 }).then(
      ({ stdout }) => ({ code: 0, stdout }),
      (error: { code: number; stdout: string }) => ({ code: error.code, stdout: error.stdout }),
    )
    expect(run.stdout).toContain('adapter from-scratch-factory@0.1.0')
    expect(run.stdout).toMatch(/PASSED: \d+ clauses pass, 0 fail/)
    expect(run.code, run.stdout).toBe(0)
  }, 600_000)

  it('imports only the contract, the public helpers, factoryAdapter and its own modules', () => {
    for (const file of readdirSync(HERE).filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'))) {
      const source = readFileSync(join(HERE, file), 'utf8')
      for (const [, typeOnly, names, from] of source.matchAll(/^import (type )?\{([^}]*)\} from '([^']+)'/gm)) {
        if (from!.startsWith('./') || from!.startsWith('node:')) continue
        if (from === 'dsh-lifecycle-kit/conformance') {
          expect(names!.trim(), `${file}: ${from}`).toBe('factoryAdapter')
          continue
        }
        expect(from, `${file} imports ${from}`).toBe('dsh-lifecycle-kit')
        if (typeOnly) continue
        for (const name of names!.split(',').map((n) => n.trim()).filter(Boolean)) {
          expect(PUBLIC_VALUES.has(name), `${file} imports ${name} from the kit at run time`).toBe(true)
        }
      }
      expect(source, `${file}: every import is a named import`).not.toMatch(/^import (?!type \{|\{)/m)
    }
  })
})
