"""Seat tokens: ``<seat>.<secret>`` where the secret has 256 random bits.

Only SHA-256 of the secret is stored; tokens are compared in constant time.

Parsing is strict: the seat is ASCII digits without a leading zero ("0" is
seat 0; "00", "07" and "\u00b2" are malformed) and the secret is exactly as long
as the ones we issue, in the URL-safe base64 alphabet. A malformed token is
INVALID_ARGUMENT (reason SEAT_TOKEN_MALFORMED); a well-formed token that is not
this game's seat token stays PERMISSION_DENIED (SEAT_TOKEN_INVALID), decided
by the App after the comparison.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import string

from throneroom_server.app.errors import invalid
from throneroom_server.app.limits import is_decimal

TOKEN_BYTES = 32
SECRET_CHARS = len(secrets.token_urlsafe(TOKEN_BYTES))  # 43: base64 of 32 bytes, unpadded
MAX_SEAT_DIGITS = 2
_SECRET_ALPHABET = frozenset(string.ascii_letters + string.digits + "-_")


def new_secret() -> str:
    return secrets.token_urlsafe(TOKEN_BYTES)


def secret_hash(secret: str) -> bytes:
    return hashlib.sha256(secret.encode()).digest()


def make_token(seat: int, secret: str) -> str:
    return f"{seat}.{secret}"


def parse_token(token: str) -> tuple[int, str]:
    """The (seat, secret) of a well-formed token; raises INVALID_ARGUMENT
    (SEAT_TOKEN_MALFORMED) for any other text."""
    seat_text, sep, secret = token.partition(".")
    if (
        not sep
        or not 0 < len(seat_text) <= MAX_SEAT_DIGITS
        or not is_decimal(seat_text)
        or len(secret) != SECRET_CHARS
        or not _SECRET_ALPHABET.issuperset(secret)
    ):
        raise invalid(
            "SEAT_TOKEN_MALFORMED",
            "a seat token reads <seat>.<secret>, exactly as JoinGame returned it",
        )
    return int(seat_text), secret


def matches(secret: str, stored_hash: bytes) -> bool:
    return hmac.compare_digest(secret_hash(secret), stored_hash)
