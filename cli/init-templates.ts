/**
 * The files `dsh-kit init` writes into a user's project: the adapter, the vitest suite and the CI
 * workflow (certify gated by the baseline on every push, a nightly fuzz matrix merged into one
 * verdict). `examples/ci/dsh-kit.yml` is the workflow as written here (a test keeps them equal).
 * @module
 */

/** Where `init` writes each file, relative to the project. */
export const INIT_FILES = {
  adapter: 'dsh-kit.adapter.mjs',
  suite: 'dsh-kit.conformance.test.mjs',
  workflow: '.github/workflows/dsh-kit.yml',
  baseline: 'dsh-kit.baseline.json',
  /** `--from-example`: the example factory's folder. */
  example: 'dsh-kit-example',
} as const

/** The example factory's modules `init --from-example` copies (compiled, from the kit's `dist/examples/from-scratch-factory/`). */
export const EXAMPLE_MODULES = ['factory.js', 'lifecycle.js', 'agent.js', 'driver.js', 'inbox.js'] as const

/** The adapter module: a template naming the factory module to fill in, or the copied example's. */
export function adapterTemplate(project: { readonly name: string; readonly version: string }, fromExample: boolean): string {
  if (fromExample) {
    return `// dsh-kit.adapter.mjs: the adapter \`npx dsh-kit certify --adapter ./${INIT_FILES.adapter}\` loads.
// Written by \`npx dsh-kit init --from-example\`: it certifies the kit's example factory, copied into
// ./${INIT_FILES.example}/ (an AgentFactory written from the contract). Replace it with your own
// factory: import your module below and give your implementation's name and version.
import { factoryAdapter } from 'dsh-lifecycle-kit/conformance'
import { ScratchFactory } from './${INIT_FILES.example}/factory.js'

export default factoryAdapter(
  { name: 'from-scratch-factory', version: '0.1.0', supports: { queue: true } },
  (pluginCtx) => new ScratchFactory(pluginCtx),
)
`
  }
  return `// dsh-kit.adapter.mjs: the adapter \`npx dsh-kit certify --adapter ./${INIT_FILES.adapter}\` loads.
// It names your implementation and installs a fresh AgentFactory into each simulated process.
// Written by \`npx dsh-kit init\`. The types your factory implements are in
// node_modules/dsh-lifecycle-kit/core/contract.ts; more adapter options (a whole process, declared
// capabilities) in node_modules/dsh-lifecycle-kit/conformance/README.md.
import { factoryAdapter } from 'dsh-lifecycle-kit/conformance'
// TODO: the module that exports your AgentFactory.
import { MyFactory } from './src/my-factory.mjs'

export default factoryAdapter({ name: ${JSON.stringify(project.name)}, version: ${JSON.stringify(project.version)} }, (pluginCtx) => {
  const factory = new MyFactory(pluginCtx)
  // TODO: tear your agents down when the factory unloads (drop this line if the factory registers its own effect).
  pluginCtx.effect(() => () => factory.shutdown(), ${JSON.stringify(`${project.name}.factory`)})
  return factory
})
`
}

/** The vitest suite: one test per clause, so vitest's totals are the certificate's. */
export function suiteTemplate(): string {
  return `// dsh-kit.conformance.test.mjs: the conformance suite in vitest, one test per clause (unchecked
// ones todo with the reason). \`npx vitest run dsh-kit.conformance.test.mjs -t "AGENT-TEARDOWN-TEST 97"\`
// runs one clause's work. Written by \`npx dsh-kit init\`.
import { describe, it } from 'vitest'
import { defineConformanceSuite } from 'dsh-lifecycle-kit/conformance'
import adapter from './${INIT_FILES.adapter}'

defineConformanceSuite(adapter, { describe, it, profile: 'quick' })
`
}

