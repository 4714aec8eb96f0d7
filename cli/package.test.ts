/**
 * The package as a consumer installs it: `npm pack`, install the tarball (and vitest) into a fresh
 * project, then the README's walkthrough through the installed package only: `init --from-example`
 * and a certify that passes at once (its badge written, the init-written vitest suite run), certify
 * an external adapter with `npx dsh-kit certify`, read a clause with `list --clause`, and run a
 * vitest file that uses `defineConformanceSuite`. The install prints no `npm warn`.
 * Skipped, saying why, only when the registry cannot be reached.
 */
import { execFile } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { beforeAll, describe, expect, it } from 'vitest'
import { KIT_ROOT } from './adapter-loader.js'

const exec = promisify(execFile)
const PACKAGE = JSON.parse(readFileSync(join(KIT_ROOT, 'package.json'), 'utf8')) as {
  name: string; version: string; scripts: Record<string, string>; exports: Record<string, string>; bin: Record<string, string>
  devDependencies: Record<string, string>
}

/**
 * The environment of a child npm: the user's npm configuration (registry, cache, certificates), but
 * none of the variables the `npm test` running us sets about this package and this directory.
 */
function cleanEnv(): NodeJS.ProcessEnv {
  const own = /^(npm_package_|npm_lifecycle_|npm_command$|npm_config_(local_prefix|call|yes)$|INIT_CWD$)/i
  return Object.fromEntries(Object.entries(process.env).filter(([k]) => !own.test(k)))
}

interface Run { code: number; out: string; timedOut: boolean }

async function run(command: string, args: string[], cwd: string, timeout = 180_000): Promise<Run> {
  try {
    const { stdout, stderr } = await exec(command, args, { cwd, env: cleanEnv(), timeout, maxBuffer: 64 * 1024 * 1024 })
    return { code: 0, out: `${stdout}${stderr}`, timedOut: false }
  } catch (error) {
    const e = error as { code?: number | string; killed?: boolean; stdout?: string; stderr?: string; message: string }
    return { code: typeof e.code === 'number' ? e.code : -1, out: `${e.stdout ?? ''}${e.stderr ?? ''}${e.stdout || e.stderr ? '' : e.message}`, timedOut: e.killed === true }
  }
}

const NETWORK = /E(NOTFOUND|AI_AGAIN|CONNREFUSED|CONNRESET|TIMEDOUT|NETUNREACH)|network|getaddrinfo/i

let tarball: string
let files: string[]

beforeAll(async () => {
  if (!existsSync(join(KIT_ROOT, 'dist', 'cli', 'main.js'))) throw new Error('dist/ is missing: run `npm run build` (npm test does) before this test')
  // `npm test` has just built dist/; packing without scripts does not rebuild it under the feet of
  // the tests running beside this one (prepack builds when a user packs or publishes).
  const dir = mkdtempSync(join(tmpdir(), 'dsh-pack-'))
  const packed = await run('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', dir], KIT_ROOT)
  expect(packed.code, packed.out).toBe(0)
  const [info] = JSON.parse(packed.out.slice(packed.out.indexOf('['))) as { filename: string; files: { path: string }[] }[]
  tarball = join(dir, info!.filename)
  files = info!.files.map((f) => f.path)
}, 120_000)

