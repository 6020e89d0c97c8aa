"""Seat tokens: ``<seat>.<secret>`` where the secret has 256 random bits.

Only SHA-256 of the secret is stored; tokens are compared in constant time.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets

TOKEN_BYTES = 32


def new_secret() -> str:
    return secrets.token_urlsafe(TOKEN_BYTES)


def secret_hash(secret: str) -> bytes:
    return hashlib.sha256(secret.encode()).digest()


def make_token(seat: int, secret: str) -> str:
    return f"{seat}.{secret}"


def parse_token(token: str) -> tuple[int, str] | None:
    """The (seat, secret) of a well-formed token, else None."""
    seat_text, sep, secret = token.partition(".")
    if not sep or not seat_text.isdigit() or len(seat_text) > 2 or not secret:
        return None
    return int(seat_text), secret


def matches(secret: str, stored_hash: bytes) -> bool:
    return hmac.compare_digest(secret_hash(secret), stored_hash)
