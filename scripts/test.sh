#!/bin/sh
# The test command (README: `npm test`): installs Bun when missing and the locked dependencies,
# then type-checks, lints and runs every test. Exits non-zero on any failure.
set -e
cd "$(dirname "$0")/.."
bun=scripts/bun.sh
sh $bun install --frozen-lockfile
sh $bun run check
sh $bun test "$@"
