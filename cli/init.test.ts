/**
 * `dsh-kit init` in a user's project, as a child process: it writes the adapter (naming the
 * project and the factory module to fill in), the vitest suite and the workflow (the same file as
 * `examples/ci/dsh-kit.yml`), prints what to do next, never overwrites without `--force`, and with
 * `--from-example` copies the example factory so that `certify --adapter ./dsh-kit.adapter.mjs`
 * passes at once. (The same from the packed tarball: `cli/package.test.ts`.)
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { KIT_ROOT } from './adapter-loader.js'
import { dshKit, outsideProject } from './child-cli.test-helper.js'
import { EXIT } from './exit-codes.js'
import { workflowTemplate } from './init-templates.js'

const FILES = ['dsh-kit.adapter.mjs', 'dsh-kit.conformance.test.mjs', '.github/workflows/dsh-kit.yml']

describe('dsh-kit init', () => {
  it('writes the adapter, the vitest suite and the workflow, prints the next steps, and overwrites nothing without --force', async () => {
    const dir = outsideProject('dsh-init-')
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'my-loop', version: '2.0.0', type: 'module' }))
    const init = await dshKit(['init'], { cwd: dir })
    expect(init.code, init.stderr).toBe(EXIT.ok)
    expect(init.stdout).toContain(`wrote ${FILES.join(', ')}`)
    expect(init.stdout).toContain('npx dsh-kit certify --adapter ./dsh-kit.adapter.mjs --write-baseline dsh-kit.baseline.json')
    for (const f of FILES) expect(existsSync(join(dir, f)), f).toBe(true)
    const adapter = readFileSync(join(dir, 'dsh-kit.adapter.mjs'), 'utf8')
    expect(adapter).toContain(`factoryAdapter({ name: "my-loop", version: "2.0.0" }, (pluginCtx) => {`)
    expect(adapter).toContain('// TODO: the module that exports your AgentFactory.')
    expect(readFileSync(join(dir, 'dsh-kit.conformance.test.mjs'), 'utf8')).toContain(`import adapter from './dsh-kit.adapter.mjs'\n\ndefineConformanceSuite(adapter, { describe, it, profile: 'quick' })`)
    // The workflow is the kit's CI example: certify with the baseline on every push, a nightly fuzz matrix merged.
    const workflow = readFileSync(join(dir, '.github/workflows/dsh-kit.yml'), 'utf8')
    expect(workflow).toBe(readFileSync(join(KIT_ROOT, 'examples', 'ci', 'dsh-kit.yml'), 'utf8'))
    expect(workflow).toBe(workflowTemplate())
    expect(workflow).toContain('npx dsh-kit certify --adapter "$ADAPTER" "${baseline[@]}"')
    expect(workflow).toMatch(/npx dsh-kit fuzz --adapter "\$ADAPTER" "\$\{baseline\[@\]\}" .*\n.*--shard/)
    expect(workflow).toContain('npx dsh-kit merge shards/shard-*/shard-*.json')
    // Without the adapter's factory module filled in, certify says which module is missing.
    const unfilled = await dshKit(['certify', '--adapter', './dsh-kit.adapter.mjs', '--only', '1'], { cwd: dir })
    expect(unfilled.code).toBe(EXIT.adapter)
    expect(unfilled.stderr).toMatch(/my-factory\.mjs/)

    writeFileSync(join(dir, 'dsh-kit.adapter.mjs'), '// mine\n')
    const again = await dshKit(['init'], { cwd: dir })
    expect(again.code).toBe(EXIT.output)
    expect(again.stderr).toContain(`dsh-kit: init: ${FILES.join(', ')} already exist in .; nothing was written (--force overwrites them)`)
    expect(readFileSync(join(dir, 'dsh-kit.adapter.mjs'), 'utf8')).toBe('// mine\n')
    const forced = await dshKit(['init', '--force'], { cwd: dir })
    expect(forced.code, forced.stderr).toBe(EXIT.ok)
    expect(forced.stdout).toContain(`(overwrote ${FILES.join(', ')})`)
    expect(readFileSync(join(dir, 'dsh-kit.adapter.mjs'), 'utf8')).toBe(adapter)
  }, 60_000)

  it('--from-example copies the example factory: certify --adapter ./dsh-kit.adapter.mjs passes at once', async () => {
    const project = outsideProject('dsh-init-example-')
    const init = await dshKit(['init', '--from-example'], { cwd: project })
    expect(init.code, init.stderr).toBe(EXIT.ok)
    expect(init.stdout).toContain('and the example factory in dsh-kit-example/')
    for (const f of ['factory.js', 'lifecycle.js', 'agent.js', 'driver.js', 'inbox.js', 'package.json']) expect(existsSync(join(project, 'dsh-kit-example', f)), f).toBe(true)
    expect(readFileSync(join(project, 'dsh-kit.adapter.mjs'), 'utf8')).toContain(`import { ScratchFactory } from './dsh-kit-example/factory.js'`)
    // A few clauses here (the whole certificate runs in the consumer test, from the packed tarball).
    const certify = await dshKit(['certify', '--adapter', './dsh-kit.adapter.mjs', '--only', 'AGENT-FACTORY-SEAM 1', '--only', 'AGENT-CREATE-RESUME 53', '--workers', '1'], { cwd: project })
    expect(certify.code, certify.stdout + certify.stderr).toBe(EXIT.ok)
    expect(certify.stdout).toMatch(/adapter from-scratch-factory@0\.1\.0/)
    expect(certify.stdout).toMatch(/^PASSED: 2 clauses pass, 0 fail, 0 unchecked/m)
  }, 120_000)
})
