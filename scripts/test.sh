#!/usr/bin/env bash
# Installs what the tests need, then runs every check: format, lints (server and browser
# builds), the Rust tests, and the Playwright browser tests against a real build.
set -euo pipefail
cd "$(dirname "$0")/.."
installing=$SECONDS
scripts/install-tools.sh --test
printf '==> tools ready in %s s\n' "$((SECONDS - installing))"

# cargo-leptos adds this flag to its dev builds; giving cargo the same flag lets every step
# share one build. (Not exported: cargo-leptos would add it a second time.)
same_flags() { RUSTFLAGS="--cfg erase_components" "$@"; }
started=$SECONDS
# Each step says how far into the run it starts, so a slow step shows in CI's log.
step() { printf '\n==> [%ss] %s\n' "$((SECONDS - started))" "$*"; }

step "format"
cargo fmt --all --check
leptosfmt --quiet --check app/src server/src frontend/src

step "clippy (server build)"
same_flags cargo clippy -p palaver-server -p palaver-app -p palaver-core -p palaver-wire -p palaver-contract \
  --features palaver-app/ssr,palaver-contract/sanitize --all-targets -- -D warnings

step "clippy (browser build)"
same_flags cargo clippy -p palaver-frontend -p palaver-app --features palaver-app/hydrate --target wasm32-unknown-unknown -- -D warnings

step "build (cargo leptos)"
cargo leptos build --split

step "Rust tests (SQLite)"
same_flags cargo test -p palaver-contract --features sanitize
same_flags cargo test -p palaver-wire
same_flags cargo test -p palaver-core
same_flags cargo test -p palaver-app --features ssr
same_flags cargo test -p palaver-server

step "Rust tests again on PostgreSQL, files in an S3-compatible bucket (throw-away servers)"
services=$(mktemp -d)
trap 'scripts/postgres.sh stop "$services/postgres" || true; scripts/s3.sh stop "$services/s3" || true; rm -rf "$services"' EXIT
postgres_url=$(scripts/postgres.sh start "$services/postgres")
s3_env=$(scripts/s3.sh start "$services/s3")
# Every storage test takes a fresh database on the server (palaver_core::db::scratch_url) and a fresh
# prefix in the bucket (palaver_core::uploads::scratch_url); two-instance tests run in this pass only.
(
  export PALAVER_TEST_POSTGRES_URL=$postgres_url PALAVER_TEST_POSTGRES_CA=$services/postgres/ca.crt
  set -a && eval "$s3_env" && set +a
  same_flags cargo test -p palaver-core
  same_flags cargo test -p palaver-server
)
scripts/postgres.sh stop "$services/postgres"
scripts/s3.sh stop "$services/s3"

step "fuzzing (every target a minute, two at a time)"
scripts/fuzz.sh 60

step "MCP conformance (the suite's client scenarios)"
scripts/mcp-conformance.sh

step "browser tests (Playwright, chromium)"
(cd end2end && npx playwright test)

# Nothing in a run removes build output, so its size at the end is the largest it grew to.
step "all checks passed in $((SECONDS - started)) s; target/ holds $(du -sh target | cut -f1)"
