#!/usr/bin/env python3
"""Scale curves: how Palaver's costs grow with a user's size, as ratios to the smallest size
measured in the same run, against a build of Palaver on SQLite, on 127.0.0.1 only.

    python3 scripts/scale.py [--conversations 1,10,100,1000,5000] [--messages 10,100,500,1000]
                             [--idle 1,100,500,2000] [--profile release] [--no-browser]

The model is a fake OpenAI-compatible server in this script: it records the size of every
request Palaver sends it (so "bytes sent to the model" is what crossed the wire), replies
"Noted." to a prompt, asks a choice (`ask_choice`) when the prompt says "[cycle]", and replies
"Done." to an answer. Each model is given `context=32000` tokens, so a long conversation's
turn must fit that budget.

Curves (each printed with its ratio to the first size):
- conversations: the list's latency and bytes (`GET /gpt/histories`), the chat page's
  server-rendered bytes and, in Chromium, its time to hydrate;
- messages in one conversation: reading it (`GET /gpt/histories/{id}`, latency and bytes), its
  page's bytes and hydration time, a turn's median latency, the server's CPU per turn and the
  bytes a turn sent the model;
- idle event connections of other users: the server's CPU time per prompt→ask→answer cycle.

Targets (issue 45): every curve within 1.5× from the smallest to the largest size, but the
model's input, which stays under its budget. Build first: `cargo leptos build --release --split`
(the page needs the site); `--profile debug` uses `cargo leptos build --split`'s output.
Bounded in count and time; it stops what it started.
"""

import argparse
import asyncio
import http.client
import http.server
import importlib
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import load  # noqa: E402 - the load test's client, sign-in and CPU reading

# The live-events bench's raw event-stream opener (its file name is not a module name).
open_stream = importlib.import_module("live-events-bench").open_stream

ROOT = load.ROOT
PORT = 3310
MODEL_PORT = 3311
CONTEXT_TOKENS = 32000
PLAN = load.PLAN
SAMPLES = 15
# Turns measured at each conversation size: their median latency, and the server's CPU per turn.
TURN_SAMPLES = 7


