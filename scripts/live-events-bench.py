#!/usr/bin/env python3
"""Live events: latency and memory of GET /gpt/events against a release build of Palaver with
the mock model, on 127.0.0.1 only; and, with two instances on one PostgreSQL, how long what one
instance does takes to reach the other.

    python3 scripts/live-events-bench.py [--asks 200] [--stops 50] [--idle 10000]
                                         [--setups sqlite,postgres-2]

Latency: a user's one tab listens on /gpt/events while another runs prompt turns that stop on
an ask; for each ask, the time from the moment the store wrote it (its `expiresAt` less the
default day-long TTL: both come from one SQL statement's clock, this machine's) to its
`askCreated` arriving on the listening connection. Prints p50/p99 (the clock reads in ms).
With `postgres-2` the prompts go to the first instance and the listener to the second; and
Stop: a slow reply runs on the first instance, Stop is sent to the second, and the time from
sending it to the reply's `{done}` on the first is measured.
Memory (on sqlite): opens `--idle` idle event streams (raw sockets, one user each of 100 users)
and prints the server's resident memory before and after, and the growth per connection.
Bounded in count and time; it stops what it started.
"""

import argparse
import asyncio
import datetime
import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import load  # noqa: E402 - the load test's server settings and sign-in



def rss_kib(pid):
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


async def open_stream(port, token, path):
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(
        f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nAuthorization: Bearer {token}\r\n"
        "Accept: text/event-stream\r\n\r\n".encode()
    )
    await writer.drain()
    head = await reader.readuntil(b"\r\n\r\n")
    if b" 200 " not in head.split(b"\r\n")[0]:
        raise RuntimeError(head[:200])
    return reader, writer


async def next_data(reader):
    """The next `data:` payload of a chunked SSE body."""
    while True:
        line = await reader.readline()
        if not line:
            raise EOFError
        if line.startswith(b"data: "):
            return json.loads(line[6:])


def stored_at(expires_at):
    """The moment an ask with this `expiresAt` was stored (the default TTL is one day)."""
    deadline = datetime.datetime.strptime(expires_at, "%Y-%m-%dT%H:%M:%S.%fZ").replace(tzinfo=datetime.timezone.utc)
    return deadline.timestamp() - 86_400


async def start_prompt(port, token, history, prompt):
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    body = json.dumps({"historyId": history, "prompt": prompt}).encode()
    writer.write(
        f"POST /gpt/prompt HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nAuthorization: Bearer {token}\r\n"
        f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n\r\n".encode() + body
    )
    await writer.drain()
    await reader.readuntil(b"\r\n\r\n")
    return reader, writer


async def prompt_until(port, token, history, prompt, wanted):
    """Runs a prompt until an event has `wanted`; that event and the open stream."""
    reader, writer = await start_prompt(port, token, history, prompt)
    while True:
        event = await next_data(reader)
        if wanted in event:
            return event, reader, writer


def new_history(port, token):
    return load.Client(port, token).call("POST", "/gpt/histories", {})["data"]["id"]


async def latency(ports, token, asks):
    """`ports`: where the prompts go, where the listener listens."""
    listener, writer = await open_stream(ports[1], token, "/gpt/events")
    samples = []
    for index in range(asks):
        history = await asyncio.to_thread(new_history, ports[0], token)
        heard = asyncio.create_task(wait_for_ask(listener, history))
        event, _, asking = await prompt_until(ports[0], token, history, f"ask {index}", "ask")
        asking.close()
        arrived, created = await asyncio.wait_for(heard, 10)
        assert created["toolCallId"] == event["ask"]["toolCallId"], created
        samples.append(arrived - stored_at(created["expiresAt"]))
    writer.close()
    return samples


async def wait_for_ask(reader, history):
    """When the conversation `history`'s ask was heard, and its `askCreated`."""
    while True:
        event = await next_data(reader)
        created = event.get("askCreated", {})
        if created.get("historyId") == history:
            return time.time(), created


