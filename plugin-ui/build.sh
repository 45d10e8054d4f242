#!/usr/bin/env bash
# Builds the plugin into dist/ with the machine's own node and npm (no download of Node or a
# browser): npm ci when node_modules is missing or older than package-lock.json, then the build.
set -euo pipefail
cd "$(dirname "$0")"
stamp=node_modules/.package-lock.json
if [ ! -d node_modules ] || [ ! -f "$stamp" ] || [ package-lock.json -nt "$stamp" ]; then
  npm ci --no-audit --no-fund
fi
npm run build
