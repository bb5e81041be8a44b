#!/usr/bin/env bash
# Installs what Palaver's build needs, skipping whatever is already there at the right version.
#   scripts/install-tools.sh           the build: wasm target, cargo-leptos, wasm-bindgen
#   scripts/install-tools.sh --test    the build plus the checks and browser tests: leptosfmt,
#                                      cargo-fuzz, chromium, Playwright, and the MCP servers the
#                                      tests use
set -euo pipefail
cd "$(dirname "$0")/.."

CARGO_LEPTOS_VERSION=0.3.10
WASM_BINDGEN_VERSION=0.2.130
LEPTOSFMT_VERSION=0.1.33
CARGO_FUZZ_VERSION=0.13.1

say() { printf '==> %s\n' "$*"; }

if ! rustup target list --installed | grep -qx wasm32-unknown-unknown; then
  say "adding the wasm32 target"
  rustup target add wasm32-unknown-unknown
fi

if [ "$(cargo leptos --version 2>/dev/null | awk '{print $2}')" != "$CARGO_LEPTOS_VERSION" ]; then
  say "installing cargo-leptos $CARGO_LEPTOS_VERSION (takes a while on a fresh machine)"
  cargo install cargo-leptos --version "$CARGO_LEPTOS_VERSION" --locked --features no_downloads
fi

if [ "$(wasm-bindgen --version 2>/dev/null | awk '{print $2}')" != "$WASM_BINDGEN_VERSION" ]; then
  say "installing wasm-bindgen-cli $WASM_BINDGEN_VERSION"
  # Not --locked: its lockfile names a crate version the registry here lacks.
  cargo install wasm-bindgen-cli --version "$WASM_BINDGEN_VERSION" --force
fi

if [ "${1:-}" = "--test" ]; then
  if [ "$(leptosfmt --version 2>/dev/null | awk '{print $2}')" != "$LEPTOSFMT_VERSION" ]; then
    say "installing leptosfmt $LEPTOSFMT_VERSION (formats the view! macros)"
    cargo install leptosfmt --version "$LEPTOSFMT_VERSION" --locked
  fi
  # The fuzzers run on the nightly toolchain the machine has (libFuzzer with AddressSanitizer).
  if [ "$(cargo fuzz --version 2>/dev/null | awk '{print $2}')" != "$CARGO_FUZZ_VERSION" ]; then
    say "installing cargo-fuzz $CARGO_FUZZ_VERSION"
    cargo install cargo-fuzz --version "$CARGO_FUZZ_VERSION" --locked
  fi
  if [ ! -x /usr/bin/chromium ]; then
    say "installing Debian's chromium"
    apt-get update
    DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends chromium
  fi
  if [ ! -f end2end/node_modules/.package-lock.json ] || [ end2end/package-lock.json -nt end2end/node_modules/.package-lock.json ]; then
    say "installing Playwright (no browser download)"
    (cd end2end && PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm ci --no-audit --no-fund)
  fi
  # The real MCP servers the tests connect to, at pinned versions: from npm, and from PyPI.
  if [ ! -f scripts/mcp/node_modules/.package-lock.json ] || [ scripts/mcp/package-lock.json -nt scripts/mcp/node_modules/.package-lock.json ]; then
    say "installing the test MCP servers from npm"
    (cd scripts/mcp && npm ci --no-audit --no-fund)
  fi
  if [ ! -x scripts/mcp/.venv/bin/mcp-server-time ] || [ scripts/mcp/requirements.txt -nt scripts/mcp/.venv/installed ]; then
    say "installing the test MCP servers from PyPI"
    python3 -m venv scripts/mcp/.venv
    scripts/mcp/.venv/bin/pip install --quiet --disable-pip-version-check -r scripts/mcp/requirements.txt
    touch scripts/mcp/.venv/installed
  fi
  # The local Web Push service the push tests send to, pinned, from PyPI.
  if [ ! -x scripts/push/.venv/bin/python ] || [ scripts/push/requirements.txt -nt scripts/push/.venv/installed ]; then
    say "installing the test push service's packages from PyPI"
    python3 -m venv scripts/push/.venv
    scripts/push/.venv/bin/pip install --quiet --disable-pip-version-check -r scripts/push/requirements.txt
    touch scripts/push/.venv/installed
  fi
  # The local SMTP server the mail tests send to, pinned, from PyPI.
  if [ ! -x scripts/mail/.venv/bin/python ] || [ scripts/mail/requirements.txt -nt scripts/mail/.venv/installed ]; then
    say "installing the test SMTP server's packages from PyPI"
    python3 -m venv scripts/mail/.venv
    scripts/mail/.venv/bin/pip install --quiet --disable-pip-version-check -r scripts/mail/requirements.txt
    touch scripts/mail/.venv/installed
  fi
fi
