#!/usr/bin/env python3
"""An SMTP server on loopback, for Palaver's mail tests (aiosmtpd): it takes every message it
is sent, parses it, and serves what came in over a tiny HTTP endpoint.

    smtp_sink.py [--smtp-port N] [--http-port N]

Each port defaults to 0 (a free one). It prints `listening on smtp://127.0.0.1:<port>
http://127.0.0.1:<port>` first. Route:
  GET /messages?count=N   every message so far, once N have come (10 s at most), oldest first:
                          [{"from", "to": [...], "subject", "text", "html", "contentType"}]
"""

import argparse
import asyncio
import json
import threading
import time
from email import policy
from email.parser import BytesParser
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlparse

from aiosmtpd.smtp import SMTP

WAIT_SECONDS = 10

received = []
arrived = threading.Condition()


class Sink:
    """aiosmtpd's handler: parses each message and keeps it."""

    async def handle_DATA(self, server, session, envelope):
        message = BytesParser(policy=policy.default).parsebytes(envelope.original_content)
        text = message.get_body(preferencelist=("plain",))
        html = message.get_body(preferencelist=("html",))
        record = {
            "from": envelope.mail_from,
            "to": list(envelope.rcpt_tos),
            "subject": str(message["subject"] or ""),
            "contentType": message.get_content_type(),
            "text": text.get_content() if text is not None else None,
            "html": html.get_content() if html is not None else None,
        }
        with arrived:
            received.append(record)
            arrived.notify_all()
        return "250 OK"


class Messages(BaseHTTPRequestHandler):
    def do_GET(self):
        url = urlparse(self.path)
        if url.path != "/messages":
            self.send_error(404)
            return
        count = int(parse_qs(url.query).get("count", ["0"])[0])
        deadline = time.monotonic() + WAIT_SECONDS
        with arrived:
            while len(received) < count and time.monotonic() < deadline:
                arrived.wait(deadline - time.monotonic())
            body = json.dumps(received).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


async def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--smtp-port", type=int, default=0)
    parser.add_argument("--http-port", type=int, default=0)
    arguments = parser.parse_args()
    loop = asyncio.get_running_loop()
    smtp = await loop.create_server(
        lambda: SMTP(Sink(), hostname="sink.palaver.test"), "127.0.0.1", arguments.smtp_port
    )
    smtp_port = smtp.sockets[0].getsockname()[1]
    http = ThreadingHTTPServer(("127.0.0.1", arguments.http_port), Messages)
    threading.Thread(target=http.serve_forever, daemon=True).start()
    print(f"listening on smtp://127.0.0.1:{smtp_port} http://127.0.0.1:{http.server_address[1]}", flush=True)
    async with smtp:
        await smtp.serve_forever()


if __name__ == "__main__":
    asyncio.run(main())
