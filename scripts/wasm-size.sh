#!/usr/bin/env bash
# Builds the release site (wasm optimised with npm's binaryen wasm-opt, not Debian's, which
# breaks the wasm; split into the main module and the chunks of the lazy parts; precompressed
# as the server sends it) and prints what the browser downloads: the main module every page
# loads, then what each lazy part adds the first time it is used (its chunk and the shared
# chunks it needs), gzipped (-9) and as the precompressed brotli file the server serves.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-tools.sh
if [ ! -x .tools/node_modules/.bin/wasm-opt ]; then
  mkdir -p .tools
  (cd .tools && npm install --no-audit --no-fund --no-save binaryen@132 >/dev/null)
fi
export PATH="$PWD/.tools/node_modules/.bin:$PATH"
cargo leptos build --release --split --precompress
python3 - target/site/pkg <<'PY'
import gzip, json, os, sys

pkg = sys.argv[1]
def sizes(names):
    files = [os.path.join(pkg, name + ".wasm") for name in names]
    raw = sum(os.path.getsize(f) for f in files)
    gz = sum(len(gzip.compress(open(f, "rb").read(), 9)) for f in files)
    br = sum(os.path.getsize(f + ".br") for f in files)
    return raw, gz, br
def line(label, names):
    raw, gz, br = sizes(names)
    print(f"{label:<34} {raw:>9} raw {gz:>8} gzipped ({gz / 1024:6.1f} KB) {br:>8} brotli ({br / 1024:6.1f} KB)")

line("main module (every page)", ["palaver"])
manifest = json.load(open(os.path.join(pkg, "__wasm_split_manifest.json")))
for part, chunks in sorted(manifest.items()):
    line("+ " + part.removeprefix("palaver_"), chunks)
PY
