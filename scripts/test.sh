#!/bin/sh
# The test command (README: `npm test`): installs Bun when missing and the locked dependencies,
# then type-checks, lints and runs every test. Exits non-zero on any failure.
set -e
cd "$(dirname "$0")/.."
bun=scripts/bun.sh
sh $bun install --frozen-lockfile
sh $bun run check
# A generous per-test bound (bun's default is 5 s): the end-to-end tests start real processes and
# terminals, which on a loaded 2-core CI machine can take longer than that without anything being wrong.
# The bound only decides "it ended at all"; no test asserts on timing.
sh $bun test --timeout 30000 "$@"
