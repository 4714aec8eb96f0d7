/**
 * Which adapter a saved run replays against: the one it recorded, by default. Naming another is
 * refused unless forced, because a log replayed against the wrong factory shows that factory's
 * behaviour, not the recorded failure.
 * @module
 */
import { dirname } from 'node:path'
import { AdapterError } from '../conformance/adapters/adapter.js'
import { KIT_ROOT, resolveAdapterModule } from '../conformance/adapters/adapter-loader.js'
import { WatchedAdapter } from '../conformance/adapters/watched-adapter.js'
import type { AdapterDescription } from '../conformance/adapters/watched-adapter.js'
import type { RunFile } from '../sim/trace/run-file.js'
import { UsageError } from './errors.js'

/**
 * The adapter a run file replays against, loaded in a watched worker (`watched` replays there; the
 * caller closes it), and how to name it in printed commands.
 */
export interface RunFileAdapter {
  readonly watched: WatchedAdapter
  readonly adapter: AdapterDescription
  /** The module to pass as `--adapter` (absent: the built-in reference). */
  readonly module: string | undefined
}

const label = (module: string | undefined, name: string | undefined): string =>
  module === undefined ? 'the built-in reference factory' : `${module}${name ? ` (${name})` : ''}`

/** The adapter in a watched worker, described (its worker is closed if that fails). */
async function watch(file: string | undefined, source: string | undefined): Promise<{ watched: WatchedAdapter; adapter: AdapterDescription }> {
  const watched = new WatchedAdapter(file, source)
  try {
    return { watched, adapter: await watched.describe(false) }
  } catch (error) {
    await watched.close()
    throw error
  }
}

/** Resolve the adapter of `file` (read from `path`), honouring an explicit `--adapter` and `--force`. */
export async function adapterForRunFile(file: RunFile, path: string, option: string | undefined, force: boolean): Promise<RunFileAdapter> {
  const recorded = file.adapter
  const bases = [process.cwd(), KIT_ROOT, dirname(path)]
  if (option === undefined) {
    if (recorded === undefined) return { ...(await watch(undefined, undefined)), module: undefined }
    const found = resolveAdapterModule(recorded, bases)
    if (!found.file) {
      throw new AdapterError(`${path} was recorded against adapter ${label(recorded, file.adapterName)}, which cannot be found from here (tried ${found.tried.join(', ')}); pass --adapter <its path now> --force`)
    }
    return { ...(await watch(found.file, recorded)), module: recorded }
  }
  const mine = resolveAdapterModule(option).file
  if (mine === undefined) {
    throw new AdapterError(`cannot load adapter module "${option}": no loadable file (tried ${resolveAdapterModule(option).tried.join(', ')}). Name a compiled .js/.mjs module (or, for the kit's own TypeScript files, run \`npm run build\` first).`)
  }
  const loaded = await watch(mine, option)
  if (!force) {
    const theirs = recorded === undefined ? undefined : resolveAdapterModule(recorded, bases).file
    const name = `${loaded.adapter.name}@${loaded.adapter.version}`
    const otherModule = recorded === undefined || (theirs !== undefined && theirs !== mine)
    const otherName = file.adapterName !== undefined && file.adapterName !== name
    if (otherModule || otherName) {
      await loaded.watched.close()
      throw new UsageError(`${path} was recorded against ${label(recorded, file.adapterName)}, not --adapter ${option} (${name}); omit --adapter to use the recorded one, or add --force to run the log against ${option} anyway`)
    }
  }
  return { ...loaded, module: option }
}
