#!/usr/bin/env bash
# Sets up whatever is missing and runs Palaver on its embedded default:
# a SQLite file under data/, the keyless demo agent, http://127.0.0.1:3000.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-tools.sh
# The demo shows an html block ("invoice preview"); the product's own default keeps html off.
export PALAVER_UI_BLOCKS_HTML="${PALAVER_UI_BLOCKS_HTML:-true}"
# MCP Apps (the views MCP servers give their tools) are drawn from a second origin Palaver serves.
export PALAVER_APPS_ADDR="${PALAVER_APPS_ADDR:-127.0.0.1:3001}"
exec cargo leptos serve --split "$@"
