/**
 * Loading an adapter module named on the command line, with errors that say what was wrong and
 * how to fix it.
 * @module
 */
import { existsSync, readFileSync, statSync } from 'node:fs'
import { extname, join, relative, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { AdapterError, normalizeAdapter } from './adapter.js'
import type { Adapter } from './adapter.js'
import { stringText } from '../../sim/trace/bounded-text.js'
import { KIT_ROOT } from './kit-root.js'

export { KIT_ROOT }

/** Candidate files for a module path: as given, compiled (`dist/…js`) for the kit's own TS files, directories. */
function candidates(spec: string, base = process.cwd()): string[] {
  const abs = resolve(base, spec)
  const out: string[] = []
  const add = (p: string): void => { if (!out.includes(p)) out.push(p) }
  const inKit = !relative(KIT_ROOT, abs).startsWith('..')
  const compiled = (p: string): string => join(KIT_ROOT, 'dist', relative(KIT_ROOT, p)).replace(/\.ts$/, '.js')
  if (existsSync(abs) && statSync(abs).isDirectory()) {
    const pkg = join(abs, 'package.json')
    if (existsSync(pkg)) {
      const main = JSON.parse(readFileSync(pkg, 'utf8')).main
      if (typeof main === 'string') add(join(abs, main))
    }
    for (const name of ['index.js', 'index.mjs', 'adapter.js', 'adapter.mjs']) add(join(abs, name))
    if (inKit) add(compiled(join(abs, 'index.ts')))
    return out
  }
  const ext = extname(abs)
  if (ext === '.ts' && inKit) add(compiled(abs))
  add(abs)
  if (ext === '') {
    add(`${abs}.js`)
    add(`${abs}.mjs`)
    if (inKit) add(compiled(`${abs}.ts`))
  }
  return out
}

/**
 * The loadable file an adapter module names, looked up relative to each of `bases` in turn (the
 * working directory by default), with every candidate tried.
 */
export function resolveAdapterModule(spec: string, bases: readonly string[] = [process.cwd()]): { file: string | undefined; tried: string[] } {
  const tried: string[] = []
  for (const base of bases) {
    for (const p of candidates(spec, base)) {
      if (tried.includes(p)) continue
      tried.push(p)
      if (existsSync(p) && statSync(p).isFile() && !p.endsWith('.ts')) return { file: p, tried }
    }
  }
  return { file: undefined, tried }
}

/**
 * Import an adapter module and validate its default export. A relative `spec` is looked up
 * relative to each of `bases` in turn (the working directory by default).
 */
export async function loadAdapter(spec: string, bases?: readonly string[]): Promise<Adapter> {
  const { file, tried } = resolveAdapterModule(spec, bases)
  if (!file) {
    throw new AdapterError(`cannot load adapter module "${spec}": no loadable file (tried ${tried.join(', ')}). Name a compiled .js/.mjs module (or, for the kit's own TypeScript files, run \`npm run build\` first).`)
  }
  let module: Record<string, unknown>
  try {
    module = await import(pathToFileURL(file).href)
  } catch (error) {
    throw new AdapterError(`cannot load adapter module "${spec}" (${file}): ${stringText(error)}. Fix the module so it imports cleanly with \`node ${file}\`.`, { cause: error })
  }
  if (!('default' in module)) {
    throw new AdapterError(`adapter module "${spec}" has no default export; export default { name, version, supports?, install(world) { return { unload } } }`)
  }
  const adapter = module.default as Adapter
  normalizeAdapter(adapter, spec)
  return adapter
}
