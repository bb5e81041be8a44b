#!/usr/bin/env bash
# Incremental rebuild times after a one-line edit in a UI component, in a core service and in
# the turn runner: `cargo leptos build` and the crate's `cargo test --no-run` (the time to the
# first test), all in one run on one machine. Start from a warm target/ (a build and the tests
# compiled once); every file edited is put back as it was, and the tree is rebuilt at the end.
#
#   scripts/measure-rebuild.sh UI_FILE:TEST_ARGS CORE_FILE:TEST_ARGS RUNNER_FILE:TEST_ARGS
# e.g. scripts/measure-rebuild.sh 'app/src/chat/rating.rs:-p palaver-app --features ssr' …
set -euo pipefail
cd "$(dirname "$0")/.."

same_flags() { RUSTFLAGS="--cfg erase_components" "$@"; }
seconds() { local start=$SECONDS; "$@" >/dev/null 2>&1; echo $((SECONDS - start)); }

edited=()
restore() { local edit; for edit in "${edited[@]}"; do git checkout --quiet -- "$edit"; done; }
trap restore EXIT

echo "==> warming: cargo leptos build --split and the test binaries"
cargo leptos build --split >/dev/null 2>&1
for target in "$@"; do
  # shellcheck disable=SC2086
  same_flags cargo test ${target#*:} --no-run >/dev/null 2>&1
done

printf '%-44s %18s %22s\n' "one-line edit in" "cargo leptos build" "cargo test (to first)"
for target in "$@"; do
  file=${target%%:*}
  restore
  edited=("$file")
  printf '\n// edited by measure-rebuild.sh\n' >>"$file"
  build=$(seconds cargo leptos build --split)
  # shellcheck disable=SC2086
  tests=$(seconds same_flags cargo test ${target#*:} --no-run)
  printf '%-44s %16s s %20s s\n' "$file" "$build" "$tests"
done
restore
edited=()
cargo leptos build --split >/dev/null 2>&1
