"""The King Is Dead's :class:`~throneroom.games.protocol.GameClient`, for every surface."""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from google.protobuf.message import Message

from throneroom.games import king_is_dead as texts
from throneroom.games.king_is_dead.notation import KingIsDeadNotation
from throneroom.games.king_is_dead.tasks import task as _task
from throneroom.games.protocol import BasicGameClient, BotTrial, SearchKnowledge
from throneroom.games.reader import Words

if TYPE_CHECKING:
    from throneroom.games.codec import ActionCodec
    from throneroom.games.king_is_dead.bot import KingIsDeadBot
    from throneroom.games.tensor import ViewTensor

_NOTATION = KingIsDeadNotation()


@dataclass(frozen=True)
class KingIsDeadClient(BasicGameClient):
    def notation(self) -> KingIsDeadNotation:
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
        return texts.describe_move(move, lang, mover=mover, viewer=viewer, names=names)  # type: ignore[arg-type]

    def describe_event(
        self,
        event: Message,
        *,
        lang: str = "en",
        viewer: int | None = None,
        names: Sequence[str] = (),
    ) -> str:
        return texts.describe_event(event, lang, viewer=viewer, names=names)  # type: ignore[arg-type]

    def task(
        self,
        view: Message,
        *,
        lang: str = "en",
        viewer: int | None = None,
        names: Sequence[str] = (),
    ) -> str:
        return _task(view, lang)  # type: ignore[arg-type]

    def terminal_board(self, view: Message, *, viewer: int | None, lang: str = "en") -> list[Any]:
        from throneroom.games.king_is_dead.terminal import king_is_dead_board  # noqa: PLC0415 - needs rich

        return king_is_dead_board(view, viewer, lang)  # type: ignore[arg-type]

    def outcome_words(self) -> Mapping[str, Words]:
        from throneroom.games.king_is_dead.web_words import WEB_WORDS  # noqa: PLC0415 - read when an outcome is described

        return WEB_WORDS

    def terminal_short_boards(
        self, view: Message, *, viewer: int | None, lang: str = "en"
    ) -> list[list[Any]]:
        from throneroom.games.king_is_dead.terminal_short import king_is_dead_short_boards  # noqa: PLC0415 - needs rich

        return king_is_dead_short_boards(view, viewer, lang)  # type: ignore[arg-type]

    def terminal_details(self, view: Message, *, viewer: int | None, lang: str = "en") -> list[Any]:
        from throneroom.games.king_is_dead.terminal_short import king_is_dead_details  # noqa: PLC0415 - needs rich

        return king_is_dead_details(view, viewer, lang)  # type: ignore[arg-type]

    def web_data(self) -> dict[str, Any]:
        from throneroom.games.king_is_dead.web import web_data  # noqa: PLC0415 - only the web asks

        return web_data()

    def bot(self, seed: int | None = None) -> KingIsDeadBot:
        from throneroom.games.king_is_dead.bot import KingIsDeadBot  # noqa: PLC0415 - bots load on demand

        return KingIsDeadBot(seed=seed)

    def bot_trials(self) -> tuple[BotTrial, ...]:
        from throneroom.games.king_is_dead.bot import trials  # noqa: PLC0415 - bots load on demand

        return trials()

    def search(self) -> SearchKnowledge:
        return _search()

    def seat_teams(self, seats: int, options: Mapping[str, Any]) -> tuple[tuple[int, ...], ...]:
        """Four seats play as two teams, seats 0+2 and 1+3 (the rulebook's partners)."""
        from throneroom.games.king_is_dead.data import TEAM_SEATS  # noqa: PLC0415 - on demand

        if seats == TEAM_SEATS:
            return ((0, 2), (1, 3))
        return tuple((seat,) for seat in range(seats))

    def actions(self, seats: int, options: Mapping[str, Any]) -> ActionCodec[Any]:
        from throneroom.games.king_is_dead.actions import action_codec  # noqa: PLC0415 - on demand

        return action_codec()

    def observations(self, seats: int, options: Mapping[str, Any]) -> ViewTensor:
        from throneroom.games.king_is_dead.observations import view_tensor  # noqa: PLC0415

        return view_tensor(seats)


@functools.cache
def _search() -> SearchKnowledge:
    from throneroom.games.king_is_dead import mcts  # noqa: PLC0415 - the search loads on demand
    from throneroom.games.king_is_dead.mcts_memory import PlayedCards  # noqa: PLC0415
    from throneroom.games.king_is_dead.mcts_world import king_is_dead_world  # noqa: PLC0415

    return SearchKnowledge(
        king_is_dead_world, memory=PlayedCards, prior=mcts.prior, value=mcts.value
    )


CLIENT = KingIsDeadClient("king_is_dead", languages=texts.LANGUAGES)
