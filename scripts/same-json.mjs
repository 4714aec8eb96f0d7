// `node scripts/same-json.mjs <before.json> <after.json>`: two JSON reports of the kit (certify, fuzz,
// run) compared field by field with timing fields aside; prints the paths that differ, exit 1 if any.
import { readFileSync } from 'node:fs'
const TIMING = /^(durationMs|wallMs|elapsedMs|cpuMs|runsPerSecond|startedAt|finishedAt|ms|seconds|atMs|timeMs|firstAtMs|tookMs)$/
const [a, b] = process.argv.slice(2).map((f) => JSON.parse(readFileSync(f, 'utf8')))
const diffs = []
function walk(x, y, path) {
  if (typeof x !== typeof y || Array.isArray(x) !== Array.isArray(y) || (x === null) !== (y === null)) { diffs.push(`${path}: ${JSON.stringify(x)?.slice(0,80)} vs ${JSON.stringify(y)?.slice(0,80)}`); return }
  if (x && typeof x === 'object') {
    const keys = new Set([...Object.keys(x), ...Object.keys(y)])
    const kx = Object.keys(x).filter((k) => !TIMING.test(k)).join(','), ky = Object.keys(y).filter((k) => !TIMING.test(k)).join(',')
    if (kx !== ky) diffs.push(`${path}: key order/set ${kx} vs ${ky}`)
    for (const k of keys) if (!TIMING.test(k)) walk(x[k], y[k], `${path}.${k}`)
  } else if (x !== y) diffs.push(`${path}: ${JSON.stringify(x)?.slice(0,120)} vs ${JSON.stringify(y)?.slice(0,120)}`)
}
walk(a, b, '$')
console.log(diffs.length ? diffs.slice(0, 30).join("\n") + `\n(${diffs.length} differences)` : "identical (timing fields aside)")
process.exitCode = diffs.length ? 1 : 0
