/**
 * A temporary build of an earlier commit of this checkout, for the sections that measure it side by
 * side with this one (the kit's CPU per run, a quick certification): `git archive` of the commit into
 * a temporary directory, this checkout's `node_modules` linked in, `tsc` run there. One build serves
 * every section of a bench run; whoever made it removes it ({@link removeBuild}).
 * @module
 */
import { execFileSync } from 'node:child_process'
import { mkdtempSync, rmSync, symlinkSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { KIT_ROOT } from './fuzz-child.js'

/** A build of an earlier commit. */
export interface BeforeBuild {
  /** Its root (a kit checkout with `dist/` built). */
  readonly dir: string
  /** Its short hash. */
  readonly commit: string
}

/** A build, or why there is none (a shallow clone, an export, a failed build). */
export type BeforeBuildResult = BeforeBuild | { readonly skipped: string }

/** Build `commit` in a temporary directory. */
export function buildAt(commit: string): BeforeBuildResult {
  let full: string
  try {
    full = execFileSync('git', ['rev-parse', '--verify', '--quiet', `${commit}^{commit}`], { cwd: KIT_ROOT, encoding: 'utf8' }).trim()
  } catch {
    return { skipped: `commit ${commit} is not in this checkout's git history (a shallow clone or an export): no "before" build` }
  }
  const dir = mkdtempSync(join(tmpdir(), 'dsh-bench-before-'))
  try {
    const tar = execFileSync('git', ['archive', '--format=tar', full], { cwd: KIT_ROOT, maxBuffer: 256 * 1024 * 1024 })
    execFileSync('tar', ['-x', '-C', dir], { input: tar })
    symlinkSync(join(KIT_ROOT, 'node_modules'), join(dir, 'node_modules'), 'dir')
    execFileSync(join(KIT_ROOT, 'node_modules/.bin/tsc'), ['-p', 'tsconfig.build.json'], { cwd: dir, stdio: 'pipe' })
  } catch (error) {
    rmSync(dir, { recursive: true, force: true })
    return { skipped: `building ${commit} failed: ${(error as Error).message.split('\n')[0]}` }
  }
  return { dir, commit: full.slice(0, 7) }
}

/** Remove a build (nothing to do for a skipped one). */
export function removeBuild(build: BeforeBuildResult): void {
  if ('dir' in build) rmSync(build.dir, { recursive: true, force: true })
}
