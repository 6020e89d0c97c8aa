"""The one protocol through which every client-side surface reaches a game.

A game's SDK package, ``throneroom.games.<game>`` (the game's registered
name), holds everything a person or program needs of that game: its data,
texts, notation, terminal board, web data and bots. Its module ``client``
exports ``CLIENT``, a :class:`GameClient`; :func:`game_client` finds it by the
game's name, so the surfaces (notation, the server's descriptions, the
terminal, the web data, the CLI, bot evaluation, the benchmarks) name no game
and never hold a list of games::

    >>> from throneroom.games.protocol import game_client
    >>> kid = game_client("king_is_dead")
    >>> kid.describe_move(kid.notation().parse_move("pass"))
    'Pass'

Every hook may answer None ("this game has none"); each surface then falls
back on what every game has (the notation, the protobuf text, the generic
board). A registered game without an SDK package gets :class:`BasicGameClient`,
whose every hook answers None, so a new game is playable everywhere at once.

Texts take the reader's language and seat (``lang``, ``viewer``: None for a
spectator) and the players' names (``names[seat]``; "seat N" in the language
where none is given), so that a sentence says "you" to its viewer only and
names the others (:class:`throneroom.games.reader.Reader`). Every game speaks
every language of ``throneroom.games.reader.LANGUAGES``
(tests/sdk/test_texts_complete.py). Hooks that need heavy or
optional modules (rich for the terminal, the bots) import them when called:
``CLIENT`` itself is cheap to import.
"""

from __future__ import annotations

import importlib
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

from google.protobuf.message import Message

from throneroom.games.messages import game_types_of
from throneroom.games.outcomes import outcome_sentence
from throneroom.games.reader import Reader, Words
from throneroom.v1 import common_pb2, game_pb2

if TYPE_CHECKING:
    from throneroom.bots import Bot
    from throneroom.games.codec import ActionCodec
    from throneroom.games.tensor import ViewTensor
    from throneroom.notation.base import GameNotation

__all__ = [
    "BasicGameClient",
    "BotTrial",
    "GameClient",
    "SearchKnowledge",
    "SearchMemory",
    "UnknownGame",
    "against_random_bots",
    "game_client",
    "game_clients",
    "game_names",
]

Json = dict[str, Any]


class UnknownGame(ValueError):
    """A name that is not a game of the protos (``game.proto``'s envelopes)."""


@dataclass(frozen=True)
class BotTrial:
    """One evaluation the game's heuristic bot must pass against random bots
    (``scripts/bot_eval.py``, ``make bots``), declared by the game.

    Game number ``n`` (seeded ``n``) is played with ``bots(n, seats)`` from the
    options ``options``; ``group(state, n)`` says which tally it counts in
    ("" for one tally; Kill the King: the side the bot's team played) and
    whether the bot won (``won(winners, n, seats)``). Games go on until every
    group has ``games`` counted games; each group must reach ``goal``."""

    label: str
    seats: int
    goal: float
    bots: Callable[[int, int], list[Bot]]
    won: Callable[[Sequence[int], int, int], bool]
    options: Mapping[str, Any] = field(default_factory=dict)
    games: int = 200
    groups: tuple[str, ...] = ("",)
    group: Callable[[Message, int], str] = lambda state, number: ""
    take_turns: bool = False
    """Several seats to act: each in turn (else the first)."""
    make_target: bool = True
    """Part of ``make bots`` (else only when asked for by name)."""


def against_random_bots(
    label: str,
    bot: Callable[[int], Bot],
    *,
    seats: int,
    goal: float,
    games: int = 200,
    options: Mapping[str, Any] | None = None,
) -> BotTrial:
    """The usual trial: in game ``n`` the heuristic bot (``bot(n)``) takes seat
    ``n % seats`` (so it sits in every seat in turn) and seeded random bots the
    others (``RandomBot(n * 100 + seat)``); a win is being among the winners."""

    def bots(number: int, count: int) -> list[Bot]:
        from throneroom.bots import RandomBot  # noqa: PLC0415 - only trials need it

        out: list[Bot] = [RandomBot(seed=number * 100 + s) for s in range(count)]
        out[number % count] = bot(number)
        return out

    def won(winners: Sequence[int], number: int, count: int) -> bool:
        return number % count in winners

    return BotTrial(label, seats, goal, bots, won, dict(options or {}), games)


class SearchMemory(Protocol):
    """What a search bot remembers of one game across its decisions, from its
    own views only (The King Is Dead: the cards seen on top of the piles)."""

    def observe(self, view: Any, seat: int) -> None: ...

    def determined(self, view: Any, seat: int) -> bool:
        """Whether the memory leaves one world only (perfect information)."""
        ...

    def redraw(self, state: Any, seat: int, rng: random.Random) -> None:
        """Make a sampled world agree with the memory."""
        ...