describe('the npm package', () => {
  it('ships the build, the docs and the CLI launcher, and no tests, test fixtures or benchmarks', () => {
    expect(files.filter((f) => /\.test\.[cm]?[jt]s$|\/fixtures\/|^scenarios\/regressions\/.*\.json$|^dist\/bench\//.test(f))).toEqual([])
    for (const f of ['docs/clauses.md', 'README.md', 'conformance/README.md', 'core/contract.ts', ...Object.values(PACKAGE.bin), ...Object.values(PACKAGE.exports)]) {
      expect(files, f).toContain(f.replace(/^\.\//, ''))
    }
  })

  it('has no install-time script (npm warns about them and a consumer has no TypeScript); packing builds', () => {
    for (const script of ['preinstall', 'install', 'postinstall', 'prepare']) expect(PACKAGE.scripts[script], script).toBeUndefined()
    expect(PACKAGE.scripts.prepack).toBe('npm run build')
  })

  it('installs without a warning and certifies an external adapter, with vitest too, through the installed package', async (context) => {
    const project = mkdtempSync(join(tmpdir(), 'dsh-consumer-'))
    writeFileSync(join(project, 'package.json'), `${JSON.stringify({ name: 'my-loop', version: '1.0.0', private: true, type: 'module' }, null, 2)}\n`)
    // Step 1 of the README: npm i -D dsh-lifecycle-kit (here the tarball), plus the kit's own vitest.
    // From the npm cache where it can (so it also runs offline once the cache is warm), one retry
    // at most where it cannot: an unreachable registry skips this test instead of stalling it.
    const install = await run('npm', [
      'install', '--save-dev', '--prefer-offline', '--no-audit', '--no-fund', '--fetch-retries=1', '--fetch-retry-mintimeout=2000', '--fetch-retry-maxtimeout=5000',
      tarball, `vitest@${PACKAGE.devDependencies.vitest}`,
    ], project, 240_000)
    if (install.code !== 0 && (install.timedOut || NETWORK.test(install.out))) {
      context.skip(`the npm registry is unreachable, so the consumer install cannot run: ${install.timedOut ? 'no answer within 240 s' : install.out.split('\n').find((l) => NETWORK.test(l))}`)
    }
    expect(install.code, install.out).toBe(0)
    expect(install.out.split('\n').filter((line) => /^npm warn/i.test(line))).toEqual([])

    // The CI-gate path of the README's first screen: init --from-example, then certify passes at once.
    const init = await run('npx', ['--no', 'dsh-kit', 'init', '--from-example'], project)
    expect(init.code, init.out).toBe(0)
    expect(init.out).toContain('wrote dsh-kit.adapter.mjs, dsh-kit.conformance.test.mjs, .github/workflows/dsh-kit.yml, and the example factory in dsh-kit-example/')
    const gate = await run('npx', ['--no', 'dsh-kit', 'certify', '--adapter', './dsh-kit.adapter.mjs', '--badge', 'dsh-kit.svg'], project)
    expect(gate.code, gate.out).toBe(0)
    expect(gate.out).toMatch(/^PASSED: \d+ clauses pass, 0 fail, 0 unchecked/m)
    expect(readFileSync(join(project, 'dsh-kit.svg'), 'utf8')).toMatch(new RegExp(`<title>dsh-kit ${PACKAGE.version}: (\\d+)/\\1</title>`))
    const suite = await run('npx', ['--no', 'vitest', 'run', 'dsh-kit.conformance.test.mjs', '-t', 'AGENT-FACTORY-SEAM 1:'], project)
    expect(suite.code, suite.out).toBe(0)
    // eslint-disable-next-line no-control-regex
    expect(suite.out.replace(/\u001b\[[0-9;]*m/g, '')).toMatch(/Tests +1 passed \| \d+ skipped/)

    // Step 2: an adapter module of their own, importing the kit by name.
    writeFileSync(join(project, 'my-factory.mjs'), `
      import { ReferenceFactory } from 'dsh-lifecycle-kit'
      // Stands in for a factory written from scratch: it only delegates, through the public seam.
      export class MyFactory {
        #inner
        constructor(pluginCtx) { this.#inner = new ReferenceFactory(pluginCtx) }
        createAgent(ownerCtx, options) { return this.#inner.createAgent(ownerCtx, options) }
        resume(ownerCtx, options) { return this.#inner.resume(ownerCtx, options) }
        shutdown() { return this.#inner.shutdown() }
      }
    `)
    writeFileSync(join(project, 'my-adapter.mjs'), `
      import { factoryAdapter } from 'dsh-lifecycle-kit/conformance'
      import { MyFactory } from './my-factory.mjs'
      export default factoryAdapter({ name: 'my-loop', version: '1.0.0' }, (pluginCtx) => {
        const factory = new MyFactory(pluginCtx)
        pluginCtx.effect(() => () => factory.shutdown(), 'my-loop.factory')
        return factory
      })
    `)

    // Steps 3 and 4: certify, and the report it prints (npx --no: never fetch a command from the registry).
    const certify = await run('npx', ['--no', 'dsh-kit', 'certify', '--adapter', './my-adapter.mjs', '--json', 'certificate.json', '--html', 'certificate.html'], project)
    expect(certify.code, certify.out).toBe(0)
    expect(certify.out).toMatch(/dsh-kit certify — suite \S+, adapter my-loop@1\.0\.0, profile quick/)
    expect(certify.out).toMatch(/^PASSED: \d+ clauses pass, 0 fail/m)
    const certificate = JSON.parse(readFileSync(join(project, 'certificate.json'), 'utf8')) as { passed: boolean; adapter: { name: string } }
    expect(certificate).toMatchObject({ passed: true, adapter: { name: 'my-loop' } })
    // The certificate page, written by the installed package: the verdict and a row per clause.
    const page = readFileSync(join(project, 'certificate.html'), 'utf8')
    expect(page).toMatch(/my-loop@1\.0\.0/)
    expect(page).toContain('AGENT-TEARDOWN-TEST 97')
    expect(page).toMatch(/PASSED/)

    // Step 5: read a clause from the installed package's reference.
    const clause = await run('npx', ['--no', 'dsh-kit', 'list', '--clause', 'AGENT-TEARDOWN-TEST 97'], project)
    expect(clause.code, clause.out).toBe(0)
    expect(clause.out).toContain('§5.3 Teardown order')
    expect(clause.out).toContain(`Every clause: ${join('node_modules', PACKAGE.name, 'docs', 'clauses.md')}#agent-teardown-test-97`)
    expect(existsSync(join(project, 'node_modules', PACKAGE.name, 'docs', 'clauses.md'))).toBe(true)

    // Step 6: rerun one clause.
    const one = await run('npx', ['--no', 'dsh-kit', 'certify', '--adapter', './my-adapter.mjs', '--only', 'AGENT-FACTORY-SEAM 1'], project)
    expect(one.code, one.out).toBe(0)
    expect(one.out).toMatch(/^PASSED: 1 clauses pass, 0 fail/m)

    // Step 7: a failure found by a simulated run, replayed from its run file.
    writeFileSync(join(project, 'leaky-adapter.mjs'), `
      import { ReferenceFactory } from 'dsh-lifecycle-kit'
      import { referenceAdapter } from 'dsh-lifecycle-kit/conformance'
      // Its teardown forgets the session: an orphan after a same-id rollback.
      class Leaky extends ReferenceFactory {
        async runTeardown(tx, trigger) { tx.detachSession = undefined; return super.runTeardown(tx, trigger) }
      }
      export default referenceAdapter({ name: 'leaky', version: '0.0.1' }, Leaky)
    `)
    const failing = await run('npx', ['--no', 'dsh-kit', 'certify', '--adapter', './leaky-adapter.mjs', '--only', 'AGENT-ATOMIC-TEST 65', '--fail-fast'], project)
    expect(failing.code, failing.out).toBe(1)
    const replay = /replay: npx (dsh-kit replay .*)$/m.exec(failing.out)
    expect(replay, failing.out).not.toBeNull()
    const again = await run('npx', ['--no', ...replay![1]!.split(' ')], project)
    expect(again.code, again.out).toBe(1)
    expect(again.out).toContain('reproduced: ')
    expect(again.out).toContain('AGENT-ATOMIC-TEST 65')

    // Step 8: the suite in vitest; -t keeps it to clauses checked by directed cases.
    writeFileSync(join(project, 'my-loop.conformance.test.ts'), `
      import { describe, it } from 'vitest'
      import { defineConformanceSuite } from 'dsh-lifecycle-kit/conformance'
      import adapter from './my-adapter.mjs'

      defineConformanceSuite(adapter, { describe, it, profile: 'quick' })
    `)
    const vitest = await run('npx', ['--no', 'vitest', 'run', 'my-loop.conformance.test.ts', '-t', 'AGENT-FACTORY-SEAM|X-SESSION', '--reporter=json', '--outputFile=vitest.json'], project)
    expect(vitest.code, vitest.out).toBe(0)
    const results = JSON.parse(readFileSync(join(project, 'vitest.json'), 'utf8')) as { testResults: { assertionResults: { title: string; status: string }[] }[] }
    const tests = results.testResults.flatMap((r) => r.assertionResults)
    const titles = (status: string): string[] => tests.filter((t) => t.status === status).map((t) => t.title)
    // Every clause is checked through the runtime's public surface, the sessions' (X-SESSION) too.
    expect(titles('passed')).toEqual([
      ...Array.from({ length: 8 }, (_, i) => expect.stringMatching(new RegExp(`^AGENT-FACTORY-SEAM ${i + 1}: `))),
      ...Array.from({ length: 7 }, (_, i) => expect.stringMatching(new RegExp(`^X-SESSION ${170 + i}: `))),
    ])
    expect(titles('skipped').filter((t) => /^(AGENT-FACTORY-SEAM|X-SESSION) /.test(t))).toEqual([])
    expect(titles('failed')).toEqual([])
  }, 420_000)
})
