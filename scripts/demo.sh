#!/bin/sh
# The README's first command (`npm run demo`): installs Bun when missing and the locked dependencies,
# then runs `agent run` on a fresh copy of examples/demo/workspace. Without a provider key it replays the
# shipped cassette (no key, no network); with ANTHROPIC_API_KEY, OPENAI_API_KEY or GEMINI_API_KEY set,
# the same goal runs against the real model.
# The run sees the project's own agents and skills only, whatever the user has installed: its home,
# config, state and cache folders are in the demo's temp folder, which is removed when the demo ends.
# It keeps no session (--no-session-persistence), so it prints no `continue:` line that could not work.
set -e
cd "$(dirname "$0")/.."
sh scripts/bun.sh install --frozen-lockfile
tmp=$(mktemp -d "${TMPDIR:-/tmp}/agent-demo.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
work="$tmp/workspace"
mkdir "$work" "$tmp/home"
cp -R examples/demo/workspace/. "$work/"
goal="Add a farewell(name) function to greet.js, in the same style as greet, and check that it works."
set -- run --cwd "$work" --on-ask allow --no-session-persistence
if [ -n "${ANTHROPIC_API_KEY:-}${OPENAI_API_KEY:-}${GEMINI_API_KEY:-}${GOOGLE_API_KEY:-}" ]; then
  echo "demo: a provider key is set: running for real" >&2
else
  echo "demo: no provider key: replaying examples/demo/demo.cassette.jsonl (offline)" >&2
  set -- "$@" --replay examples/demo/demo.cassette.jsonl
fi
status=0
HOME="$tmp/home" XDG_CONFIG_HOME="$tmp/home/.config" XDG_STATE_HOME="$tmp/home/.local/state" \
  XDG_CACHE_HOME="$tmp/home/.cache" XDG_DATA_HOME="$tmp/home/.local/share" \
  sh scripts/bun.sh bin/agent.ts "$@" "$goal" || status=$?
echo "" >&2
echo "demo: greet.js now reads:" >&2
cat "$work/greet.js" >&2
echo "demo: done; its temp folder is removed. Try it on a project of your own: README.md, \"In a terminal\"." >&2
exit $status