@dataclass(frozen=True)
class SearchKnowledge:
    """What the MCTS bot (:mod:`throneroom.bots.mcts`) needs of a game beyond
    its engine. ``world(view, seat)``: a full state whose view for ``seat`` is
    ``view``, hidden parts as placeholders that the engine's
    ``randomize_hidden`` redraws; ``memory()``: a fresh memory per bot;
    ``prior(game, state, actor, moves)``: a value per move, to try a wide
    node's moves best first; ``value(game, state, seats)``: each seat's reward
    of an unfinished state (else a random playout); ``guide``: a
    ``throneroom.bots.mcts.Guide`` when the game is searched by rollouts of its
    heuristic bot instead of determinized UCT."""

    world: Callable[[Any, int], Message]
    memory: Callable[[], SearchMemory] | None = None
    prior: Callable[[Any, Any, int, Sequence[Any]], list[float]] | None = None
    value: Callable[[Any, Any, int], list[float]] | None = None
    guide: Any = None


@runtime_checkable
class GameClient(Protocol):
    """Everything the client side knows of one game, found by its name."""

    @property
    def name(self) -> str:
        """The registered game name (the field name of its game.proto entries)."""
        ...

    @property
    def languages(self) -> tuple[str, ...]:
        """The languages its texts speak (English first); others fall back to English."""
        ...

    @property
    def fixture(self) -> bool:
        """A test fixture game (served only when asked for), not one to play."""
        ...

    def notation(self) -> GameNotation[Any, Any, Any] | None:
        """Its text notation for moves and positions (docs/notation.md)."""
        ...

    def describe_move(
        self,
        move: Message,
        *,
        mover: int | None = None,
        lang: str = "en",
        viewer: int | None = None,
        names: Sequence[str] = (),
    ) -> str | None:
        """A sentence for the game's own move message, made (or to be made) by
        ``mover``, read by ``viewer`` in ``lang``."""
        ...

    def describe_event(
        self,
        event: Message,
        *,
        lang: str = "en",
        viewer: int | None = None,
        names: Sequence[str] = (),
    ) -> str | None:
        """A sentence for the game's own event message, read by ``viewer``."""
        ...

    def task(
        self,
        view: Message,
        *,
        lang: str = "en",
        viewer: int | None = None,
        names: Sequence[str] = (),
    ) -> str | None:
        """What the seats to act must decide, as the end of "<who> must ...",
        from the game's own view message."""
        ...

    def describe_outcome(
        self,
        outcome: common_pb2.Outcome,
        *,
        lang: str = "en",
        viewer: int | None = None,
        names: Sequence[str] = (),
    ) -> str:
        """A finished game's outcome as a sentence for ``viewer`` (None: a
        spectator): the winners ("you", names), the ending and the tie-breaks,
        in ``lang`` (``throneroom.games.outcomes``)."""
        ...

    def terminal_board(
        self, view: Message, *, viewer: int | None, lang: str = "en"
    ) -> list[Any] | None:
        """The view drawn for a terminal: rich renderables (needs the cli extra)."""
        ...

    def terminal_short_boards(
        self, view: Message, *, viewer: int | None, lang: str = "en"
    ) -> list[list[Any]]:
        """Shorter drawings of the view for a terminal of few rows, fullest
        first (the terminal draws the first that fits; none: the full one)."""
        ...

    def terminal_details(
        self, view: Message, *, viewer: int | None, lang: str = "en"
    ) -> list[Any] | None:
        """What the short drawings leave out of the full one, drawn on request."""
        ...

    def interchangeable(
        self, view: Message, move: Message, *, viewer: int | None, lang: str = "en"
    ) -> tuple[Message, str] | None:
        """The legal move that the game treats as the same as ``move`` (which a
        person typed, and which is not itself among the legal moves), with a
        sentence saying why, in ``lang``; None when there is none. Kill the
        King: any reserve counter of a type may be named, and the next one of
        that type is placed (counters of one type are alike before placement)."""
        ...

    def web_data(self) -> Json | None:
        """Facts the web client's board needs that a view does not carry, as JSON."""
        ...

    def bot(self, seed: int | None = None) -> Bot | None:
        """The game's heuristic bot (None: random bots only)."""
        ...

    def bot_trials(self) -> tuple[BotTrial, ...]:
        """The evaluations its heuristic bot must pass."""
        ...

    def search(self) -> SearchKnowledge | None:
        """What the MCTS bot needs to play it (None: the MCTS bot cannot)."""
        ...

    def seat_teams(self, seats: int, options: Mapping[str, Any]) -> tuple[tuple[int, ...], ...]:
        """The teams of a game of ``seats`` seats with these options (its
        options as a tournament file gives them), as groups of seats that win
        or lose together; every seat its own team in a game without teams."""
        ...

    def actions(self, seats: int, options: Mapping[str, Any]) -> ActionCodec[Any] | None:
        """Its action codec for a game of ``seats`` seats with these options:
        every move <-> 0..N-1 (``throneroom.games.codec``, docs/rl.md)."""
        ...

    def observations(self, seats: int, options: Mapping[str, Any]) -> ViewTensor | None:
        """A seat's view as a fixed-size tensor (``throneroom.games.tensor``,
        docs/rl.md): a function of the view only."""
        ...


