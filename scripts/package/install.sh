#!/bin/sh
# Installs a packed agent tarball with exactly the dependency versions of its npm-shrinkwrap.json, i.e.
# bun.lock's, the versions the tests ran with. `npm install -g ./agent-X.tgz` does not: npm honours a
# package's npm-shrinkwrap.json only when the registry marks the version `_hasShrinkwrap`
# (https://docs.npmjs.com/cli/v11/configuring-npm/npm-shrinkwrap-json: "applications deployed through the
# publishing process on the registry"); for a local tarball pacote's manifest carries no such mark (npm
# 11.19.1, @npmcli/arborist build-ideal-tree.js and reify.js load a dependency's shrinkwrap only when
# `node.hasShrinkwrap`), so it resolves every range afresh (checked: ms ^2.0.0 shrinkwrapped at 2.0.0
# installed 2.1.3). As the root project, the shrinkwrap is the lockfile `npm ci` installs as it is.
# The installed package.json loses its devDependencies first: they are the tests' tools, which the
# shrinkwrap does not hold (bun.lock lacks other platforms' packages of some), and `npm ci` refuses a
# package.json its lockfile does not cover, --omit=dev or not.
#
#   sh scripts/package/install.sh [--prefix DIR] agent-X.tgz   # DIR defaults to npm's global prefix
#
# The package goes to DIR/lib/node_modules/agent and DIR/bin/agent links to its launcher, the places
# `npm install -g --prefix DIR` uses.
set -e
prefix=
if [ "$1" = "--prefix" ]; then
  prefix=$2
  shift 2
fi
if [ $# -ne 1 ] || [ ! -f "$1" ]; then
  echo "usage: sh scripts/package/install.sh [--prefix DIR] agent-X.tgz (the file npm pack wrote)" >&2
  exit 2
fi
tarball=$(cd "$(dirname "$1")" && pwd -P)/$(basename "$1")
[ -n "$prefix" ] || prefix=$(npm prefix -g)
mkdir -p "$prefix/lib/node_modules" "$prefix/bin"
prefix=$(cd "$prefix" && pwd -P)
target=$prefix/lib/node_modules/agent
rm -rf "$target"
mkdir "$target"
tar -xzf "$tarball" -C "$target" --strip-components=1
node -e 'const f=process.argv[1],fs=require("fs"),p=JSON.parse(fs.readFileSync(f,"utf8"));delete p.devDependencies;fs.writeFileSync(f,JSON.stringify(p,null,2)+"\n")' "$target/package.json"
(cd "$target" && npm ci --omit=dev --no-audit --no-fund)
ln -sf ../lib/node_modules/agent/bin/agent "$prefix/bin/agent"
echo "installed agent in $target; $prefix/bin/agent is on your PATH if $prefix/bin is" >&2
