#!/usr/bin/env python3
"""Live events: latency and memory of GET /gpt/events against a release build of Palaver with
the mock model, on 127.0.0.1 only.

    python3 scripts/live-events-bench.py [--asks 200] [--idle 10000]

Latency: a user's one tab listens on /gpt/events while another runs prompt turns that stop on
an ask; for each ask, the time from the moment the store wrote it (its `expiresAt` less the
default day-long TTL: both come from one SQL statement's clock, this machine's) to its
`askCreated` arriving on the listening connection. Prints p50/p99 (the clock reads in ms).
Memory: opens `--idle` idle event streams (raw sockets, one user each of 100 users) and prints
the server's resident memory before and after, and the growth per connection.
Bounded in count and time; it stops the server it started.
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

PORT = load.PORT


def rss_kib(pid):
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


async def open_stream(token, path):
    reader, writer = await asyncio.open_connection("127.0.0.1", PORT)
    writer.write(
        f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{PORT}\r\nAuthorization: Bearer {token}\r\n"
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


async def prompt_until_ask(token, history, prompt):
    reader, writer = await asyncio.open_connection("127.0.0.1", PORT)
    body = json.dumps({"historyId": history, "prompt": prompt}).encode()
    writer.write(
        f"POST /gpt/prompt HTTP/1.1\r\nHost: 127.0.0.1:{PORT}\r\nAuthorization: Bearer {token}\r\n"
        f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n\r\n".encode() + body
    )
    await writer.drain()
    await reader.readuntil(b"\r\n\r\n")
    while True:
        event = await next_data(reader)
        if "ask" in event:
            writer.close()
            return event["ask"]["toolCallId"]


async def latency(token, asks):
    listener, writer = await open_stream(token, "/gpt/events")
    samples = []
    for index in range(asks):
        history = await asyncio.to_thread(lambda: load.Client(token).call("POST", "/gpt/histories", {})["data"]["id"])
        heard = asyncio.create_task(wait_for_ask(listener, f"call_{index}"))
        tool_call_id = await prompt_until_ask(token, history, f"cycle 0-0-{index}")
        arrived, expires_at = await asyncio.wait_for(heard, 10)
        assert tool_call_id == f"call_{index}", tool_call_id
        samples.append(arrived - stored_at(expires_at))
    writer.close()
    return samples


async def wait_for_ask(reader, tool_call_id):
    while True:
        event = await next_data(reader)
        created = event.get("askCreated", {})
        if created.get("toolCallId") == tool_call_id:
            return time.time(), created["expiresAt"]


async def idle(tokens, count):
    streams = []
    for index in range(count):
        streams.append(await open_stream(tokens[index % len(tokens)], "/gpt/events"))
    return streams


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--asks", type=int, default=200)
    parser.add_argument("--idle", type=int, default=10_000)
    args = parser.parse_args()
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, args.idle + 1000), hard))

    print("building the release server…", flush=True)
    subprocess.run(["cargo", "build", "--release", "-p", "server", "--bin", "palaver"], cwd=load.ROOT, check=True)
    workdir = tempfile.mkdtemp(prefix="palaver-live-")
    script_path = os.path.join(workdir, "mock.json")
    with open(script_path, "w") as script:
        json.dump(load.mock_script([f"cycle 0-0-{n}" for n in range(args.asks)]), script)
    server = load.start_server(workdir, script_path)
    try:
        token = load.signed_in_client("live0").token
        samples = asyncio.run(latency(token, args.asks))
        print(
            f"ask stored → askCreated on another connection ({len(samples)} asks): "
            f"p50 {load.percentile(samples, 0.5) * 1000:.2f} ms, p99 {load.percentile(samples, 0.99) * 1000:.2f} ms"
        )
        tokens = [load.signed_in_client(f"idle{n}").token for n in range(100)]
        before = rss_kib(server.pid)

        async def hold():
            streams = await idle(tokens, args.idle)
            await asyncio.sleep(2)
            after = rss_kib(server.pid)
            for _, writer in streams:
                writer.close()
            return after

        after = asyncio.run(hold())
        print(
            f"{args.idle} idle /gpt/events connections: server RSS {before / 1024:.1f} MiB → {after / 1024:.1f} MiB, "
            f"{(after - before) / args.idle:.1f} KiB each"
        )
    finally:
        server.terminate()
        server.wait(timeout=10)
        shutil.rmtree(workdir, ignore_errors=True)


if __name__ == "__main__":
    main()
