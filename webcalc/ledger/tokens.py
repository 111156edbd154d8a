"""Tokens of the ledger's tables and circles: making them, hashing them, and sealing a view
token with another token (docs/LEDGER.md "Storage", "Tokens")."""

from __future__ import annotations

import base64
import hashlib
import hmac
import re
from datetime import UTC, datetime

TOKEN_BYTES = 24                        # 192 bits; token_urlsafe gives 32 characters
TOKEN_SHAPE = re.compile(r"[A-Za-z0-9_-]{22,64}")


def view_token_of(edit_token: str) -> str:
    """The view token that belongs to ``edit_token``: the first 192 bits of
    HMAC-SHA256(key=edit token, "webcalc-ledger-view"), URL-safe (32 characters). Whoever
    holds the edit link can show the view link (the pages do); the view token reveals
    nothing of the edit token, and the database still holds only the hashes of both."""
    mac = hmac.new(edit_token.encode("ascii"), b"webcalc-ledger-view", hashlib.sha256)
    return base64.urlsafe_b64encode(mac.digest()[:TOKEN_BYTES]).decode("ascii")


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("ascii")).hexdigest()


def _iso(dt: datetime | None) -> str | None:
    if dt is None:
        return None
    return dt.astimezone(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def _pad(edit_token: str) -> bytes:
    mac = hmac.new(edit_token.encode("ascii"), b"webcalc-ledger-view-seal", hashlib.sha256)
    return mac.digest()[:TOKEN_BYTES]


def _seal(view_token: str | None, edit_token: str) -> str:
    """The view token as an editor's row keeps it: XOR-ed with a pad only its edit token
    gives (HMAC-SHA256 of the edit token), so the database alone reveals no view token."""
    if view_token is None:
        return ""
    raw = base64.urlsafe_b64decode(view_token.encode("ascii"))
    return base64.urlsafe_b64encode(bytes(a ^ b for a, b in zip(raw, _pad(edit_token))))\
        .decode("ascii")


def _unseal(seal: str, edit_token: str) -> str:
    raw = base64.urlsafe_b64decode(seal.encode("ascii"))
    return base64.urlsafe_b64encode(bytes(a ^ b for a, b in zip(raw, _pad(edit_token))))\
        .decode("ascii")
