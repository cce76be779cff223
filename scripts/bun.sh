#!/bin/sh
# Runs Bun: the one on PATH, else a copy installed from npm into ./.tools (installed on first use).
set -e
root=$(cd "$(dirname "$0")/.." && pwd)
if command -v bun >/dev/null 2>&1; then
  exec bun "$@"
fi
local_bun="$root/.tools/node_modules/.bin/bun"
if [ ! -x "$local_bun" ]; then
  echo "bun not found; installing it from npm into .tools/ ..." >&2
  npm install --silent --no-audit --no-fund --prefix "$root/.tools" bun@1.4.5 >&2
fi
exec "$local_bun" "$@"