async def stop_latency(ports, token, stops):
    """A slow reply on the first instance, Stop sent to the second: seconds to its `{done}`."""
    samples = []
    for index in range(stops):
        history = await asyncio.to_thread(new_history, ports[0], token)
        _, reader, writer = await prompt_until(ports[0], token, history, f"stop {index}", "delta")
        sent = time.perf_counter()
        stopped = await asyncio.to_thread(
            lambda: load.Client(ports[1], token).call_form("/api/stop_turn", f"id={history}")
        )
        assert stopped == "true", stopped
        while "done" not in await next_data(reader):
            pass
        samples.append(time.perf_counter() - sent)
        writer.close()
    return samples


async def idle(port, tokens, count):
    streams = []
    for index in range(count):
        streams.append(await open_stream(port, tokens[index % len(tokens)], "/gpt/events"))
    return streams


def scripts(asks, stops, instances):
    """The mock scripts: `ask <n>` asks a choice, `stop <n>` replies slowly (on the first)."""
    asking = load.mock_scripts([f"ask {n}" for n in range(asks)], 1)[0]["conversations"]
    for n in range(stops):
        asking[f"stop {n}"] = {"responses": [{"parts": ["word "] * 100, "chunkDelayMs": 100}]}
    return [{"responses": [], "conversations": asking}] + [{"responses": []}] * (instances - 1)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--asks", type=int, default=200)
    parser.add_argument("--stops", type=int, default=50)
    parser.add_argument("--idle", type=int, default=10_000)
    parser.add_argument("--setups", default="sqlite,postgres-2")
    args = parser.parse_args()
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, args.idle + 1000), hard))

    print("building the release server…", flush=True)
    subprocess.run(["cargo", "build", "--release", "-p", "palaver-server", "--bin", "palaver"], cwd=load.ROOT, check=True)
    workdir = tempfile.mkdtemp(prefix="palaver-live-")
    setups = args.setups.split(",")
    postgres = load.Postgres(workdir) if "postgres-2" in setups else None
    try:
        for setup in setups:
            instances = 2 if setup == "postgres-2" else 1
            data_dir = tempfile.mkdtemp(prefix=f"{setup}-", dir=workdir)
            url = postgres.database() if instances == 2 else f"sqlite://{data_dir}/palaver.db?mode=rwc"
            ports = [load.PORTS[n] for n in range(instances)]
            servers = [
                load.start_palaver(port, url, data_dir, script)
                for port, script in zip(ports, scripts(args.asks, args.stops, instances))
            ]
            ports = [ports[0], ports[-1]]
            try:
                token = load.signed_in_token(ports[0], "live0")
                where = "the other instance" if instances == 2 else "another connection"
                samples = asyncio.run(latency(ports, token, args.asks))
                print(
                    f"{setup}: ask stored → askCreated on {where} ({len(samples)} asks): "
                    f"p50 {load.percentile(samples, 0.5) * 1000:.2f} ms, p99 {load.percentile(samples, 0.99) * 1000:.2f} ms"
                )
                if args.stops:
                    samples = asyncio.run(stop_latency(ports, token, args.stops))
                    print(
                        f"{setup}: Stop sent to {'the other instance' if instances == 2 else 'the instance'} → "
                        f"the reply's done ({len(samples)} stops): p50 {load.percentile(samples, 0.5) * 1000:.2f} ms, "
                        f"p99 {load.percentile(samples, 0.99) * 1000:.2f} ms"
                    )
                if instances == 1 and args.idle:
                    server = servers[0]
                    tokens = [load.signed_in_token(ports[0], f"idle{n}") for n in range(100)]
                    before = rss_kib(server.pid)

                    async def hold():
                        streams = await idle(ports[0], tokens, args.idle)
                        await asyncio.sleep(2)
                        after = rss_kib(server.pid)
                        for _, writer in streams:
                            writer.close()
                        return after

                    after = asyncio.run(hold())
                    print(
                        f"{setup}: {args.idle} idle /gpt/events connections: server RSS {before / 1024:.1f} MiB → "
                        f"{after / 1024:.1f} MiB, {(after - before) / args.idle:.1f} KiB each"
                    )
            finally:
                for server in servers:
                    server.terminate()
                    server.wait(timeout=10)
    finally:
        if postgres:
            postgres.stop()
        shutil.rmtree(workdir, ignore_errors=True)


if __name__ == "__main__":
    main()
