"""The VAPID key pair that signs this server's Web Push messages (``VAPID_*`` settings).

``VAPID_PRIVATE_KEY`` is the raw 32-byte P-256 private key, base64url-encoded (what
``manage.py vapid_keys`` prints); ``VAPID_PUBLIC_KEY`` its uncompressed public point, the
``applicationServerKey`` a browser subscribes with (derived from the private key when unset).
Unset, and ``VAPID_FROM_SECRET_KEY`` on (the embedded default and the tests), the pair is
derived from ``SECRET_KEY``: every process of one installation (web, worker) signs with the same
key, and nothing has to be generated or stored. Production sets the keys (or has no Web Push).
"""

from __future__ import annotations

import base64
import hashlib
from functools import lru_cache

from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat
from django.conf import settings

# the order of the P-256 group: a derived scalar must lie in [1, n - 1]
_P256_ORDER = 0xFFFFFFFF00000000FFFFFFFFFFFFFFFFBCE6FAADA7179E84F3B9CAC2FC632551


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def b64url_decode(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def key_pair_new() -> tuple[str, str]:
    """A fresh (private, public) pair in the settings' encoding."""
    key = ec.generate_private_key(ec.SECP256R1())
    return _encode(key)


def _encode(key: ec.EllipticCurvePrivateKey) -> tuple[str, str]:
    private = key.private_numbers().private_value.to_bytes(32, "big")
    public = key.public_key().public_bytes(Encoding.X962, PublicFormat.UncompressedPoint)
    return b64url(private), b64url(public)


@lru_cache(maxsize=4)
def _pair(private_setting: str, secret: str, derive: bool) -> tuple[str, str] | None:
    if private_setting:
        value = int.from_bytes(b64url_decode(private_setting), "big")
    elif derive:
        digest = hashlib.sha256(b"vapid-key:" + secret.encode()).digest()
        value = int.from_bytes(digest, "big") % (_P256_ORDER - 1) + 1
    else:
        return None
    return _encode(ec.derive_private_key(value, ec.SECP256R1()))


def vapid_keys() -> tuple[str, str] | None:
    """(private, public) in base64url, or None when Web Push is off (no key, none derived)."""
    pair = _pair(str(getattr(settings, "VAPID_PRIVATE_KEY", "") or ""), str(settings.SECRET_KEY),
                 bool(getattr(settings, "VAPID_FROM_SECRET_KEY", False)))
    if pair is None:
        return None
    public = str(getattr(settings, "VAPID_PUBLIC_KEY", "") or "") or pair[1]
    return pair[0], public


def webpush_enabled() -> bool:
    return vapid_keys() is not None


def public_key() -> str:
    """The applicationServerKey the follow page subscribes with ("" when Web Push is off)."""
    keys = vapid_keys()
    return keys[1] if keys else ""
