#!/usr/bin/env python3
"""Soak: N users run prompt -> ask -> answer cycles for a long time against a release build with
the keyless demo agent (no per-cycle script that grows with the run), on SQLite, on 127.0.0.1.

    cargo leptos build --release --split   # or: cargo build --release -p palaver-server
    python3 scripts/soak.py [--minutes 60] [--users 16]

A cycle is POST /gpt/histories, POST .../turn {prompt: "Set up a plan"} (the demo asks a choice)
and POST .../turn {toolCallId, buttonId: "option:team"} (its reply). Every minute it prints the
cycles done in that minute, their p50/p99, the server's RSS and open file descriptors; at the end,
the RSS growth per cycle in each half of the run, which says whether memory levels off (a leak
grows at the same rate in both halves). It stops what it started.
"""

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from load import ROOT, Client, percentile, signed_in_token, wait_for  # noqa: E402

PORT = 3310


def rss_kib(pid):
    with open(f"/proc/{pid}/status") as status:
        line = next(line for line in status if line.startswith("VmRSS:"))
    return int(line.split()[1])


def open_fds(pid):
    return len(os.listdir(f"/proc/{pid}/fd"))


def cycle(client):
    history = client.call("POST", "/gpt/histories", {})["data"]["id"]
    asked = client.call("POST", f"/gpt/histories/{history}/turn", {"prompt": "Set up a plan"})["data"]
    ask = asked["pendingAsk"]
    body = {"toolCallId": ask["toolCallId"], "buttonId": "option:team"}
    reply = client.call("POST", f"/gpt/histories/{history}/turn", body)["data"]
    if not reply.get("text"):
        raise RuntimeError(f"no reply: {reply}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--minutes", type=float, default=60)
    parser.add_argument("--users", type=int, default=16)
    args = parser.parse_args()
    binary = os.path.join(ROOT, "target/release/palaver")
    if not os.path.exists(binary):
        sys.exit("build the release server first: cargo build --release -p palaver-server")

    workdir = tempfile.mkdtemp(prefix="palaver-soak-")
    env = dict(
        os.environ,
        LEPTOS_OUTPUT_NAME="palaver",
        LEPTOS_SITE_ROOT="target/site",
        LEPTOS_SITE_PKG_DIR="pkg",
        LEPTOS_SITE_ADDR=f"127.0.0.1:{PORT}",
        PALAVER_DATABASE_URL=f"sqlite://{workdir}/soak.db?mode=rwc",
        PALAVER_DATA_DIR=workdir,
        PALAVER_MODEL="demo",
        PALAVER_OPEN_SIGNUP="true",
        PALAVER_SIGNUPS_PER_HOUR="100000",
        PALAVER_MAX_TURNS_PER_USER="4",
        RUST_LOG="warn",
    )
    server = subprocess.Popen([binary], cwd=ROOT, env=env)
    try:
        wait_for(PORT)
        clients = [Client(PORT, signed_in_token(PORT, f"soak{n}")) for n in range(args.users)]
        deadline = time.monotonic() + args.minutes * 60
        lock = threading.Lock()
        latencies, errors = [], []

        def user(client):
            while time.monotonic() < deadline:
                started = time.perf_counter()
                try:
                    cycle(client)
                except Exception as error:  # noqa: BLE001 - counted and shown below
                    with lock:
                        errors.append(str(error))
                    client.connection.close()
                    continue
                with lock:
                    latencies.append(time.perf_counter() - started)

        threads = [threading.Thread(target=user, args=(client,), daemon=True) for client in clients]
        for thread in threads:
            thread.start()
        samples = []  # (minute, cycles so far, rss KiB, fds)
        print(f"{args.users} users for {args.minutes:g} min; pid {server.pid}")
        print("minute  cycles/s   p50 ms   p99 ms   RSS MiB   fds  errors")
        seen, minute = 0, 0
        while time.monotonic() < deadline:
            time.sleep(min(60, max(0.1, deadline - time.monotonic())))
            minute += 1
            with lock:
                window = latencies[seen:]
                seen = len(latencies)
                failed = len(errors)
            rss, fds = rss_kib(server.pid), open_fds(server.pid)
            samples.append((minute, seen, rss, fds))
            p50 = percentile(window, 0.5) * 1000 if window else 0
            p99 = percentile(window, 0.99) * 1000 if window else 0
            print(f"{minute:6} {len(window) / 60:9.1f} {p50:8.1f} {p99:8.1f} {rss / 1024:9.1f} {fds:5} {failed:7}", flush=True)
        for thread in threads:
            thread.join(timeout=120)

        total = len(latencies)
        print(f"\n{total} cycles, {len(errors)} errors, {total / (args.minutes * 60):.1f} cycles/s overall")
        if latencies:
            print(f"p50 {statistics.median(latencies) * 1000:.1f} ms, p99 {percentile(latencies, 0.99) * 1000:.1f} ms")
        for error in sorted(set(errors))[:5]:
            print(f"  error: {error}")
        if len(samples) >= 4:
            half = len(samples) // 2
            for name, part in (("first half", samples[:half]), ("second half", samples[half - 1 :])):
                (_, cycles_from, rss_from, _), (_, cycles_to, rss_to, _) = part[0], part[-1]
                grown = (rss_to - rss_from) * 1024 / max(1, cycles_to - cycles_from)
                print(f"RSS growth, {name}: {grown:.0f} bytes per cycle ({rss_from / 1024:.1f} -> {rss_to / 1024:.1f} MiB)")
    finally:
        server.terminate()
        try:
            server.wait(timeout=20)
        except subprocess.TimeoutExpired:
            server.kill()


if __name__ == "__main__":
    main()
