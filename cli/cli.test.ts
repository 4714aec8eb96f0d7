import { execFile } from 'node:child_process'
import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync, readdirSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { describe, expect, it } from 'vitest'
import { KIT_ROOT } from './adapter-loader.js'

const exec = promisify(execFile)
const CLI = join(KIT_ROOT, 'dist', 'cli', 'main.js')

async function dshKit(args: string[], cwd = KIT_ROOT): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await exec(process.execPath, [CLI, ...args], { cwd, maxBuffer: 64 * 1024 * 1024 })
    return { code: 0, stdout, stderr }
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string }
    return { code: e.code, stdout: e.stdout, stderr: e.stderr }
  }
}

/** A folder outside the repo whose node_modules holds this package, as `npm install` would. */
function outsideProject(): string {
  const dir = mkdtempSync(join(tmpdir(), 'dsh-adapter-'))
  mkdirSync(join(dir, 'node_modules'))
  symlinkSync(KIT_ROOT, join(dir, 'node_modules', 'dsh-lifecycle-kit'), 'dir')
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'my-loop', type: 'module', private: true }))
  return dir
}

describe('dsh-kit CLI', () => {
  it('certifies an adapter module written outside the repo that imports the package by name', async () => {
    const dir = outsideProject()
    writeFileSync(join(dir, 'adapter.mjs'), `
      import { ReferenceFactory } from 'dsh-lifecycle-kit'
      import { factoryAdapter } from 'dsh-lifecycle-kit/conformance'
      export default factoryAdapter({ name: 'my-loop', version: '1.2.3' }, (pluginCtx) => {
        const factory = new ReferenceFactory(pluginCtx)
        pluginCtx.effect(() => () => factory.shutdown(), 'my-loop.factory')
        return factory
      })
    `)
    const run = await dshKit(['certify', '--adapter', join(dir, 'adapter.mjs'), '--out', join(dir, 'failures')], dir)
    expect(run.stdout).toContain('adapter my-loop@1.2.3')
    expect(run.stdout).toMatch(/PASSED: \d+ clauses pass, 0 fail/)
    expect(run.code).toBe(0)
  }, 120_000)

  it('explains what is wrong with an adapter module that does not load, has the wrong shape, or throws on install', async () => {
    const dir = outsideProject()
    writeFileSync(join(dir, 'broken.mjs'), `import { nothing } from './missing.mjs'\nexport default nothing`)
    writeFileSync(join(dir, 'shape.mjs'), `export default { name: 'x', version: '1' }`)
    writeFileSync(join(dir, 'throws.mjs'), `export default { name: 'x', version: '1', install() { throw new Error('no database') } }`)
    writeFileSync(join(dir, 'silent.mjs'), `export default { name: 'x', version: '1', install() { return { unload: async () => {} } } }`)
    const broken = await dshKit(['certify', '--adapter', join(dir, 'broken.mjs')], dir)
    expect(broken.code).toBe(78)
    expect(broken.stderr).toMatch(/cannot load adapter module .*broken\.mjs.*missing\.mjs/)
    const shape = await dshKit(['certify', '--adapter', join(dir, 'shape.mjs')], dir)
    expect(shape.code).toBe(78)
    expect(shape.stderr).toMatch(/"install" must be a function/)
    const throws = await dshKit(['certify', '--adapter', join(dir, 'throws.mjs')], dir)
    expect(throws.code).toBe(78)
    expect(throws.stderr).toMatch(/install\(world\) threw: no database/)
    const silent = await dshKit(['certify', '--adapter', join(dir, 'silent.mjs')], dir)
    expect(silent.code).toBe(78)
    expect(silent.stderr).toMatch(/without registering a factory/)
    const missing = await dshKit(['certify', '--adapter', join(dir, 'nope.mjs')], dir)
    expect(missing.code).toBe(78)
    expect(missing.stderr).toMatch(/no loadable file/)
  }, 60_000)

  it('rejects bad usage with the usage text', async () => {
    const run = await dshKit(['certify', '--profile', 'slow'])
    expect(run.code).toBe(64)
    expect(run.stderr).toMatch(/--profile must be quick or thorough/)
    expect((await dshKit(['frobnicate'])).stderr).toMatch(/unknown command "frobnicate"/)
  })

  it('lists every clause group', async () => {
    const run = await dshKit(['list'])
    expect(run.code).toBe(0)
    expect(run.stdout).toMatch(/AGENT-ATOMIC-TEST \(8\)/)
    expect(run.stdout).toMatch(/X-RUN \(3\)/)
  })

  it('a failing certification prints a replay command that reproduces the same violation', async () => {
    const dir = outsideProject()
    // A factory whose teardown forgets the session (catalog M24-like): orphan sessions.
    writeFileSync(join(dir, 'leaky.mjs'), `
      import { ReferenceFactory } from 'dsh-lifecycle-kit'
      import { referenceAdapter } from 'dsh-lifecycle-kit/conformance'
      class Leaky extends ReferenceFactory {
        async runTeardown(tx, trigger) { tx.detachSession = undefined; return super.runTeardown(tx, trigger) }
      }
      export default referenceAdapter({ name: 'leaky', version: '0' }, Leaky)
    `)
    const out = join(dir, 'failures')
    const run = await dshKit(['certify', '--adapter', join(dir, 'leaky.mjs'), '--out', out], dir)
    expect(run.code).toBe(1)
    // Every failure block ends with a command that reruns it; take the first simulated one.
    const blocks = run.stdout.split(/\n(?=\S+ \d+ violated:)/)
    const simulated = blocks.find((b) => /replay: npx dsh-kit replay /.test(b))
    expect(simulated, run.stdout).toBeDefined()
    for (const b of blocks.filter((x) => / violated:/.test(x))) expect(b).toMatch(/(replay|rerun): npx dsh-kit /)
    const clause = /^(\S+ \d+) violated/.exec(simulated!)![1]!
    const file = /replay: npx dsh-kit replay (\S+)/.exec(simulated!)![1]!
    const again = await dshKit(['replay', file], dir)
    expect(again.stdout).toContain(`reproduced: `)
    expect(again.stdout).toContain(clause)
    expect(again.code).toBe(1)
    expect(readdirSync(join(out, 'leaky')).length).toBeGreaterThan(0)
  }, 120_000)
})
