"""Kill the King's :class:`~throneroom.games.protocol.GameClient`, for every surface."""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from google.protobuf.message import Message

from throneroom.games.kill_the_king import tasks, texts
from throneroom.games.kill_the_king.notation import KillTheKingNotation
from throneroom.games.protocol import BasicGameClient, BotTrial, SearchKnowledge
from throneroom.games.reader import LANGUAGES, Words

if TYPE_CHECKING:
    from throneroom.games.codec import ActionCodec
    from throneroom.games.kill_the_king.bot import KillTheKingBot
    from throneroom.games.tensor import ViewTensor

_NOTATION = KillTheKingNotation()


@dataclass(frozen=True)
class KillTheKingClient(BasicGameClient):
    def notation(self) -> KillTheKingNotation:
        return _NOTATION

    def describe_move(
        self,
        move: Message,
        *,
        mover: int | None = None,
        lang: str = "en",
        viewer: int | None = None,
        names: Sequence[str] = (),
    ) -> str:
        return texts.describe_move(move, mover=mover, lang=lang, viewer=viewer, names=names)  # type: ignore[arg-type]

    def describe_event(
        self,
        event: Message,
        *,
        lang: str = "en",
        viewer: int | None = None,
        names: Sequence[str] = (),
    ) -> str:
        return texts.describe_event(event, lang=lang, viewer=viewer, names=names)  # type: ignore[arg-type]

    def task(
        self,
        view: Message,
        *,
        lang: str = "en",
        viewer: int | None = None,
        names: Sequence[str] = (),
    ) -> str:
        return tasks.task(view, lang)  # type: ignore[arg-type]

    def interchangeable(
        self, view: Message, move: Message, *, viewer: int | None, lang: str = "en"
    ) -> tuple[Message, str] | None:
        return tasks.interchangeable(view, move, viewer, lang)  # type: ignore[arg-type]

    def terminal_board(self, view: Message, *, viewer: int | None, lang: str = "en") -> list[Any]:
        from throneroom.games.kill_the_king.terminal import kill_the_king_board  # noqa: PLC0415 - needs rich

        return kill_the_king_board(view, viewer)  # type: ignore[arg-type]

    def outcome_words(self) -> Mapping[str, Words]:
        from throneroom.games.kill_the_king.web_words import WEB_WORDS  # noqa: PLC0415 - read when an outcome is described

        return WEB_WORDS

    def terminal_short_boards(
        self, view: Message, *, viewer: int | None, lang: str = "en"
    ) -> list[list[Any]]:
        from throneroom.games.kill_the_king.terminal_short import kill_the_king_short_boards  # noqa: PLC0415 - needs rich

        return kill_the_king_short_boards(view, viewer)  # type: ignore[arg-type]

    def terminal_details(self, view: Message, *, viewer: int | None, lang: str = "en") -> list[Any]:
        from throneroom.games.kill_the_king.terminal_short import kill_the_king_details  # noqa: PLC0415 - needs rich

        return kill_the_king_details(view, viewer)  # type: ignore[arg-type]

    def web_data(self) -> dict[str, Any]:
        from throneroom.games.kill_the_king.web import web_data  # noqa: PLC0415 - only the web asks

        return web_data()

    def bot(self, seed: int | None = None) -> KillTheKingBot:
        from throneroom.games.kill_the_king.bot import KillTheKingBot  # noqa: PLC0415 - bots load on demand

        return KillTheKingBot(seed=seed)

    def bot_trials(self) -> tuple[BotTrial, ...]:
        from throneroom.games.kill_the_king.bot.trials import trials  # noqa: PLC0415 - bots load on demand

        return trials()

    def search(self) -> SearchKnowledge:
        return _search()

    def seat_teams(self, seats: int, options: Mapping[str, Any]) -> tuple[tuple[int, ...], ...]:
        """Seats of one parity play as a team (Giga: 0+2 and 1+3); two seats face each other."""
        from throneroom.games.kill_the_king.modes import team_of  # noqa: PLC0415 - on demand

        teams: dict[int, list[int]] = {}
        for seat in range(seats):
            teams.setdefault(team_of(seat), []).append(seat)
        return tuple(tuple(members) for _, members in sorted(teams.items()))

    def actions(self, seats: int, options: Mapping[str, Any]) -> ActionCodec[Any]:
        from throneroom.games.kill_the_king.actions import action_codec  # noqa: PLC0415 - on demand

        return action_codec(_mode(options))

    def observations(self, seats: int, options: Mapping[str, Any]) -> ViewTensor:
        from throneroom.games.kill_the_king.observations import view_tensor  # noqa: PLC0415

        return view_tensor(seats, _mode(options))


def _mode(options: Mapping[str, Any]) -> int:
    """The ``mode`` option as a number (a tournament file may name it)."""
    from throneroom.v1 import kill_the_king_pb2 as pb  # noqa: PLC0415

    mode = options.get("mode", 0)
    return pb.KillTheKingMode.Value(mode) if isinstance(mode, str) else int(mode)


@functools.cache
def _search() -> SearchKnowledge:
    from throneroom.bots.mcts import Guide  # noqa: PLC0415 - the search loads on demand
    from throneroom.games.kill_the_king import mcts  # noqa: PLC0415
    from throneroom.games.kill_the_king.mcts_world import kill_the_king_world  # noqa: PLC0415

    guide = Guide(
        "kill_the_king",
        mcts.policy,
        mcts.candidates,
        mcts.rewards,
        mcts.stage,
        mcts.estimate,
        paired_chance=True,
    )
    return SearchKnowledge(kill_the_king_world, guide=guide)


CLIENT = KillTheKingClient("kill_the_king", languages=LANGUAGES)
