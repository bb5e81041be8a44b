#!/usr/bin/env bash
# Builds the release site (wasm optimised with npm's binaryen wasm-opt, not Debian's, which
# breaks the wasm) and prints the size of the wasm the browser downloads, raw and gzipped.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-tools.sh
if [ ! -x .tools/node_modules/.bin/wasm-opt ]; then
  mkdir -p .tools
  (cd .tools && npm install --no-audit --no-fund --no-save binaryen@132 >/dev/null)
fi
export PATH="$PWD/.tools/node_modules/.bin:$PATH"
cargo leptos build --release
wasm=target/site/pkg/palaver.wasm
raw=$(stat -c %s "$wasm")
gzipped=$(gzip -9 -c "$wasm" | wc -c)
printf 'release wasm: %s bytes raw, %s bytes gzipped (%.1f KB)\n' "$raw" "$gzipped" "$(echo "$gzipped / 1024" | bc -l)"
