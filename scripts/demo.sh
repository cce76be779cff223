#!/bin/sh
# The README's first command (`npm run demo`): installs Bun when missing and the locked dependencies,
# then runs `agent run` on a fresh copy of examples/demo/workspace. Without a provider key it replays the
# shipped cassette (no key, no network); with ANTHROPIC_API_KEY, OPENAI_API_KEY or GEMINI_API_KEY set,
# the same goal runs against the real model.
set -e
cd "$(dirname "$0")/.."
sh scripts/bun.sh install --frozen-lockfile
work=$(mktemp -d "${TMPDIR:-/tmp}/agent-demo.XXXXXX")
cp -R examples/demo/workspace/. "$work/"
goal="Add a farewell(name) function to greet.js, in the same style as greet, and check that it works."
if [ -n "${ANTHROPIC_API_KEY:-}${OPENAI_API_KEY:-}${GEMINI_API_KEY:-}${GOOGLE_API_KEY:-}" ]; then
  echo "demo: a provider key is set: running for real" >&2
  set -- run --cwd "$work" --on-ask allow "$goal"
else
  echo "demo: no provider key: replaying examples/demo/demo.cassette.jsonl (offline)" >&2
  set -- run --replay examples/demo/demo.cassette.jsonl --cwd "$work" --on-ask allow "$goal"
fi
status=0
sh scripts/bun.sh bin/agent.ts "$@" || status=$?
echo "" >&2
echo "demo: the workspace is $work; greet.js now reads:" >&2
cat "$work/greet.js" >&2
exit $status
