#!/usr/bin/env bash
# Installs what the tests need, then runs every check: format, lints (server and browser
# builds), the Rust tests, and the Playwright browser tests against a real build.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-tools.sh --test

# cargo-leptos builds with this flag; using it everywhere lets every step share one build.
export RUSTFLAGS="--cfg erase_components"
step() { printf '\n==> %s\n' "$*"; }
started=$SECONDS

step "format"
cargo fmt --all --check

step "clippy (server build)"
cargo clippy -p server -p app --features app/ssr --all-targets -- -D warnings

step "clippy (browser build)"
cargo clippy -p frontend -p app --features app/hydrate --target wasm32-unknown-unknown -- -D warnings

step "build (cargo leptos)"
cargo leptos build

step "Rust tests"
cargo test -p app --features ssr
cargo test -p server

step "browser tests (Playwright, chromium)"
(cd end2end && npx playwright test)

step "all checks passed in $((SECONDS - started)) s"
