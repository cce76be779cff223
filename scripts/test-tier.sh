#!/bin/sh
# Runs one tier of the tests (docs/development.md, "Test tiers"); extra arguments go to `bun test`.
#   fast: every test outside test/e2e/, in this process: no test starts the agent, Bun, Node, an MCP
#         server, a terminal or the sandbox.
#   e2e:  test/e2e/, the tests that start processes, in worker processes side by side (they mostly wait on
#         the processes they start), the slowest files first (test/e2e/timings.json).
# A generous per-test bound (bun's default is 5 s): the end-to-end tests start real processes and terminals,
# which on a loaded 2-core machine can take longer than that without anything being wrong. The bound only
# decides "it ended at all"; no test asserts on timing.
set -e
cd "$(dirname "$0")/.."
tier=$1
shift
case "$tier" in
  fast) exec sh scripts/bun.sh test --timeout 30000 --path-ignore-patterns 'test/e2e/**' "$@" ;;
  e2e)
    exec sh scripts/bun.sh test --timeout 30000 --parallel="${AGENT_TEST_WORKERS:-3}" \
      --timings=test/e2e/timings.json test/e2e "$@"
    ;;
  *)
    echo "usage: sh scripts/test-tier.sh fast|e2e [bun test arguments]" >&2
    exit 2
    ;;
esac
