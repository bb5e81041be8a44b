#!/usr/bin/env python3
"""A Web Push service on loopback, for Palaver's tests: it makes subscriptions (a P-256 key
pair and an auth secret it keeps), receives Palaver's push requests, checks their VAPID
Authorization (RFC 8292: an ES256 JWT whose aud is this service's origin, not expired, signed
by the key in k=, which must be the key the test read from GET /push/key), decrypts each payload
(RFC 8291 aes128gcm) with the subscription's private keys, and records what it got.

    push_service.py --vapid-key <base64url public key>

It listens on a free port and prints `listening on http://127.0.0.1:<port>` first. Routes:
  POST /subscriptions?answer=201|404|410  a new subscription whose endpoint answers so:
                                           {"endpoint", "keys": {"p256dh", "auth"}}
  POST /push/<id>                          the push service's endpoint
  GET  /received?count=N                   what came in, once N pushes have (10 s at most):
                                           [{"subscription", "status", "payload" | "error",
                                             "ttl", "urgency", "claims"}]
"""

import argparse
import base64
import json
import secrets
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlparse

import http_ece
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature

WAIT_SECONDS = 10


def b64url_decode(text):
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def b64url(data):
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


class State:
    def __init__(self, vapid_key, origin):
        self.vapid_key = vapid_key
        self.origin = origin
        self.subscriptions = {}
        self.received = []
        self.changed = threading.Condition()

    def record(self, entry):
        with self.changed:
            self.received.append(entry)
            self.changed.notify_all()

    def wait_for(self, count):
        deadline = time.monotonic() + WAIT_SECONDS
        with self.changed:
            while len(self.received) < count and time.monotonic() < deadline:
                self.changed.wait(deadline - time.monotonic())
            return list(self.received)


def check_vapid(state, authorization):
    """The JWT's claims, or raises ValueError saying what is wrong."""
    if not authorization.startswith("vapid "):
        raise ValueError("no vapid Authorization")
    params = dict(part.strip().split("=", 1) for part in authorization[len("vapid "):].split(","))
    token, key = params.get("t", ""), params.get("k", "")
    if key != state.vapid_key:
        raise ValueError(f"k= is {key}, not the key GET /push/key serves")
    header_b64, claims_b64, signature_b64 = token.split(".")
    header = json.loads(b64url_decode(header_b64))
    if header.get("alg") != "ES256":
        raise ValueError(f"alg is {header.get('alg')}")
    signature = b64url_decode(signature_b64)
    if len(signature) != 64:
        raise ValueError("the signature is not 64 bytes")
    public = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), b64url_decode(key))
    der = encode_dss_signature(int.from_bytes(signature[:32], "big"), int.from_bytes(signature[32:], "big"))
    try:
        public.verify(der, f"{header_b64}.{claims_b64}".encode(), ec.ECDSA(hashes.SHA256()))
    except InvalidSignature:
        raise ValueError("the JWT's signature does not verify") from None
    claims = json.loads(b64url_decode(claims_b64))
    if claims.get("aud") != state.origin:
        raise ValueError(f"aud is {claims.get('aud')}, not {state.origin}")
    now = time.time()
    if not now < claims.get("exp", 0) <= now + 24 * 3600:
        raise ValueError(f"exp {claims.get('exp')} is past or more than a day ahead")
    if not str(claims.get("sub", "")).startswith(("mailto:", "https:")):
        raise ValueError(f"sub {claims.get('sub')} is not a mailto: or https: URL")
    return claims


def handler_for(state):
    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *args):
            pass

        def reply(self, status, body=None):
            data = json.dumps(body).encode() if body is not None else b""
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def do_GET(self):
            url = urlparse(self.path)
            if url.path != "/received":
                return self.reply(404, {"error": "no such route"})
            count = int(parse_qs(url.query).get("count", ["0"])[0])
            self.reply(200, state.wait_for(count))

        def do_POST(self):
            url = urlparse(self.path)
            body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
            if url.path == "/subscriptions":
                return self.new_subscription(int(parse_qs(url.query).get("answer", ["201"])[0]))
            if url.path.startswith("/push/"):
                return self.push(url.path[len("/push/"):], body)
            self.reply(404, {"error": "no such route"})

        def new_subscription(self, answer):
            private = ec.generate_private_key(ec.SECP256R1())
            auth = secrets.token_bytes(16)
            sub_id = secrets.token_hex(8)
            state.subscriptions[sub_id] = (private, auth, answer)
            point = private.public_key().public_bytes(
                serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
            )
            self.reply(201, {
                "endpoint": f"{state.origin}/push/{sub_id}",
                "keys": {"p256dh": b64url(point), "auth": b64url(auth)},
            })

        def push(self, sub_id, body):
            entry = {
                "subscription": sub_id,
                "ttl": self.headers.get("TTL"),
                "urgency": self.headers.get("Urgency"),
            }
            if sub_id not in state.subscriptions:
                entry["status"] = 404
                entry["error"] = "unknown subscription"
                state.record(entry)
                return self.reply(404, {"error": "unknown subscription"})
            private, auth, answer = state.subscriptions[sub_id]
            try:
                entry["claims"] = check_vapid(state, self.headers.get("Authorization", ""))
                if self.headers.get("Content-Encoding") != "aes128gcm":
                    raise ValueError(f"Content-Encoding is {self.headers.get('Content-Encoding')}")
                if self.headers.get("TTL") is None:
                    raise ValueError("no TTL header")
                plain = http_ece.decrypt(body, private_key=private, auth_secret=auth, version="aes128gcm")
                entry["payload"] = json.loads(plain)
                entry["status"] = answer
            except Exception as err:  # noqa: BLE001 - every failure is what the test reads
                entry["status"] = 400
                entry["error"] = f"{type(err).__name__}: {err}"
            state.record(entry)
            self.reply(entry["status"], {"error": entry["error"]} if "error" in entry else None)

    return Handler


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--vapid-key", required=True, help="the key GET /push/key serves")
    args = parser.parse_args()
    server = ThreadingHTTPServer(("127.0.0.1", 0), None)
    origin = f"http://127.0.0.1:{server.server_address[1]}"
    server.RequestHandlerClass = handler_for(State(args.vapid_key, origin))
    print(f"listening on {origin}", flush=True)
    server.serve_forever()


if __name__ == "__main__":
    main()
