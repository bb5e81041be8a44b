#!/usr/bin/env python3
"""Load test: N concurrent users run prompt -> ask -> answer cycles through the headless API
against release builds of Palaver with the mock model, on 127.0.0.1 only.

    python3 scripts/load.py [--cycles 40] [--users 1,8,64]
                            [--setups sqlite,postgres,postgres-2,bare-sqlite,bare-postgres]

Setups: one instance on SQLite; one on PostgreSQL; two on one PostgreSQL (each cycle's prompt
goes to the first, its answer to the second); and the bare limit on each database: an axum
server (server/examples/bare_cycle.rs) doing only the same number of inserts per request as
Palaver does (counted from a real cycle first) and one guarded update, so Palaver's overhead is
a ratio. PostgreSQL is a throw-away cluster (scripts/postgres.sh) with its default settings but
durability off; the load generator shares the machine's 2 cores.

Prints, per setup and concurrency level: cycles per second, p50/p99 cycle latency, the servers'
CPU time per cycle (their overhead, apart from queueing), PostgreSQL's CPU time per cycle, and
the servers' peak RSS. A Palaver cycle is
three requests: POST /gpt/histories, POST /gpt/histories/{id}/turn {prompt} (the agent asks a
choice) and POST .../turn {toolCallId, buttonId} (the answer resumes the turn to its reply).
Bounded in count and time; it stops what it started.
"""

import argparse
import http.client
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PORTS = (3300, 3301)
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
REPLY = "Done. Your team is on the Team plan."


def mock_scripts(prompts, instances):
    """One scripted conversation per cycle: ask a choice, then reply. With two instances the
    first asks (it gets the prompts) and the second replies (it gets the answers)."""
    ask = lambda index: {"toolCalls": [{"id": f"call_{index}", "name": "ask_choice", "input": PLAN}]}
    reply = {"text": REPLY}
    if instances == 1:
        steps = [lambda index: [ask(index), reply]]
    else:
        steps = [lambda index: [ask(index)], lambda index: [reply]]
    return [
        {"responses": [], "conversations": {prompt: {"responses": step(index)} for index, prompt in enumerate(prompts)}}
        for step in steps
    ]


class Client:
    def __init__(self, port, token=None):
        self.port = port
        self.connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        self.token = token

    def call(self, method, path, body=None, raw=False):
        headers = {"Content-Type": "application/json", "Host": f"127.0.0.1:{self.port}"}
        if self.token:
            headers["Authorization"] = f"Bearer {self.token}"
        self.connection.request(method, path, body=json.dumps(body) if body is not None else None, headers=headers)
        response = self.connection.getresponse()
        data = response.read()
        if response.status >= 400:
            raise RuntimeError(f"{method} {path}: {response.status} {data[:200]!r}")
        if raw:
            return data.decode()
        return json.loads(data) if data else None

    def call_form(self, path, form):
        """A server function (`/api/...`), its arguments form-encoded; the raw reply."""
        headers = {"Content-Type": "application/x-www-form-urlencoded", "Host": f"127.0.0.1:{self.port}"}
        if self.token:
            headers["Authorization"] = f"Bearer {self.token}"
        self.connection.request("POST", path, body=form, headers=headers)
        response = self.connection.getresponse()
        data = response.read().decode()
        if response.status >= 400:
            raise RuntimeError(f"POST {path}: {response.status} {data[:200]!r}")
        return data


def wait_for(port, path="/health"):
    for _ in range(300):
        try:
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
            connection.request("GET" if path == "/health" else "POST", path)
            connection.getresponse().read()
            return
        except OSError:
            time.sleep(0.1)
    raise RuntimeError(f"nothing answered on port {port}")


def signed_in_token(port, name):
    Client(port).call("POST", "/auth/signup", {"username": name, "password": "correct horse battery"})
    # Sign-up set a cookie; a bearer token is what headless clients use.
    session = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
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
        headers={"Content-Type": "application/json", "Cookie": cookie, "Origin": f"http://127.0.0.1:{port}"},
    )
    return json.loads(session.getresponse().read())["token"]


