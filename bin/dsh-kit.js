#!/usr/bin/env node
// The `dsh-kit` command: runs the compiled CLI. The package ships `dist/`; it has no install
// script (npm would warn about one, and a consumer has no TypeScript), so in a source checkout
// `npm ci` does not build: the first `npx dsh-kit` there builds once (`npm test` builds too).
import { spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

const root = fileURLToPath(new URL('..', import.meta.url))
const main = new URL('../dist/cli/main.js', import.meta.url)
if (!existsSync(main) && existsSync(new URL('../tsconfig.build.json', import.meta.url))) {
  process.stderr.write('dsh-kit: this checkout is not built yet; running `npm run build` first\n')
  const build = spawnSync('npm', ['run', 'build', '--silent'], { cwd: root, stdio: 'inherit', shell: process.platform === 'win32' })
  if (build.status !== 0) {
    process.stderr.write('dsh-kit: the build failed; see the errors above\n')
    process.exit(70)
  }
}
await import(main.href)
