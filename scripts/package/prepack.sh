#!/bin/sh
# `npm pack`'s prepack: installs the locked dependencies (the library's build needs tsc), writes
# npm-shrinkwrap.json from bun.lock and builds the library for Node (dist/lib/node, dist/types). All on
# stderr, so `npm pack --json` keeps stdout to its JSON.
set -e
exec 1>&2
cd "$(dirname "$0")/../.."
sh scripts/bun.sh install --frozen-lockfile
sh scripts/bun.sh scripts/package/shrinkwrap.ts
sh scripts/bun.sh scripts/package/build-library.ts