@dataclass(frozen=True)
class BasicGameClient:
    """A game's client with nothing of its own: every hook answers None. Each
    game's ``CLIENT`` subclasses it and overrides what the game has."""

    name: str
    languages: tuple[str, ...] = ("en",)
    fixture: bool = False

    def notation(self) -> GameNotation[Any, Any, Any] | None:
        return None

    def describe_move(
        self,
        move: Message,
        *,
        mover: int | None = None,
        lang: str = "en",
        viewer: int | None = None,
        names: Sequence[str] = (),
    ) -> str | None:
        return None

    def describe_event(
        self,
        event: Message,
        *,
        lang: str = "en",
        viewer: int | None = None,
        names: Sequence[str] = (),
    ) -> str | None:
        return None

    def task(
        self,
        view: Message,
        *,
        lang: str = "en",
        viewer: int | None = None,
        names: Sequence[str] = (),
    ) -> str | None:
        return None

    def outcome_words(self) -> Mapping[str, Words]:
        """The game's ``end.<termination>`` and ``tb.<tie-break>`` words
        (``describe_outcome``; none: the ids are written as words)."""
        return {}

    def describe_outcome(
        self,
        outcome: common_pb2.Outcome,
        *,
        lang: str = "en",
        viewer: int | None = None,
        names: Sequence[str] = (),
    ) -> str:
        return outcome_sentence(outcome, Reader(lang, viewer, names), self.outcome_words())

    def terminal_board(
        self, view: Message, *, viewer: int | None, lang: str = "en"
    ) -> list[Any] | None:
        return None

    def terminal_short_boards(
        self, view: Message, *, viewer: int | None, lang: str = "en"
    ) -> list[list[Any]]:
        return []

    def terminal_details(
        self, view: Message, *, viewer: int | None, lang: str = "en"
    ) -> list[Any] | None:
        return None

    def interchangeable(
        self, view: Message, move: Message, *, viewer: int | None, lang: str = "en"
    ) -> tuple[Message, str] | None:
        return None

    def web_data(self) -> Json | None:
        return None

    def bot(self, seed: int | None = None) -> Bot | None:
        return None

    def bot_trials(self) -> tuple[BotTrial, ...]:
        return ()

    def search(self) -> SearchKnowledge | None:
        return None

    def seat_teams(self, seats: int, options: Mapping[str, Any]) -> tuple[tuple[int, ...], ...]:
        return tuple((seat,) for seat in range(seats))

    def actions(self, seats: int, options: Mapping[str, Any]) -> ActionCodec[Any] | None:
        return None

    def observations(self, seats: int, options: Mapping[str, Any]) -> ViewTensor | None:
        return None


def game_names() -> list[str]:
    """Every game of the protos, in game.proto's order."""
    return game_types_of(game_pb2.GameState)


_CLIENTS: dict[str, GameClient] = {}


def game_client(name: str) -> GameClient:
    """The client side of game ``name``: its package's ``CLIENT``, or a
    :class:`BasicGameClient` when the SDK has no package for it.
    :class:`UnknownGame` for a name the protos do not know."""
    found = _CLIENTS.get(name)
    if found is not None:
        return found
    if name not in game_names():
        known = ", ".join(game_names())
        raise UnknownGame(f"no game {name[:40]!r} (known: {known})")
    try:
        module = importlib.import_module(f"{__package__}.{name}.client")
    except ModuleNotFoundError as missing:
        if missing.name not in (f"{__package__}.{name}", f"{__package__}.{name}.client"):
            raise
        client: GameClient = BasicGameClient(name)
    else:
        client = module.CLIENT
        if client.name != name:
            raise RuntimeError(f"{module.__name__}.CLIENT is named {client.name!r}")
    _CLIENTS[name] = client
    return client


def game_clients() -> dict[str, GameClient]:
    """Every game's client, in game.proto's order."""
    return {name: game_client(name) for name in game_names()}
