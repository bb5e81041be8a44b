#!/usr/bin/env python3
"""Load test: N concurrent users run prompt -> ask -> answer cycles through the headless API
against a release build of Palaver with the mock model, on 127.0.0.1 only.

    python3 scripts/load.py [--cycles 40] [--users 1,8,64]

Prints, per concurrency level: cycles per second, p50/p99 cycle latency, the server's CPU time
per cycle (its overhead, apart from queueing on a machine the load generator shares), and the
server's peak RSS. A cycle is two requests: POST /gpt/histories/{id}/turn {prompt} (the agent asks a choice)
and POST .../turn {toolCallId, buttonId} (the answer resumes the turn to its reply).
Bounded in count and time; it stops the server it started.
"""

import argparse
import http.client
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PORT = 3300
PLAN = {
    "prompt": "Which plan should I set up?",
    "select": "one",
    "default": ["team"],
    "options": [
        {"id": "starter", "label": "Starter"},
        {"id": "team", "label": "Team"},
        {"id": "enterprise", "label": "Enterprise"},
    ],
}


def mock_script(prompts):
    """One scripted conversation per cycle: ask a choice, then reply."""
    conversations = {
        prompt: {
            "responses": [
                {"toolCalls": [{"id": f"call_{index}", "name": "ask_choice", "input": PLAN}]},
                {"text": "Done. Your team is on the Team plan."},
            ]
        }
        for index, prompt in enumerate(prompts)
    }
    return {"responses": [], "conversations": conversations}


class Client:
    def __init__(self, token=None):
        self.connection = http.client.HTTPConnection("127.0.0.1", PORT, timeout=30)
        self.token = token

    def call(self, method, path, body=None):
        headers = {"Content-Type": "application/json", "Host": f"127.0.0.1:{PORT}"}
        if self.token:
            headers["Authorization"] = f"Bearer {self.token}"
        self.connection.request(method, path, body=json.dumps(body) if body is not None else None, headers=headers)
        response = self.connection.getresponse()
        data = response.read()
        if response.status >= 400:
            raise RuntimeError(f"{method} {path}: {response.status} {data[:200]!r}")
        return json.loads(data) if data else None


def signed_in_client(name):
    anonymous = Client()
    anonymous.call("POST", "/auth/signup", {"username": name, "password": "correct horse battery"})
    # Sign-up set a cookie; a bearer token is what headless clients use.
    session = http.client.HTTPConnection("127.0.0.1", PORT, timeout=30)
    session.request(
        "POST",
        "/auth/login",
        body=json.dumps({"username": name, "password": "correct horse battery"}),
        headers={"Content-Type": "application/json"},
    )
    response = session.getresponse()
    cookie = response.getheader("Set-Cookie").split(";")[0]
    response.read()
    session.request(
        "POST",
        "/auth/tokens",
        body=json.dumps({"name": "load"}),
        headers={"Content-Type": "application/json", "Cookie": cookie, "Origin": f"http://127.0.0.1:{PORT}"},
    )
    token = json.loads(session.getresponse().read())["token"]
    return Client(token)


def run_user(client, prompts, latencies, errors):
    for prompt in prompts:
        try:
            started = time.perf_counter()
            history = client.call("POST", "/gpt/histories", {})["data"]["id"]
            first = client.call("POST", f"/gpt/histories/{history}/turn", {"prompt": prompt})["data"]
            ask = first["pendingAsk"]
            second = client.call(
                "POST",
                f"/gpt/histories/{history}/turn",
                {"toolCallId": ask["toolCallId"], "buttonId": "option:team"},
            )["data"]
            assert second["text"] == "Done. Your team is on the Team plan.", second
            latencies.append(time.perf_counter() - started)
        except Exception as error:  # noqa: BLE001 - reported below
            errors.append(str(error))


def start_server(workdir, script_path):
    """Starts the release build on PORT with the mock model's `script_path` and a fresh
    database in `workdir`; returns once it answers /health."""
    env = dict(
        os.environ,
        LEPTOS_OUTPUT_NAME="palaver",
        LEPTOS_SITE_ROOT="target/site",
        LEPTOS_SITE_PKG_DIR="pkg",
        LEPTOS_SITE_ADDR=f"127.0.0.1:{PORT}",
        PALAVER_DATABASE_URL=f"sqlite://{workdir}/palaver.db?mode=rwc",
        PALAVER_DATA_DIR=workdir,
        PALAVER_MODEL=f"mock:{script_path}",
        PALAVER_OPEN_SIGNUP="true",
        RUST_LOG="warn",
    )
    server = subprocess.Popen([os.path.join(ROOT, "target/release/palaver")], cwd=ROOT, env=env)
    for _ in range(100):
        try:
            Client().call("GET", "/health")
            break
        except Exception:  # noqa: BLE001 - not up yet
            time.sleep(0.1)
    return server


def peak_rss_kib(pid):
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmHWM:"):
                return int(line.split()[1])
    return 0


def cpu_seconds(pid):
    """User + system CPU time the process has used so far."""
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def percentile(values, fraction):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(fraction * (len(ordered) - 1))))]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cycles", type=int, default=40, help="cycles per user at each level")
    parser.add_argument("--users", default="1,8,64", help="concurrency levels")
    args = parser.parse_args()
    levels = [int(level) for level in args.users.split(",")]

    print("building the release server…", flush=True)
    subprocess.run(["cargo", "build", "--release", "-p", "server", "--bin", "palaver"], cwd=ROOT, check=True)

    workdir = tempfile.mkdtemp(prefix="palaver-load-")
    plan = {level: [[f"cycle {level}-{user}-{n}" for n in range(args.cycles)] for user in range(level)] for level in levels}
    script_path = os.path.join(workdir, "mock.json")
    with open(script_path, "w") as script:
        json.dump(mock_script([p for level in levels for user in plan[level] for p in user]), script)

    server = start_server(workdir, script_path)
    try:
        print(f"{'users':>5} {'cycles':>7} {'cycles/s':>9} {'p50 ms':>8} {'p99 ms':>8} {'server CPU ms/cycle':>20} {'peak RSS MiB':>13}")
        for level in levels:
            clients = [signed_in_client(f"load{level}x{user}") for user in range(level)]
            latencies, errors = [], []
            threads = [
                threading.Thread(target=run_user, args=(client, prompts, latencies, errors))
                for client, prompts in zip(clients, plan[level])
            ]
            started = time.perf_counter()
            cpu_before = cpu_seconds(server.pid)
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join(timeout=300)
            elapsed = time.perf_counter() - started
            server_cpu_ms = (cpu_seconds(server.pid) - cpu_before) * 1000 / max(len(latencies), 1)
            if errors:
                print(f"{len(errors)} errors, first: {errors[0]}", file=sys.stderr)
            print(
                f"{level:>5} {len(latencies):>7} {len(latencies) / elapsed:>9.1f} "
                f"{statistics.median(latencies) * 1000:>8.2f} {percentile(latencies, 0.99) * 1000:>8.2f} "
                f"{server_cpu_ms:>20.2f} {peak_rss_kib(server.pid) / 1024:>13.1f}",
                flush=True,
            )
    finally:
        server.terminate()
        server.wait(timeout=10)
        shutil.rmtree(workdir, ignore_errors=True)


if __name__ == "__main__":
    main()
