"""Sentences for a person at a terminal: moves, events and the pending decision.

Each game's own sentences and tasks come from its client
(``throneroom.games.protocol.game_client``), in the reader's language where
the game speaks it; a game without texts falls back to its notation (moves)
and protobuf text (events). Nothing here needs ``rich``.
"""

from __future__ import annotations

import contextlib
from collections.abc import Sequence

from google.protobuf.message import Message

from throneroom import notation
from throneroom.envelopes import game_type_of, one_line, unwrap
from throneroom.games.protocol import game_client, game_clients
from throneroom.v1 import game_pb2, service_pb2

__all__ = [
    "LANGUAGES",
    "event_sentences",
    "move_notation",
    "move_sentence",
    "pending_sentence",
    "seat_names",
]

#: Languages of the sentences: every language some game speaks (others fall back to English).
LANGUAGES = tuple(dict.fromkeys(lang for c in game_clients().values() for lang in c.languages))


def move_notation(game_type: str, move: Message) -> str:
    """The move in the game's notation (protobuf text for a game without one)."""
    with contextlib.suppress(ValueError):
        return notation.for_game(game_type).format_move(move)
    return one_line(move) or "(empty move)"


def seat_names(snapshot: service_pb2.GameSnapshot) -> tuple[str, ...]:
    """The players' display names by seat ("" where a seat has none)."""
    names = {info.seat: info.display_name for info in snapshot.seats}
    return tuple(names.get(seat, "") for seat in range(max(names, default=-1) + 1))


def move_sentence(
    game_type: str,
    move: Message,
    seat: int | None,
    lang: str = "en",
    viewer: int | None = None,
    *,
    names: Sequence[str] = (),
) -> str:
    """The move (the game's own message) made by ``seat`` (None: one to make,
    as an instruction, "Play the Garrison card") as ``viewer`` reads it ("You
    pass", "Ana passes"), or in notation for a game without texts."""
    text = game_client(game_type).describe_move(
        move, mover=seat, lang=lang, viewer=viewer, names=names
    )
    return text if text is not None else move_notation(game_type, move)


def event_sentences(
    events: Sequence[game_pb2.Event],
    lang: str = "en",
    viewer: int | None = None,
    names: Sequence[str] = (),
) -> list[str]:
    """Each visible event as a sentence, in order, as ``viewer`` reads it; the
    event's protobuf text for a game without texts."""
    sentences = []
    for envelope in events:
        game_type = game_type_of(envelope)
        if not game_type:
            continue
        event = unwrap(envelope)
        text = game_client(game_type).describe_event(event, lang=lang, viewer=viewer, names=names)
        sentences.append(text if text is not None else one_line(event))
    return sentences


def _seat_name(snapshot: service_pb2.GameSnapshot, seat: int) -> str:
    for info in snapshot.seats:
        if info.seat == seat and info.display_name:
            return f"seat {seat} ({info.display_name})"
    return f"seat {seat}"


_GAME_OVER = {"en": "Game over.", "es": "Fin de la partida.", "pt": "Fim do jogo."}


def pending_sentence(
    snapshot: service_pb2.GameSnapshot, lang: str = "en", *, short: bool = False
) -> str:
    """Who must decide what, in words: the game's state as one sentence
    (``short``: the seats to act named by their numbers, the viewer's only
    with its name)."""
    viewer = snapshot.viewer_seat if snapshot.HasField("viewer_seat") else None
    if snapshot.finished:
        outcome = game_client(snapshot.game_type).describe_outcome(
            snapshot.outcome, lang=lang, viewer=viewer, names=seat_names(snapshot)
        )
        return f"{_GAME_OVER.get(lang, _GAME_OVER['en'])} {outcome}"
    if not snapshot.started:
        free = [str(s.seat) for s in snapshot.seats if not s.taken]
        return f"Waiting for every seat to be taken (free: seat {', '.join(free)})"
    who = " and ".join(
        f"seat {s}" if short and s != viewer else _seat_name(snapshot, s) for s in snapshot.to_act
    )
    view = unwrap(snapshot.view) if game_type_of(snapshot.view) else None
    task = None
    if view is not None:
        task = game_client(snapshot.game_type).task(view, lang=lang, viewer=viewer)
    return f"{who} must {task or 'move'}"
