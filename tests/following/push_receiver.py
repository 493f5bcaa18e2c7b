"""A push service of our own on 127.0.0.1, for tests: it takes the project's Web Push POSTs
(pywebpush, RFC 8291 aes128gcm) to subscriptions it hands out, checks their VAPID signature
and decrypts each message with the subscription's own keys (``http_ece``, the library
pywebpush encrypts with). A browser's real push service is not reachable from here; this one
speaks the same protocol. A subscription made with ``gone=True`` answers 410 (the push
service's "this subscription is dead")."""

from __future__ import annotations

import base64
import json
import os
import threading
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import http_ece
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def unb64url(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


@dataclass
class Received:
    path: str
    message: dict[str, Any]
    headers: dict[str, str]
    vapid_key: str  # the k= of the Authorization header: the sender's public key
    audience: str


@dataclass
class PushReceiver:
    server: ThreadingHTTPServer
    keys: dict[str, tuple[ec.EllipticCurvePrivateKey, bytes]] = field(default_factory=dict)
    gone: set[str] = field(default_factory=set)
    received: list[Received] = field(default_factory=list)
    refused: list[str] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)

    @property
    def base(self) -> str:
        host, port = self.server.server_address[:2]
        return f"http://{host}:{port}"

    def subscription(self, name: str, *, gone: bool = False) -> dict[str, Any]:
        """A browser's PushSubscription JSON whose endpoint is this server."""
        key = ec.generate_private_key(ec.SECP256R1())
        auth = os.urandom(16)
        path = f"/push/{name}"
        self.keys[path] = (key, auth)
        if gone:
            self.gone.add(path)
        public = key.public_key().public_bytes(Encoding.X962, PublicFormat.UncompressedPoint)
        return {"endpoint": self.base + path, "keys": {"p256dh": b64url(public), "auth": b64url(auth)}}

    def messages(self, name: str) -> list[str]:
        """The bodies of the notifications received for subscription ``name``."""
        with self.lock:
            return [r.message["body"] for r in self.received if r.path == f"/push/{name}"]

    def take(self, path: str, headers: dict[str, str], body: bytes) -> int:
        if path in self.gone:
            return 410
        if path not in self.keys:
            return 404
        scheme, _, params = headers.get("authorization", "").partition(" ")
        fields = dict(part.strip().split("=", 1) for part in params.split(","))
        token, sender_key = fields.get("t", ""), fields.get("k", "")
        audience = _verify_jwt(token, sender_key) if scheme.lower() == "vapid" else None
        if audience is None:
            with self.lock:
                self.refused.append(path)
            return 401
        key, auth = self.keys[path]
        plain = http_ece.decrypt(body, private_key=key, auth_secret=auth, version="aes128gcm")
        with self.lock:
            self.received.append(Received(path, json.loads(plain), headers, sender_key, audience))
        return 201


def _verify_jwt(token: str, sender_key: str) -> str | None:
    """The ``aud`` of a VAPID JWT signed (ES256) by ``sender_key``, or None."""
    try:
        head, claims, signature = token.split(".")
        public = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), unb64url(sender_key))
        raw = unb64url(signature)
        der = encode_dss_signature(int.from_bytes(raw[:32], "big"), int.from_bytes(raw[32:], "big"))
        public.verify(der, f"{head}.{claims}".encode(), ec.ECDSA(hashes.SHA256()))
        return str(json.loads(unb64url(claims))["aud"])
    except (ValueError, KeyError, InvalidSignature):
        return None


def start() -> PushReceiver:
    receiver: PushReceiver

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:  # noqa: N802 - the standard library's name
            body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
            status = receiver.take(self.path, {k.lower(): v for k, v in self.headers.items()},
                                   body)
            self.send_response(status)
            self.send_header("Content-Length", "0")
            self.end_headers()

        def log_message(self, *args: Any) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    receiver = PushReceiver(server)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return receiver

