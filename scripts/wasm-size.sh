#!/usr/bin/env bash
# Builds the release site (wasm optimised with npm's binaryen wasm-opt, not Debian's, which
# breaks the wasm; split into the main module and the lazy routes' chunks) and prints the sizes
# the browser downloads, raw and gzipped: the main module every page loads, then the chunks.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-tools.sh
if [ ! -x .tools/node_modules/.bin/wasm-opt ]; then
  mkdir -p .tools
  (cd .tools && npm install --no-audit --no-fund --no-save binaryen@132 >/dev/null)
fi
export PATH="$PWD/.tools/node_modules/.bin:$PATH"
cargo leptos build --release --split
size_line() {
  local raw gzipped
  raw=$(stat -c %s "$1")
  gzipped=$(gzip -9 -c "$1" | wc -c)
  printf '%-60s %9s bytes raw %8s bytes gzipped (%.1f KB)\n' "$2" "$raw" "$gzipped" "$(echo "$gzipped / 1024" | bc -l)"
}
size_line target/site/pkg/palaver.wasm "main module (every page)"
for chunk in target/site/pkg/split_*.wasm; do
  size_line "$chunk" "lazy route $(basename "$chunk" .wasm | sed -E 's/^split___(.*)_view_[0-9]+$/\1/')"
done
shared=0
for chunk in target/site/pkg/chunk_*.wasm; do shared=$((shared + $(gzip -9 -c "$chunk" | wc -c))); done
printf 'shared chunks (loaded with the routes that need them): %s bytes gzipped in all\n' "$shared"
