"""King's Life's :class:`~throneroom.games.protocol.GameClient`, for every surface."""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from google.protobuf.message import Message

from throneroom.games.kings_life import texts
from throneroom.games.kings_life.notation import KingsLifeNotation
from throneroom.games.kings_life.tasks import task as _task
from throneroom.games.protocol import BasicGameClient, BotTrial, SearchKnowledge
from throneroom.games.reader import LANGUAGES, Words

if TYPE_CHECKING:
    from throneroom.games.codec import ActionCodec
    from throneroom.games.kings_life.bot import KingsLifeBot
    from throneroom.games.tensor import ViewTensor

_NOTATION = KingsLifeNotation()


@dataclass(frozen=True)
class KingsLifeClient(BasicGameClient):
    def notation(self) -> KingsLifeNotation:
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
        return texts.describe_move(move, mover, lang=lang, viewer=viewer, names=names)  # type: ignore[arg-type]

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
        return _task(view)  # type: ignore[arg-type]

    def terminal_board(self, view: Message, *, viewer: int | None, lang: str = "en") -> list[Any]:
        from throneroom.games.kings_life.terminal import kings_life_board  # noqa: PLC0415 - needs rich

        return kings_life_board(view, viewer)  # type: ignore[arg-type]

    def outcome_words(self) -> Mapping[str, Words]:
        from throneroom.games.kings_life.web_words import WEB_WORDS  # noqa: PLC0415 - read when an outcome is described

        return WEB_WORDS

    def terminal_short_boards(
        self, view: Message, *, viewer: int | None, lang: str = "en"
    ) -> list[list[Any]]:
        from throneroom.games.kings_life.terminal import kings_life_short_boards  # noqa: PLC0415 - needs rich

        return kings_life_short_boards(view, viewer)  # type: ignore[arg-type]

    def web_data(self) -> dict[str, Any]:
        from throneroom.games.kings_life.web import web_data  # noqa: PLC0415 - only the web asks

        return web_data()

    def bot(self, seed: int | None = None) -> KingsLifeBot:
        from throneroom.games.kings_life.bot import KingsLifeBot  # noqa: PLC0415 - bots load on demand

        return KingsLifeBot(seed=seed)

    def bot_trials(self) -> tuple[BotTrial, ...]:
        from throneroom.games.kings_life.bot import trials  # noqa: PLC0415 - bots load on demand

        return trials()

    def search(self) -> SearchKnowledge:
        return _search()

    def actions(self, seats: int, options: Mapping[str, Any]) -> ActionCodec[Any]:
        from throneroom.games.kings_life.actions import action_codec  # noqa: PLC0415 - on demand

        return action_codec(seats)

    def observations(self, seats: int, options: Mapping[str, Any]) -> ViewTensor:
        from throneroom.games.kings_life.observations import view_tensor  # noqa: PLC0415

        return view_tensor(seats)


@functools.cache
def _search() -> SearchKnowledge:
    from throneroom.bots.mcts import Guide  # noqa: PLC0415 - the search loads on demand
    from throneroom.games.kings_life import mcts  # noqa: PLC0415
    from throneroom.games.kings_life.mcts_world import kings_life_world  # noqa: PLC0415

    guide = Guide(
        "kings_life", mcts.policy, mcts.candidates, mcts.rewards, mcts.stage, mcts.estimate
    )
    return SearchKnowledge(kings_life_world, guide=guide)


CLIENT = KingsLifeClient("kings_life", languages=LANGUAGES)
