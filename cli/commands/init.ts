/**
 * `dsh-kit init [--from-example] [--force] [--dir <path>]`: start a certification in a user's
 * project. It writes the adapter (`dsh-kit.adapter.mjs`), the vitest suite
 * (`dsh-kit.conformance.test.mjs`) and the CI workflow (`.github/workflows/dsh-kit.yml`), and with
 * `--from-example` copies the kit's example factory so that `certify` passes at once. It overwrites
 * nothing unless `--force` (then it writes nothing and names the files in the way), and prints what
 * to do next.
 * @module
 */
import { existsSync, readFileSync } from 'node:fs'
import { join, relative, resolve } from 'node:path'
import { KIT_ROOT } from '../adapter-loader.js'
import { InputError, OutputError } from '../errors.js'
import { EXIT } from '../exit-codes.js'
import { adapterTemplate, EXAMPLE_MODULES, INIT_FILES, suiteTemplate, workflowTemplate } from '../init-templates.js'
import { parseOptions, writeOutput } from '../options.js'

/** The project's name and version (its package.json), for the adapter's manifest. */
function projectOf(dir: string): { name: string; version: string } {
  try {
    const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { name?: unknown; version?: unknown }
    return { name: typeof pkg.name === 'string' ? pkg.name : 'my-loop', version: typeof pkg.version === 'string' ? pkg.version : '0.0.0' }
  } catch {
    return { name: 'my-loop', version: '0.0.0' }
  }
}

export function initCommand(args: string[]): number {
  const { values } = parseOptions('init', args, {
    'from-example': { type: 'boolean', default: false }, force: { type: 'boolean', default: false }, dir: { type: 'string' },
  })
  const dir = resolve(values.dir ?? '.')
  const fromExample = values['from-example']
  const files = new Map<string, string>([
    [INIT_FILES.adapter, adapterTemplate(projectOf(dir), fromExample)],
    [INIT_FILES.suite, suiteTemplate()],
    [INIT_FILES.workflow, workflowTemplate()],
  ])
  if (fromExample) {
    const source = join(KIT_ROOT, 'dist', 'examples', 'from-scratch-factory')
    for (const name of EXAMPLE_MODULES) {
      const path = join(source, name)
      if (!existsSync(path)) throw new InputError(`--from-example: the example factory's ${name} is missing from ${relative(process.cwd(), source) || source} (a kit built without its examples: npm run build)`)
      files.set(`${INIT_FILES.example}/${name}`, readFileSync(path, 'utf8'))
    }
    // The modules are ES modules named .js: their folder says so, whatever the project's own package.json says.
    files.set(`${INIT_FILES.example}/package.json`, `${JSON.stringify({ type: 'module', private: true, description: 'the dsh-lifecycle-kit example AgentFactory, copied by dsh-kit init --from-example' }, null, 2)}\n`)
  }
  const existing = [...files.keys()].filter((f) => existsSync(join(dir, f)))
  if (existing.length > 0 && !values.force) {
    throw new OutputError(`init: ${existing.join(', ')} already exist${existing.length === 1 ? 's' : ''} in ${relative(process.cwd(), dir) || '.'}; nothing was written (--force overwrites them)`)
  }
  for (const [file, text] of files) writeOutput('init', join(dir, file), text)
  const written = [...files.keys()].filter((f) => !f.startsWith(`${INIT_FILES.example}/`))
  console.log(`wrote ${written.join(', ')}${fromExample ? `, and the example factory in ${INIT_FILES.example}/` : ''}${existing.length ? ` (overwrote ${existing.join(', ')})` : ''}`)
  const adapter = `./${INIT_FILES.adapter}`
  console.log(['', 'next:',
    ...(fromExample
      ? [`  1. npx dsh-kit certify --adapter ${adapter}            # the example factory: every clause passes`,
        `  2. replace the example with your factory in ${INIT_FILES.adapter}`]
      : [`  1. in ${INIT_FILES.adapter}, import your AgentFactory (the TODOs), then`,
        `  2. npx dsh-kit certify --adapter ${adapter} --html certificate.html`]),
    `  3. npx dsh-kit certify --adapter ${adapter} --write-baseline ${INIT_FILES.baseline}`,
    `     records the failures you know about; give each a "reason" (and a "link"), then commit it`,
    `  4. commit ${INIT_FILES.workflow}: every push certifies against the baseline (a new failure, or a`,
    '     listed one that now passes, fails the job); every night a fuzz matrix runs and merges its shards',
    `  5. npx vitest run ${INIT_FILES.suite}              # the same clauses as vitest tests`,
  ].join('\n'))
  return EXIT.ok
}
