#!/bin/sh
# The test command (README: `npm test`): installs Bun when missing and the locked dependencies, then
# type-checks, lints, runs the fast tier and then the end-to-end tier (scripts/test-tier.sh), and ends with
# one line summing both tiers. Exits non-zero on any failure. With arguments, runs `bun test` on them
# instead of the tiers (`npm test -- test/tools`).
set -e
cd "$(dirname "$0")/.."
bun=scripts/bun.sh
sh $bun install --frozen-lockfile
sh $bun run check
if [ $# -gt 0 ]; then
  exec sh $bun test --timeout 30000 "$@"
fi
logs=$(mktemp -d)
trap 'rm -rf "$logs"' EXIT
status=0
for tier in fast e2e; do
  # The tier's output as it comes, and a copy to read its closing counts from; the status survives the pipe.
  { code=0; sh scripts/test-tier.sh $tier 2>&1 || code=$?; echo $code >"$logs/$tier.status"; } | tee "$logs/$tier.log"
  [ "$(cat "$logs/$tier.status")" = 0 ] || status=1
done
# bun's closing lines (" 1581 pass", " 2 fail", " 3 errors"), summed over the tiers.
count() { sed -n "s/^ *\([0-9][0-9]*\) $1\$/\1/p" "$logs/fast.log" "$logs/e2e.log" | awk '{ n += $1 } END { print n + 0 }'; }
passed=$(count pass)
failed=$(( $(count fail) + $(count 'errors*') ))
echo
echo "fast tier and end-to-end tier, summed (a file-level error counts as a failure):"
# The plain closing line CI reads: 'N passed, N failed' alone on a line.
echo "tests: $passed passed, $failed failed"
exit $status
