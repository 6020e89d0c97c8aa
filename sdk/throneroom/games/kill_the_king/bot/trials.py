"""The evaluations KillTheKingBot must pass (issue #9), one per mode.

Kill the King is asymmetric, and the sides are decided in the game itself:
the seat that wins the initiative roll chooses attacker or defender (KK-13,
KK-14). A trial does not touch that: the heuristic bot is told the side it
prefers (``KillTheKingBot(side=...)``: the side it takes when it wins the
roll), alternately the attacker (even game numbers) and the defender (odd
ones), and each game is counted for the side the bot actually played. Goal: at
least 80% for each side. The Giga modes (3 and 4, four seats by default) are
played by teams (KK-123: seat % 2): every seat of the bot's team is a
KillTheKingBot, every seat of the other team a RandomBot; the bot's team is
team 0 in even games and team 1 in odd ones, and seats placing at once take
turns. ``make bots`` runs the two-seat modes.
"""

from __future__ import annotations

from collections.abc import Sequence

from google.protobuf.message import Message

from throneroom.bots import Bot, RandomBot
from throneroom.games.kill_the_king.bot import KillTheKingBot
from throneroom.games.kill_the_king.data import MODES, Mode, Side
from throneroom.games.protocol import BotTrial

__all__ = ["GOAL", "trials"]

GOAL = 0.80
SIDES = (Side.ATTACKER.name.lower(), Side.DEFENDER.name.lower())


def _bots(number: int, seats: int) -> list[Bot]:
    hero = number % 2
    prefer = Side.ATTACKER if number % 2 == 0 else Side.DEFENDER
    bots: list[Bot] = [RandomBot(seed=number * 100 + s) for s in range(seats)]
    for seat in range(hero, seats, 2):
        bots[seat] = KillTheKingBot(seed=number * 100 + seat, side=prefer)
    return bots


def _won(winners: Sequence[int], number: int, seats: int) -> bool:
    return number % 2 in winners


def _side(state: Message, number: int) -> str:
    return Side(state.seats[number % 2].side).name.lower()  # type: ignore[attr-defined]


def trials() -> tuple[BotTrial, ...]:
    out = []
    for mode in Mode:
        spec = MODES[mode]
        teams = ", in two teams" if spec.giga else ""
        out.append(
            BotTrial(
                f"Kill the King, mode {int(mode)} ({spec.name}){teams}",
                seats=4 if spec.giga else 2,
                goal=GOAL,
                bots=_bots,
                won=_won,
                options={"mode": int(mode)},
                games=100,
                groups=SIDES,
                group=_side,
                take_turns=spec.giga,
                make_target=not spec.giga,
            )
        )
    return tuple(out)
