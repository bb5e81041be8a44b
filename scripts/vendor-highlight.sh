#!/usr/bin/env bash
# Refreshes the vendored highlight.js (the browser's code highlighter, served from
# public/vendor/highlight.js/) from the npm registry, at the pinned version.
set -euo pipefail
VERSION=11.12.0
root="$(cd "$(dirname "$0")/.." && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
(cd "$work" && npm pack --silent "@highlightjs/cdn-assets@$VERSION" >/dev/null && tar xzf ./*.tgz)
target="$root/public/vendor/highlight.js"
mkdir -p "$target"
cp "$work/package/highlight.min.js" "$work/package/LICENSE" "$target/"
echo "highlight.js $VERSION in $target"