def palaver_cycle(asker, answerer, prompt):
    history = asker.call("POST", "/gpt/histories", {})["data"]["id"]
    ask = asker.call("POST", f"/gpt/histories/{history}/turn", {"prompt": prompt})["data"]["pendingAsk"]
    body = {"toolCallId": ask["toolCallId"], "buttonId": "option:team"}
    second = answerer.call("POST", f"/gpt/histories/{history}/turn", body)["data"]
    assert second["text"] == REPLY, second


def bare_cycle(client, _answerer, _prompt):
    history = client.call("POST", "/histories", raw=True)
    client.call("POST", f"/histories/{history}/prompt", raw=True)
    client.call("POST", f"/histories/{history}/answer", raw=True)


def run_user(cycle, asker, answerer, prompts, latencies, errors):
    for prompt in prompts:
        try:
            started = time.perf_counter()
            cycle(asker, answerer, prompt)
            latencies.append(time.perf_counter() - started)
        except Exception as error:  # noqa: BLE001 - reported below
            errors.append(str(error))


def palaver_env(port, database_url, data_dir, script_path, log_sql=False):
    return dict(
        os.environ,
        LEPTOS_OUTPUT_NAME="palaver",
        LEPTOS_SITE_ROOT="target/site",
        LEPTOS_SITE_PKG_DIR="pkg",
        LEPTOS_SITE_ADDR=f"127.0.0.1:{port}",
        PALAVER_DATABASE_URL=database_url,
        PALAVER_DATA_DIR=data_dir,
        PALAVER_MODEL=f"mock:{script_path}",
        PALAVER_OPEN_SIGNUP="true",
        PALAVER_SIGNUPS_PER_HOUR="100000",
        # Enough for 64 users' turns at once, on each instance.
        PALAVER_DATABASE_MAX_CONNECTIONS="16",
        # The benches open thousands of connections from this one address.
        PALAVER_MAX_CONNECTIONS_PER_CLIENT="100000",
        # A bench's kept-alive connections sit idle while its other users sign in (argon2).
        PALAVER_HEADER_TIMEOUT_SECONDS="300",
        RUST_LOG="warn,sqlx::query=debug" if log_sql else "warn",
    )


def start_palaver(port, database_url, data_dir, script, log=None, binary="release"):
    script_path = os.path.join(data_dir, f"mock-{port}.json")
    with open(script_path, "w") as file:
        json.dump(script, file)
    server = subprocess.Popen(
        [os.path.join(ROOT, f"target/{binary}/palaver")],
        cwd=ROOT,
        env=palaver_env(port, database_url, data_dir, script_path, log_sql=log is not None),
        stderr=log,
    )
    wait_for(port)
    return server


