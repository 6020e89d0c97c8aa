"""Descriptions of moves and events for clients that do not embed the SDK.

A request's ``describe_language`` ("" = none; "en", "es", "pt") asks for a
``MoveDescription`` (the move in the game's notation, docs/notation.md, and a
sentence) per move, and a sentence per event, in the order of the moves and
events they describe. The sentences are the SDK's, asked of the game's client
by name (``throneroom.games.protocol.game_client``), in the language asked
where the game speaks it (English otherwise); a game without texts of its own
gets the notation for a move and the event's protobuf text.

A move made by a seat is described only to that seat when the game has
hidden information (every game now): a move can name what others may not
see (a card committed face down); everyone reads the events, which are
redacted for each viewer before they are described. Nothing is computed
when no language is asked.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from throneroom.envelopes import game_type_of, one_line, unwrap
from throneroom.games.protocol import GameClient, game_client
from throneroom.v1 import game_pb2, service_pb2, storage_pb2

from throneroom_server.app.errors import invalid
from throneroom_server.games.kit.service import ServiceGame

LANGUAGES = ("en", "es", "pt")


def check_language(lang: str) -> str:
    """``lang`` when it is "" or a language the service describes in."""
    if lang and lang not in LANGUAGES:
        raise invalid(
            "MALFORMED_REQUEST",
            f"describe_language must be one of {', '.join(LANGUAGES)} (or empty), "
            f"not {lang[:16]!r}",
        )
    return lang


@dataclass(frozen=True)
class Describer:
    """The sentences of one game type in one language."""

    game_type: str
    lang: str
    hidden_information: bool = True
    """Moves are described to their own seat only (see the module's doc)."""
    names: tuple[str, ...] = ()
    """The players' names by seat ("" for none: "seat N" in the language)."""

    def _client(self) -> GameClient:
        return game_client(self.game_type)

    def move(
        self, move: game_pb2.Move, seat: int | None, viewer: int | None = None
    ) -> service_pb2.MoveDescription:
        """``move`` (a Move envelope) made or to be made by ``seat``, read by
        ``viewer`` (a seat, None for a spectator): "you" for the viewer's own."""
        if game_type_of(move) != self.game_type:
            return service_pb2.MoveDescription()
        inner = unwrap(move)
        # Imported on first use: the notations cost the server's start-up
        # time, and only clients that ask for descriptions need them.
        from throneroom import notation  # noqa: PLC0415

        try:
            written = notation.for_game(self.game_type).format_move(inner)
        except ValueError:  # no notation for this game, or a move it cannot spell
            written = one_line(inner)
        text = self._client().describe_move(
            inner, mover=seat, lang=self.lang, viewer=viewer, names=self.names
        )
        return service_pb2.MoveDescription(notation=written, text=written if text is None else text)

    def moves(
        self, moves: Sequence[game_pb2.Move], seat: int | None
    ) -> list[service_pb2.MoveDescription]:
        """The moves ``seat`` may make, read by that seat: each as an
        instruction ("Play the Garrison card"), the mover left out."""
        return [self.move(m, None, seat) for m in moves]

    def events(self, events: Sequence[game_pb2.Event], viewer: int | None = None) -> list[str]:
        """One sentence per event, in order ("" for an empty envelope), read by ``viewer``."""
        client = self._client()
        out = []
        for event in events:
            if game_type_of(event) != self.game_type:
                out.append("")
                continue
            inner = unwrap(event)
            text = client.describe_event(inner, lang=self.lang, viewer=viewer, names=self.names)
            out.append(one_line(inner) if text is None else text)
        return out

    def annotate(
        self,
        target: service_pb2.GameUpdate | service_pb2.HistoryEntry,
        move: game_pb2.Move | None,
        mover: int,
        viewer: int | None = None,
    ) -> None:
        """Add the descriptions to an update or a history entry, read by
        ``viewer`` (an update's own viewer seat when it has one): its events'
        sentences, its move's (``move``: None when the viewer may not see it
        or no move made this version) and, on an update, its legal moves'
        and (a finished game) its outcome's."""
        if isinstance(target, service_pb2.GameUpdate) and target.snapshot.HasField("viewer_seat"):
            viewer = target.snapshot.viewer_seat
        target.event_texts.extend(self.events(target.events, viewer))
        if move is not None and move.WhichOneof("game") is not None:
            target.move_description.CopyFrom(self.move(move, mover, viewer))
        if isinstance(target, service_pb2.GameUpdate):
            target.legal_move_descriptions.extend(self.moves(target.legal_moves, viewer))
            if target.snapshot.finished and target.snapshot.HasField("outcome"):
                target.outcome_text = self._client().describe_outcome(
                    target.snapshot.outcome, lang=self.lang, viewer=viewer, names=self.names
                )

    def annotate_entry(
        self,
        target: service_pb2.GameUpdate | service_pb2.HistoryEntry,
        entry: storage_pb2.StoredEntry,
        viewer: int | None,
    ) -> None:
        """``annotate`` for the version ``entry`` made, as ``viewer`` (a
        seat, None for a spectator) may see it: the move only to its own seat
        in a game with hidden information."""
        shown = entry.HasField("move") and (not self.hidden_information or viewer == entry.seat)
        self.annotate(target, entry.move if shown else None, entry.seat, viewer)


def describer(game: ServiceGame, lang: str, names: Sequence[str] = ()) -> Describer | None:
    """The describer of a game for a request's language and its players'
    names (by seat), or None when no language was asked."""
    if not lang:
        return None
    return Describer(game.name, lang, game.info.hidden_information, tuple(names))


def legal_moves_response(
    version: int, seat: int, moves: Sequence[game_pb2.Move], lang: str
) -> service_pb2.ListLegalMovesResponse:
    """ListLegalMoves' answer, with one description per move when ``lang`` is set."""
    response = service_pb2.ListLegalMovesResponse(version=version, seat=seat, moves=moves)
    if lang and moves:
        words = Describer(game_type_of(moves[0]), lang)
        response.descriptions.extend(words.moves(moves, seat))
    return response