/** The GitHub Actions workflow (also `examples/ci/dsh-kit.yml`). */
export function workflowTemplate(): string {
  return `# dsh-kit: certify the agent loop on every push, gated by its baseline (the failures you know about),
# and fuzz it nightly on a matrix of shard jobs merged into one verdict. Written by \`npx dsh-kit init\`
# (the kit's examples/ci/dsh-kit.yml is the same file).
#
# The gate: \`certify --baseline\` exits 0 when every MUST clause passes, or fails (or is unchecked)
# exactly as the baseline lists; 1 on a new failure, or on a listed failure that now passes (update
# the baseline then: npx dsh-kit certify --adapter ./${INIT_FILES.adapter} --write-baseline ${INIT_FILES.baseline}).
# Without the baseline file every failing or unchecked MUST clause fails the job.
name: dsh-kit
on:
  push:
  pull_request:
  schedule:
    - cron: '0 3 * * *'      # the nightly fuzz matrix
  workflow_dispatch:
    inputs:
      seed:
        description: base seed of the fuzz matrix (the same seed and budget reproduce the same campaign)
        default: '0'

env:
  ADAPTER: ./${INIT_FILES.adapter}       # the module \`dsh-kit certify --adapter\` loads
  BASELINE: ${INIT_FILES.baseline}       # known failures; written by certify --write-baseline
  SHARDS: '4'
  RUNS_PER_SHARD: '50000'

jobs:
  certify:
    if: github.event_name != 'schedule'
    runs-on: ubuntu-latest
    timeout-minutes: 30
    steps:
      - uses: actions/checkout@v4
      - uses: actions/setup-node@v4
        with: { node-version: 20, cache: npm }
      - run: npm ci
      - name: certify
        run: |
          baseline=(); if [ -f "$BASELINE" ]; then baseline=(--baseline "$BASELINE"); fi
          npx dsh-kit certify --adapter "$ADAPTER" "\${baseline[@]}" \\
            --json certificate.json --html certificate.html --reporter junit=certificate.xml --badge dsh-kit.svg
      - uses: actions/upload-artifact@v4
        if: always()
        with:
          name: certificate
          path: |
            certificate.json
            certificate.html
            certificate.xml
            dsh-kit.svg
            .dsh-kit/failures/

  fuzz:
    if: github.event_name == 'schedule' || github.event_name == 'workflow_dispatch'
    runs-on: ubuntu-latest
    timeout-minutes: 120
    strategy:
      fail-fast: false
      matrix:
        shard: [1, 2, 3, 4]    # keep in step with SHARDS
    steps:
      - uses: actions/checkout@v4
      - uses: actions/setup-node@v4
        with: { node-version: 20, cache: npm }
      - run: npm ci
      - name: fuzz shard \${{ matrix.shard }}/\${{ env.SHARDS }}
        # A violation (exit 1) must not stop the merge: the merge job gives the verdict. A violation of
        # a clause the baseline lists is known and does not fail the shard.
        run: |
          baseline=(); if [ -f "$BASELINE" ]; then baseline=(--baseline "$BASELINE"); fi
          npx dsh-kit fuzz --adapter "$ADAPTER" "\${baseline[@]}" --seed "\${{ inputs.seed || 0 }}" \\
            --runs "$RUNS_PER_SHARD" --shard "\${{ matrix.shard }}/$SHARDS" --keep-going \\
            --out fuzz-runs --json shard-\${{ matrix.shard }}.json --reporter junit=shard-\${{ matrix.shard }}.xml || [ $? -eq 1 ]
      - uses: actions/upload-artifact@v4
        if: always()
        with:
          name: shard-\${{ matrix.shard }}
          path: |
            shard-\${{ matrix.shard }}.json
            shard-\${{ matrix.shard }}.xml
            fuzz-runs/

  merge:
    needs: fuzz
    if: always() && (github.event_name == 'schedule' || github.event_name == 'workflow_dispatch')
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
      - uses: actions/setup-node@v4
        with: { node-version: 20, cache: npm }
      - run: npm ci
      - uses: actions/download-artifact@v4
        with: { path: shards, pattern: 'shard-*' }
      # One report, one exit code: 0 clean (or only known violations), 1 a new violation (each with its
      # run file and replay command), 2 a shard did not complete.
      - run: npx dsh-kit merge shards/shard-*/shard-*.json --json merged.json --reporter junit=merged.xml
      - uses: actions/upload-artifact@v4
        if: always()
        with:
          name: merged
          path: |
            merged.json
            merged.xml
            shards/*/fuzz-runs/
`
}