def cycle_statements(workdir, binary):
    """The statements one Palaver cycle runs, from sqlx's statement log, as
    (the prompt's, including the conversation's own; the answer's): each a list of the
    statements' summaries (their first words). The cycle counted is the user's second: what the
    first reads once a minute (the settings, preferences, webhooks and devices it keeps, the
    token's last use) is not part of every cycle."""
    log_path = os.path.join(workdir, "statements.log")
    with open(log_path, "w") as log:
        script = mock_scripts(["warm up", "count"], 1)[0]
        server = start_palaver(PORTS[0], f"sqlite://{workdir}/count.db?mode=rwc", workdir, script, log=log, binary=binary)
        try:
            client = Client(PORTS[0], signed_in_token(PORTS[0], "counter"))
            marks = []

            def cycle(prompt):
                history = client.call("POST", "/gpt/histories", {})["data"]["id"]
                ask = client.call("POST", f"/gpt/histories/{history}/turn", {"prompt": prompt})["data"]["pendingAsk"]
                mark()
                answer = {"toolCallId": ask["toolCallId"], "buttonId": "option:team"}
                client.call("POST", f"/gpt/histories/{history}/turn", answer)
                mark()

            def mark():
                time.sleep(0.3)  # what the request's task still writes after its reply
                log.flush()
                marks.append(os.path.getsize(log_path))

            cycle("warm up")
            cycle("count")
        finally:
            server.terminate()
            server.wait(timeout=10)
    with open(log_path, "rb") as log:
        raw = log.read()
    uncoloured = lambda part: re.sub(rb"\x1b\[[0-9;]*m", b"", part)  # the log's colours
    # Each statement's summary, and its text when the summary does not hold all of it (its
    # line breaks logged as `\n`), with its spaces made single.
    logged = lambda part: re.findall(rb'summary="([^"]*)"[^\n]*?db\.statement="([^"]{0,200})', uncoloured(part))
    text = lambda summary, statement: re.sub(rb"(\\n|\s)+", b" ", statement or summary).strip().decode(errors="replace")
    of_cycle = lambda part: [
        summary.decode() for summary, statement in logged(part) if not text(summary, statement).startswith(BACKGROUND)
    ]
    return of_cycle(raw[marks[1] : marks[2]]), of_cycle(raw[marks[2] : marks[3]])


# What runs beside the cycles, on its own clock, and lands in the log between the marks or not:
# the expiry sweep's and the draft sweep's reads (each once a second), the draft sweep's removal
# of old swept drafts, and a new pool connection's setup. Matched on the statements' text.
BACKGROUND = (
    "SELECT id, CAST(pending_ask AS",
    "SELECT d.turn_id, d.history_id, d.user_id",
    "DELETE FROM turn_drafts WHERE swept_first_seq",
    "PRAGMA ",
)


def count_inserts(statements):
    inserts = lambda part: sum(1 for summary in part if summary.startswith("INSERT"))
    return inserts(statements[0]), inserts(statements[1])


def print_census(statements):
    """Each request's statements, grouped by their summary, most frequent first."""
    for request, part in zip(("prompt (with the conversation's creation)", "answer"), statements):
        print(f"{len(part)} statements with the {request}:")
        for summary in sorted(set(part), key=lambda summary: (-part.count(summary), summary)):
            print(f"  {part.count(summary):>3} × {summary}")
    print(f"{sum(len(part) for part in statements)} statements per cycle")


def table_bytes(database):
    """Each table's bytes on disk, its indexes included (SQLite's dbstat)."""
    import sqlite3

    connection = sqlite3.connect(f"file:{database}?mode=ro", uri=True)
    try:
        owners = dict(connection.execute("SELECT name, tbl_name FROM sqlite_master WHERE type IN ('table', 'index')"))
        sizes = {}
        for name, size in connection.execute("SELECT name, SUM(pgsize) FROM dbstat GROUP BY name"):
            table = owners.get(name, name)
            sizes[table] = sizes.get(table, 0) + size
        (text,) = connection.execute("SELECT COALESCE(SUM(LENGTH(prompt) + LENGTH(response)), 0) FROM ai_requests").fetchone()
        return sizes, text
    finally:
        connection.close()