class FakeModel(http.server.BaseHTTPRequestHandler):
    """An OpenAI-compatible chat completions endpoint that streams short, scripted replies."""

    received = []  # the byte size of each request body, in order

    def log_message(self, *_):
        pass

    def do_POST(self):  # noqa: N802 - the standard library's name
        body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
        FakeModel.received.append(len(body))
        request = json.loads(body)
        last = request["messages"][-1]
        content = last.get("content") if isinstance(last.get("content"), str) else json.dumps(last.get("content"))
        if last["role"] == "user" and "[cycle]" in (content or ""):
            call = {"index": 0, "id": f"call_{len(FakeModel.received)}", "type": "function",
                    "function": {"name": "ask_choice", "arguments": json.dumps(PLAN)}}
            chunks = [{"delta": {"tool_calls": [call]}}, {"delta": {}, "finish_reason": "tool_calls"}]
        else:
            text = "Done." if last["role"] == "tool" else "Noted."
            chunks = [{"delta": {"content": text}}, {"delta": {}, "finish_reason": "stop"}]
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.end_headers()
        for chunk in chunks:
            self.wfile.write(f"data: {json.dumps({'choices': [{'index': 0, **chunk}]})}\n\n".encode())
        usage = {"prompt_tokens": len(body) // 4, "completion_tokens": 2}
        self.wfile.write(f"data: {json.dumps({'choices': [], 'usage': usage})}\n\ndata: [DONE]\n\n".encode())


def start_palaver(workdir, profile):
    env = dict(
        load.palaver_env(PORT, f"sqlite://{workdir}/scale.db?mode=rwc", workdir, os.devnull),
        PALAVER_MODEL=f"openai:scale-fake;context={CONTEXT_TOKENS}",
        PALAVER_OPENAI_BASE_URL=f"http://127.0.0.1:{MODEL_PORT}/v1",
        PALAVER_OPENAI_API_KEY="scale",
    )
    server = subprocess.Popen([os.path.join(ROOT, f"target/{profile}/palaver")], cwd=ROOT, env=env)
    load.wait_for(PORT)
    return server


def session_cookie(name):
    """A signed-up user's session cookie (the chat page reads cookies, not tokens)."""
    connection = http.client.HTTPConnection("127.0.0.1", PORT, timeout=30)
    body = json.dumps({"username": name, "password": "correct horse battery"})
    connection.request("POST", "/auth/login", body=body, headers={"Content-Type": "application/json"})
    response = connection.getresponse()
    response.read()
    return response.getheader("Set-Cookie").split(";")[0]


def timed_get(path, token=None, cookie=None):
    """The median latency (ms) and the body's bytes of `SAMPLES` GETs of `path`."""
    headers = {"Authorization": f"Bearer {token}"} if token else {"Cookie": cookie}
    connection = http.client.HTTPConnection("127.0.0.1", PORT, timeout=60)
    times, size = [], 0
    for _ in range(SAMPLES):
        started = time.perf_counter()
        connection.request("GET", path, headers=headers)
        response = connection.getresponse()
        body = response.read()
        times.append((time.perf_counter() - started) * 1000)
        if response.status != 200:
            raise RuntimeError(f"GET {path}: {response.status} {body[:200]!r}")
        size = len(body)
    return statistics.median(times), size


def hydration_ms(paths, cookie):
    """The median time to hydrate each page in Chromium, from scripts/hydration-timing.mjs."""
    script = os.path.join(ROOT, "scripts", "hydration-timing.mjs")
    result = subprocess.run(
        ["node", script, f"http://127.0.0.1:{PORT}", cookie, *paths], cwd=ROOT, check=True, capture_output=True, text=True
    )
    return json.loads(result.stdout)


def thread_cpu_ms(pid):
    """The CPU time (ms) each thread of the process now running has used, to the nanosecond
    (`/proc/<pid>/task/*/schedstat`): finer than the clock ticks of `load.cpu_seconds`, which a
    few turns do not fill. By thread id, for `cpu_ms_between`."""
    used = {}
    for task in os.listdir(f"/proc/{pid}/task"):
        try:
            with open(f"/proc/{pid}/task/{task}/schedstat") as schedstat:
                used[task] = int(schedstat.read().split()[0]) / 1e6
        except (FileNotFoundError, ProcessLookupError):
            pass  # the thread ended meanwhile
    return used


def cpu_ms_between(before, after):
    """The CPU time used between two `thread_cpu_ms` readings by the threads running at the
    second (a thread begun since counts from nothing; one ended since is left out: its time
    after the first reading is lost, a small undercount)."""
    return sum(used - before.get(task, 0.0) for task, used in after.items())


def measured_turns(client, server, history, prompt):
    """`TURN_SAMPLES` prompt turns: their median latency (ms), the server's mean CPU per turn
    (ms) and the bytes the last one's model calls were sent. Each turn adds two messages, so a
    size's turns run from two messages below it to twelve above. The latency includes the fake
    model reading what it is sent, which grows (by design) up to the budget; the server's CPU
    does not."""
    times = []
    cpu_before = thread_cpu_ms(server.pid)
    for n in range(TURN_SAMPLES):
        sent_before = len(FakeModel.received)
        started = time.perf_counter()
        client.call("POST", f"/gpt/histories/{history}/turn", {"prompt": f"{prompt} {n}"})
        times.append((time.perf_counter() - started) * 1000)
    cpu_ms = cpu_ms_between(cpu_before, thread_cpu_ms(server.pid)) / TURN_SAMPLES
    return statistics.median(times), cpu_ms, sum(FakeModel.received[sent_before:])


def print_curve(title, columns, rows):
    """`rows` are (size, values...): each value is printed with its ratio to the first row's."""
    print(f"\n{title}")
    print(f"{'size':>7} " + " ".join(f"{column:>24}" for column in columns))
    first = rows[0][1:]
    for size, *values in rows:
        shown = []
        for value, base in zip(values, first):
            ratio = f"{value / base:.2f}×" if isinstance(value, (int, float)) and base else "-"
            shown.append(f"{value:>14.1f} {ratio:>9}" if isinstance(value, (int, float)) else f"{'-':>24}")
        print(f"{size:>7} " + " ".join(shown), flush=True)


def conversations_curve(sizes, browser):
    token = load.signed_in_token(PORT, "many")
    cookie = session_cookie("many")
    client = load.Client(PORT, token)
    rows, made = [], 0
    for size in sizes:
        for n in range(made, size):
            history = client.call("POST", "/gpt/histories", {})["data"]["id"]
            client.call("POST", f"/gpt/histories/{history}/turn", {"prompt": f"conversation {n}"})
        made = size
        list_ms, list_bytes = timed_get("/gpt/histories", token=token)
        _, page_bytes = timed_get("/", cookie=cookie)
        hydrate = hydration_ms(["/"], cookie)[0] if browser else None
        rows.append((size, list_ms, list_bytes, page_bytes, hydrate))
    print_curve("conversations", ["list ms", "list bytes", "page bytes", "hydrate ms"], rows)


def messages_curve(sizes, server, browser):
    token = load.signed_in_token(PORT, "long")
    cookie = session_cookie("long")
    client = load.Client(PORT, token)
    history = client.call("POST", "/gpt/histories", {})["data"]["id"]
    rows, messages = [], 0
    for size in sizes:
        # Each turn stores two messages: the prompt and the reply.
        while messages + 2 < size:
            client.call("POST", f"/gpt/histories/{history}/turn", {"prompt": f"message {messages}: " + "words " * 40})
            messages += 2
        turn_ms, turn_cpu_ms, model_bytes = measured_turns(client, server, history, f"message {messages}: measured")
        messages += 2 * TURN_SAMPLES
        read_ms, read_bytes = timed_get(f"/gpt/histories/{history}", token=token)
        _, page_bytes = timed_get(f"/?c={history}", cookie=cookie)
        hydrate = hydration_ms([f"/?c={history}"], cookie)[0] if browser else None
        rows.append((size, read_ms, read_bytes, page_bytes, hydrate, turn_ms, turn_cpu_ms, model_bytes))
    print_curve(
        "messages in one conversation",
        ["read ms", "read bytes", "page bytes", "hydrate ms", "turn ms", "turn CPU ms", "bytes to the model"],
        rows,
    )
    print(f"(the budget: {CONTEXT_TOKENS} tokens, about {CONTEXT_TOKENS * 4} bytes of text)")


def cycle(client, history_of):
    history = history_of()
    ask = client.call("POST", f"/gpt/histories/{history}/turn", {"prompt": "[cycle] pick a plan"})["data"]["pendingAsk"]
    client.call("POST", f"/gpt/histories/{history}/turn", {"toolCallId": ask["toolCallId"], "buttonId": "option:team"})


def idle_curve(sizes, server, cycles):
    others = [load.signed_in_token(PORT, f"idle{n}") for n in range(100)]
    token = load.signed_in_token(PORT, "busy")
    client = load.Client(PORT, token)
    new_history = lambda: client.call("POST", "/gpt/histories", {})["data"]["id"]
    loop = asyncio.new_event_loop()
    streams, rows = [], []
    try:
        own = loop.run_until_complete(open_stream(PORT, token, "/gpt/events"))
        for size in sizes:
            while len(streams) < size:
                streams.append(loop.run_until_complete(open_stream(PORT, others[len(streams) % len(others)], "/gpt/events")))
            for _ in range(3):
                cycle(client, new_history)  # warm
            before = load.cpu_seconds(server.pid)
            for _ in range(cycles):
                cycle(client, new_history)
            cpu_ms = (load.cpu_seconds(server.pid) - before) * 1000 / cycles
            rows.append((size, cpu_ms, load.peak_rss_kib(server.pid) / 1024))
        own[1].close()
    finally:
        for _, writer in streams:
            writer.close()
        loop.close()
    print_curve("idle event connections of other users", ["server CPU ms/cycle", "peak RSS MiB"], rows)


def sizes(text):
    return [int(size) for size in text.split(",") if size]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--conversations", default="1,10,100,1000,5000")
    parser.add_argument("--messages", default="10,100,500,1000")
    parser.add_argument("--idle", default="1,100,500,2000")
    parser.add_argument("--cycles", type=int, default=40, help="cycles measured at each idle level")
    parser.add_argument("--profile", default="release", choices=["release", "debug"])
    parser.add_argument("--no-browser", action="store_true", help="leave out the hydration times")
    args = parser.parse_args()
    # Every idle connection is a file on both ends (the server inherits the limit).
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, 2 * max(sizes(args.idle) or [0]) + 1000), hard))

    model = http.server.ThreadingHTTPServer(("127.0.0.1", MODEL_PORT), FakeModel)
    threading.Thread(target=model.serve_forever, daemon=True).start()
    workdir = tempfile.mkdtemp(prefix="palaver-scale-")
    server = start_palaver(workdir, args.profile)
    try:
        if args.conversations:
            conversations_curve(sizes(args.conversations), not args.no_browser)
        if args.messages:
            messages_curve(sizes(args.messages), server, not args.no_browser)
        if args.idle:
            idle_curve(sizes(args.idle), server, args.cycles)
    finally:
        server.terminate()
        server.wait(timeout=10)
        model.shutdown()
        shutil.rmtree(workdir, ignore_errors=True)


if __name__ == "__main__":
    main()
