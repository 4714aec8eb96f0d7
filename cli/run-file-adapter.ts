/**
 * Which adapter a saved run replays against: the one it recorded, by default. Naming another is
 * refused unless forced, because a log replayed against the wrong factory shows that factory's
 * behaviour, not the recorded failure.
 * @module
 */
import { dirname } from 'node:path'
import { REFERENCE_ADAPTER } from '../conformance/adapters/adapter.js'
import type { Adapter } from '../conformance/adapters/adapter.js'
import { AdapterError } from '../conformance/adapters/adapter.js'
import { KIT_ROOT, loadAdapter, resolveAdapterModule } from '../conformance/adapters/adapter-loader.js'
import type { RunFile } from '../sim/trace/run-file.js'
import { UsageError } from './errors.js'

/** The adapter a run file replays against, and how to name it in printed commands. */
export interface RunFileAdapter {
  readonly adapter: Adapter
  /** The module to pass as `--adapter` (absent: the built-in reference). */
  readonly module: string | undefined
}

const label = (module: string | undefined, name: string | undefined): string =>
  module === undefined ? 'the built-in reference factory' : `${module}${name ? ` (${name})` : ''}`

/** Resolve the adapter of `file` (read from `path`), honouring an explicit `--adapter` and `--force`. */
export async function adapterForRunFile(file: RunFile, path: string, option: string | undefined, force: boolean): Promise<RunFileAdapter> {
  const recorded = file.adapter
  const bases = [process.cwd(), KIT_ROOT, dirname(path)]
  if (option === undefined) {
    if (recorded === undefined) return { adapter: REFERENCE_ADAPTER, module: undefined }
    const found = resolveAdapterModule(recorded, bases)
    if (!found.file) {
      throw new AdapterError(`${path} was recorded against adapter ${label(recorded, file.adapterName)}, which cannot be found from here (tried ${found.tried.join(', ')}); pass --adapter <its path now> --force`)
    }
    return { adapter: await loadAdapter(found.file), module: recorded }
  }
  const adapter = await loadAdapter(option)
  if (!force) {
    const mine = resolveAdapterModule(option).file
    const theirs = recorded === undefined ? undefined : resolveAdapterModule(recorded, bases).file
    const name = `${adapter.name}@${adapter.version}`
    const otherModule = recorded === undefined || (theirs !== undefined && theirs !== mine)
    const otherName = file.adapterName !== undefined && file.adapterName !== name
    if (otherModule || otherName) {
      throw new UsageError(`${path} was recorded against ${label(recorded, file.adapterName)}, not --adapter ${option} (${name}); omit --adapter to use the recorded one, or add --force to run the log against ${option} anyway`)
    }
  }
  return { adapter, module: option }
}
