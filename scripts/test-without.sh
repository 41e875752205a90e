#!/usr/bin/env bash
# Runs the test suite as a machine without some programs would: PATH becomes a folder of links
# to every program on it but the named ones. Works without root and on macOS.
#   scripts/test-without.sh bwrap tmux nvim rg              # the whole suite
#   scripts/test-without.sh bwrap rg -- test/fs-grep.test.ts  # some files (vitest arguments)
set -euo pipefail
cd "$(dirname "$0")/.."

hidden=()
while [ $# -gt 0 ] && [ "$1" != "--" ]; do hidden+=("$1"); shift; done
[ "${1:-}" = "--" ] && shift

node=$(command -v node)
bin=$(mktemp -d "${TMPDIR:-/tmp}/oi-path-XXXXXX")
trap 'rm -rf "$bin"' EXIT
IFS=: read -r -a dirs <<< "$PATH"
for dir in "${dirs[@]}"; do
  [ -d "$dir" ] || continue
  for program in "$dir"/*; do
    name=${program##*/}
    [ -x "$program" ] && [ ! -d "$program" ] && [ ! -e "$bin/$name" ] || continue
    for h in "${hidden[@]}"; do [ "$name" = "$h" ] && continue 2; done
    ln -s "$program" "$bin/$name"
  done
done

PATH="$bin" exec "$node" node_modules/vitest/vitest.mjs run "$@"