def storage_growth(workdir, binary, cycles):
    """What the database grows by per prompt→ask→answer cycle on SQLite, table by table, and how
    much of it the request log's text (let go after PALAVER_REQUEST_TEXT_DAYS) and the live
    events (an hour) are."""
    prompts = [f"grow {n}" for n in range(cycles + 1)]
    database = os.path.join(workdir, "growth.db")
    server = start_palaver(PORTS[0], f"sqlite://{database}?mode=rwc", workdir, mock_scripts(prompts, 1)[0], binary=binary)
    try:
        client = Client(PORTS[0], signed_in_token(PORTS[0], "grower"))
        palaver_cycle(client, client, prompts[0])
        time.sleep(0.3)
        before, text_before = table_bytes(database)
        for prompt in prompts[1:]:
            palaver_cycle(client, client, prompt)
        time.sleep(0.3)
        after, text_after = table_bytes(database)
    finally:
        server.terminate()
        server.wait(timeout=10)
    grown = {table: (after.get(table, 0) - before.get(table, 0)) / cycles for table in after}
    print(f"the database grows {sum(grown.values()) / 1024:.2f} KiB per cycle over {cycles} cycles (pages on disk):")
    for table, size in sorted(grown.items(), key=lambda item: -item[1]):
        if size > 0:
            print(f"  {size / 1024:>7.2f} KiB  {table}")
    text = (text_after - text_before) / cycles
    live = grown.get("live_events", 0)
    print(
        f"of which the request log's prompt and reply text, let go after PALAVER_REQUEST_TEXT_DAYS, is "
        f"{text / 1024:.2f} KiB of characters and the live events, let go after an hour, {live / 1024:.2f} KiB"
    )


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


class Postgres:
    """A throw-away cluster; `database()` gives a fresh database's URL."""

    def __init__(self, workdir):
        self.dir = os.path.join(workdir, "postgres")
        self.url = subprocess.run(
            [os.path.join(ROOT, "scripts/postgres.sh"), "start", self.dir], check=True, capture_output=True, text=True
        ).stdout.strip()
        self.count = 0

    def database(self):
        self.count += 1
        name = f"palaver_load_{self.count}"
        subprocess.run(["psql", self.url, "-qc", f"CREATE DATABASE {name}"], check=True)
        base, query = self.url.split("?", 1) if "?" in self.url else (self.url, "")
        return base.rsplit("/", 1)[0] + f"/{name}" + (f"?{query}" if query else "")

    def cpu_seconds(self):
        """CPU time of the cluster's processes so far: the postmaster, its live backends, and
        the backends that ended (counted into the postmaster's children's time)."""
        with open(os.path.join(self.dir, "data", "postmaster.pid")) as pid_file:
            postmaster = int(pid_file.readline())
        with open(f"/proc/{postmaster}/stat") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
        total = sum(int(field) for field in fields[11:15]) / os.sysconf("SC_CLK_TCK")
        children = subprocess.run(["ps", "-o", "pid=", "--ppid", str(postmaster)], capture_output=True, text=True)
        for pid in children.stdout.split():
            try:
                total += cpu_seconds(int(pid))
            except OSError:
                pass  # ended meanwhile: counted with the postmaster's children
        return total

    def stop(self):
        subprocess.run([os.path.join(ROOT, "scripts/postgres.sh"), "stop", self.dir], check=False)


