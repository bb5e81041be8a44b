#!/usr/bin/env bash
# Runs the libFuzzer targets in fuzz/ (cargo fuzz, on the nightly toolchain; no sanitizer by
# default, since the contract and its parsers are safe Rust: FUZZ_SANITIZER=address for ASan),
# each for SECONDS (default 60), two at a time on the machine's two cores, from a corpus seeded
# with the contract's fixtures and fuzz/seeds. Prints each target's executions and crashes; exits
# non-zero if any target crashed (its input is kept in fuzz/artifacts/<target>/).
#   scripts/fuzz.sh                 every target for a minute (what scripts/test.sh runs)
#   scripts/fuzz.sh 3600 blocks_yaml  one target for an hour
set -euo pipefail
cd "$(dirname "$0")/.."

SECONDS_EACH="${1:-60}"
shift || true
TARGETS=("$@")
if [ ${#TARGETS[@]} -eq 0 ]; then
  TARGETS=(ask_input ask_answer blocks_yaml blocks_json sanitize_html sse_decoder multipart_upload turn_body)
fi
FUZZ=(cargo +nightly fuzz)
SANITIZER=(--sanitizer "${FUZZ_SANITIZER:-none}")
command -v cargo-fuzz > /dev/null || { echo "cargo-fuzz is missing: run scripts/install-tools.sh --test" >&2; exit 1; }

seed() {
  local target=$1 corpus=fuzz/corpus/$1
  mkdir -p "$corpus"
  case $target in
    ask_input) cp contract/fixtures/asks/valid/*.json contract/fixtures/asks/invalid/*.json "$corpus"/ ;;
    blocks_yaml) find contract/fixtures/blocks -type f -name '*.yaml' -exec cp {} "$corpus"/ \; ;;
    ask_answer)
      # Each fixture's button answers, after the byte that picks its ask (the target's order).
      python3 - "$corpus" <<'PY'
import json, sys, pathlib
fixtures = ["choice-many-every-choice-with-other", "confirm-destructive-delete", "markdown-announcement-draft",
            "form-eight-fields", "files-every-type", "questions-logo-shade-and-sizes"]
out = pathlib.Path(sys.argv[1])
for index, name in enumerate(fixtures):
    fixture = json.loads(pathlib.Path(f"contract/fixtures/asks/valid/{name}.json").read_text())
    answers = [button["response"] for button in (fixture.get("simple") or {}).get("buttons", [])]
    answers += [{"action": "decline"}, {"action": "cancel", "reason": "user"}, {"action": "accept", "content": {}}]
    for n, answer in enumerate(answers):
        (out / f"{name}-{n}").write_bytes(bytes([index]) + json.dumps(answer).encode())
PY
      ;;
  esac
  [ -d "fuzz/seeds/$target" ] && cp fuzz/seeds/"$target"/* "$corpus"/
  return 0
}

echo "==> building the fuzz targets"
"${FUZZ[@]}" build "${SANITIZER[@]}" > /dev/null

failed=0
summary=()
run() {
  local target=$1 log=fuzz/logs/$1.log
  seed "$target"
  "${FUZZ[@]}" run "${SANITIZER[@]}" "$target" "fuzz/corpus/$target" -- \
    -max_total_time="$SECONDS_EACH" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 > "$log" 2>&1
}
mkdir -p fuzz/logs
report() {
  local target=$1 status=$2 log=fuzz/logs/$1.log runs crashes
  runs=$(grep -o 'stat::number_of_executed_units: [0-9]*' "$log" | awk '{print $2}' | tail -1)
  crashes=$(grep -c 'Test unit written to' "$log" || true)
  summary+=("$(printf '%-18s %12s executions  %3s crash inputs  (exit %s)' "$target" "${runs:-?}" "$crashes" "$status")")
  if [ "$status" -ne 0 ]; then
    failed=1
    echo "--- $target failed; the end of its log:" >&2
    tail -30 "$log" >&2
  fi
}
# Two at a time: one per core.
for ((i = 0; i < ${#TARGETS[@]}; i += 2)); do
  pids=()
  for target in "${TARGETS[@]:i:2}"; do
    echo "==> fuzzing $target for ${SECONDS_EACH}s"
    run "$target" & pids+=("$!")
  done
  j=0
  for target in "${TARGETS[@]:i:2}"; do
    status=0
    wait "${pids[$j]}" || status=$?
    report "$target" "$status"
    j=$((j + 1))
  done
done
printf '%s\n' "${summary[@]}"
exit $failed
