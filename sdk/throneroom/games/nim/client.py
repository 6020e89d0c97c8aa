"""Nim's :class:`~throneroom.games.protocol.GameClient`: notation, texts, the
terminal board, the web data and the bot."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from google.protobuf.message import Message

from throneroom.games.nim import texts
from throneroom.games.nim.notation import NimNotation
from throneroom.games.protocol import BasicGameClient, BotTrial
from throneroom.games.reader import LANGUAGES, Words

if TYPE_CHECKING:
    from throneroom.games.nim.bot import NimBot

_NOTATION = NimNotation()


@dataclass(frozen=True)
class NimClient(BasicGameClient):
    def notation(self) -> NimNotation:
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

    def terminal_board(self, view: Message, *, viewer: int | None, lang: str = "en") -> list[Any]:
        from throneroom.games.nim.terminal import nim_board  # noqa: PLC0415 - needs rich

        return nim_board(view, viewer, lang)  # type: ignore[arg-type]

    def outcome_words(self) -> Mapping[str, Words]:
        from throneroom.games.nim.texts import PAGE  # noqa: PLC0415 - read when an outcome is described

        return PAGE

    def web_data(self) -> dict[str, Any]:
        from throneroom.games.nim.web import web_data  # noqa: PLC0415 - only the web asks

        return web_data()

    def bot(self, seed: int | None = None) -> NimBot:
        from throneroom.games.nim.bot import NimBot  # noqa: PLC0415 - bots load on demand

        return NimBot(seed=seed)

    def bot_trials(self) -> tuple[BotTrial, ...]:
        from throneroom.games.nim.bot import trials  # noqa: PLC0415 - bots load on demand

        return trials()


CLIENT = NimClient("nim", languages=LANGUAGES, fixture=True)
