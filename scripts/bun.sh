#!/bin/sh
# Runs Bun: the one on PATH, else a copy installed from npm into ./.tools (installed on first use).
# The local copy's directory is put on PATH so that processes Bun starts (tests spawn bin/agent, which
# looks for bun on PATH first) find it too.
set -e
root=$(cd "$(dirname "$0")/.." && pwd)
if command -v bun >/dev/null 2>&1; then
  exec bun "$@"
fi
local_bin="$root/.tools/node_modules/.bin"
if [ ! -x "$local_bin/bun" ]; then
  echo "bun not found; installing it from npm into .tools/ ..." >&2
  npm install --silent --no-audit --no-fund --prefix "$root/.tools" bun@1.4.5 >&2
fi
PATH="$local_bin:$PATH"
export PATH
exec "$local_bin/bun" "$@"