def start_setup(setup, workdir, postgres, prompts, inserts):
    """The servers of `setup` and how a cycle talks to them."""
    data_dir = tempfile.mkdtemp(prefix=f"{setup}-", dir=workdir)
    if setup.startswith("bare-"):
        url = f"sqlite://{data_dir}/bare.db?mode=rwc" if setup == "bare-sqlite" else postgres.database()
        binary = os.path.join(ROOT, "target/release/examples/bare_cycle")
        server = subprocess.Popen([binary, f"127.0.0.1:{PORTS[0]}", url, str(inserts[0]), str(inserts[1])], cwd=ROOT)
        wait_for(PORTS[0], "/histories")
        return [server], bare_cycle, lambda name: (Client(PORTS[0]), Client(PORTS[0]))
    instances = 2 if setup == "postgres-2" else 1
    url = f"sqlite://{data_dir}/palaver.db?mode=rwc" if setup == "sqlite" else postgres.database()
    scripts = mock_scripts(prompts, instances)
    servers = [start_palaver(PORTS[n], url, data_dir, scripts[n]) for n in range(instances)]

    def clients(name):
        token = signed_in_token(PORTS[0], name)
        return Client(PORTS[0], token), Client(PORTS[instances - 1], token)

    return servers, palaver_cycle, clients


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cycles", type=int, default=40, help="cycles per user at each level")
    parser.add_argument("--users", default="1,8,64", help="concurrency levels")
    parser.add_argument("--setups", default="sqlite,postgres,postgres-2,bare-sqlite,bare-postgres")
    parser.add_argument(
        "--statements",
        action="store_true",
        help="only list the statements of one cycle and what the database grows by per cycle (a debug build will do)",
    )
    args = parser.parse_args()
    if args.statements:
        subprocess.run(["cargo", "build", "-p", "palaver-server", "--bin", "palaver"], cwd=ROOT, check=True)
        workdir = tempfile.mkdtemp(prefix="palaver-statements-")
        try:
            print_census(cycle_statements(workdir, "debug"))
            storage_growth(workdir, "debug", args.cycles * 5)
        finally:
            shutil.rmtree(workdir, ignore_errors=True)
        return
    levels = [int(level) for level in args.users.split(",")]
    setups = args.setups.split(",")

    print("building the release server and the bare limit…", flush=True)
    subprocess.run(
        ["cargo", "build", "--release", "-p", "palaver-server", "--bin", "palaver", "--example", "bare_cycle"], cwd=ROOT, check=True
    )
    workdir = tempfile.mkdtemp(prefix="palaver-load-")
    postgres = Postgres(workdir) if any("postgres" in setup for setup in setups) else None
    try:
        statements = cycle_statements(workdir, "release")
        print_census(statements)
        inserts = count_inserts(statements)
        print(f"a Palaver cycle inserts {inserts[0]} rows with its prompt and {inserts[1]} with its answer")
        plan = {level: [[f"cycle {level}-{user}-{n}" for n in range(args.cycles)] for user in range(level)] for level in levels}
        prompts = [prompt for level in levels for user in plan[level] for prompt in user]
        print(
            f"{'setup':>13} {'users':>5} {'cycles':>7} {'cycles/s':>9} {'p50 ms':>8} {'p99 ms':>8} "
            f"{'server CPU ms/cycle':>20} {'db CPU ms/cycle':>16} {'peak RSS MiB':>13}"
        )
        for setup in setups:
            servers, cycle, clients = start_setup(setup, workdir, postgres, prompts, inserts)
            try:
                for level in levels:
                    pairs = [clients(f"load{level}x{user}") for user in range(level)]
                    latencies, errors = [], []
                    threads = [
                        threading.Thread(target=run_user, args=(cycle, asker, answerer, user_prompts, latencies, errors))
                        for (asker, answerer), user_prompts in zip(pairs, plan[level])
                    ]
                    started = time.perf_counter()
                    on_postgres = "postgres" in setup
                    cpu_before = sum(cpu_seconds(server.pid) for server in servers)
                    db_before = postgres.cpu_seconds() if on_postgres else 0
                    for thread in threads:
                        thread.start()
                    for thread in threads:
                        thread.join(timeout=300)
                    elapsed = time.perf_counter() - started
                    cpu = sum(cpu_seconds(server.pid) for server in servers) - cpu_before
                    db_cpu = f"{(postgres.cpu_seconds() - db_before) * 1000 / max(len(latencies), 1):.2f}" if on_postgres else "-"
                    if errors:
                        print(f"{len(errors)} errors, first: {errors[0]}", file=sys.stderr)
                    if not latencies:
                        continue
                    print(
                        f"{setup:>13} {level:>5} {len(latencies):>7} {len(latencies) / elapsed:>9.1f} "
                        f"{statistics.median(latencies) * 1000:>8.2f} {percentile(latencies, 0.99) * 1000:>8.2f} "
                        f"{cpu * 1000 / len(latencies):>20.2f} {db_cpu:>16} "
                        f"{sum(peak_rss_kib(server.pid) for server in servers) / 1024:>13.1f}",
                        flush=True,
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
