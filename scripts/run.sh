#!/usr/bin/env bash
# Sets up whatever is missing and runs Palaver on its embedded default:
# a SQLite file under data/, the keyless demo agent, http://127.0.0.1:3000.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-tools.sh
exec cargo leptos serve "$@"
