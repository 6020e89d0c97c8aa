"""A heuristic King's Life bot that sees only its view and its legal moves.

The plan, day by day: find the activity where the bot's display and hand make
the best program; commit its best sun card; fight for the day only when the
day looks winnable (the public programs say by how much the leader leads),
otherwise pass early, keep the cards for a later day (hands carry over) and
support the leader, handing over a display card that helps the leader (the
displays are discarded at the end of the day anyway). Characters are played
when their simulated effect makes the bot win the day; the Queen cancels a
card that would take the day from the bot (or from the player it supports);
the Duke is played when the day card is worth more than an average token.

``auto_decline_queen`` (re-exported from ``throneroom.games.kings_life``)
answers a Queen window for a seat without the Queen.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from throneroom.envelopes import unwrap, wrap_move
from throneroom.games.kings_life import DAYS, auto_decline_queen, card_face, only_move
from throneroom.games.kings_life.data import (
    ACTIVITIES,
    CARD_ACTIVITY,
    CARD_CHARACTER,
    CARD_VALUE,
    MERCHANT,
    PRIEST,
    PRIEST_VALUE,
    SORCERER,
    TOKEN_VALUES,
)
from throneroom.games.protocol import BotTrial, against_random_bots
from throneroom.v1 import game_pb2
from throneroom.v1 import kings_life_pb2 as pb
from throneroom.v1.kings_life_pb2 import KingsLifeMove, KingsLifeView

__all__ = ["KingsLifeBot", "auto_decline_queen"]

GAME = "kings_life"
Phase = pb.KingsLifeState

KEEP_VALUE: dict[int, int] = {
    pb.CHARACTER_QUEEN: 4,
    pb.CHARACTER_DUKE: 3,
    pb.CHARACTER_THIEF: 3,
    pb.CHARACTER_MERCHANT: 4,
    pb.CHARACTER_DUCHESS: 3,
    pb.CHARACTER_SORCERER: 3,
    pb.CHARACTER_PRINCESS: 3,
    pb.CHARACTER_PRIEST: 2,
    pb.CHARACTER_GUARD: 2,
    pb.CHARACTER_RAINY_DAY: 2,
    pb.CHARACTER_PEON: 1,
    pb.CHARACTER_CHAMBERLAIN: 2,
    pb.CHARACTER_JESTER: 1,
    pb.CHARACTER_LITTLE_PRINCE: 1,
    pb.CHARACTER_ASTROLOGER: 0,
    pb.CHARACTER_DOG: 0,
    pb.CHARACTER_FOOL: 0,
}
"""How much a card in hand is worth keeping (exchange, the Dog)."""


@dataclass
class Table:
    """The public part of a view that decides programs, as plain lists."""

    preferences: list[int]
    displays: list[list[int]]
    merchant_on: int
    sorcerer_on: int
    sorcerer_activity: int
    extra_priest: bool = False
    passed: list[bool] = field(default_factory=list)
    _programs: list[tuple[int, int]] | None = field(
        default=None, init=False, repr=False, compare=False
    )
    """Each seat's ``program``, computed once: a table is changed only by
    ``move_card`` (which forgets them) or on a fresh copy (see ``after``)."""

    @classmethod
    def of(cls, view: KingsLifeView) -> Table:
        return cls(
            preferences=list(view.preferences),
            displays=[list(p.display) for p in view.players],
            merchant_on=view.merchant_on,
            sorcerer_on=view.sorcerer_on,
            sorcerer_activity=view.sorcerer_activity,
            passed=[p.passed for p in view.players],
        )

    def copy(self) -> Table:
        return Table(
            list(self.preferences),
            [list(d) for d in self.displays],
            self.merchant_on,
            self.sorcerer_on,
            self.sorcerer_activity,
            self.extra_priest,
            list(self.passed),
        )

    def program(self, seat: int) -> tuple[int, int]:
        """(value, rank) of a display's best program; rank 9 without one."""
        if self._programs is None:
            self._programs = [self._program(s) for s in range(len(self.displays))]
        return self._programs[seat]

    def _program(self, seat: int) -> tuple[int, int]:
        priest = self.extra_priest or any(PRIEST in d for d in self.displays)
        sums = [0, 0, 0]
        present = [False, False, False]
        wild = 0
        preferences = self.preferences
        for card in self.displays[seat]:
            activity: int = CARD_ACTIVITY[card]
            if activity:
                if card == self.sorcerer_on:
                    activity = self.sorcerer_activity
                if activity not in preferences:
                    continue
                value = CARD_VALUE[card]
                if priest and value == PRIEST_VALUE:
                    value = 0
                if card == self.merchant_on:
                    value *= 2
                rank = preferences.index(activity)
                sums[rank] += value
                present[rank] = True
            elif CARD_CHARACTER[card] == pb.CHARACTER_DUCHESS:
                wild += CARD_VALUE[card]
        best = (0, 9)
        for rank in range(3):
            if present[rank] or wild:
                value = sums[rank] + wild + (1 if rank == 0 else 0)
                if best[1] == 9 or value > best[0]:
                    best = (value, rank)
        return best

    def winner(self) -> int:
        """The seat the king would choose now, -1 for none (tie or no program)."""
        keys = [self.program(s) for s in range(len(self.displays))]
        best = max(((v, -r) for v, r in keys if r != 9), default=None)
        if best is None:
            return -1
        leaders = [s for s, (v, r) in enumerate(keys) if r != 9 and (v, -r) == best]
        return leaders[0] if len(leaders) == 1 else -1

    def margin(self, seat: int) -> int:
        """How far ``seat``'s program is ahead of the best other one (negative: behind)."""
        mine = self.program(seat)
        others = [self.program(s) for s in range(len(self.displays)) if s != seat]
        best = max((v for v, r in others if r != 9), default=-1)
        return (mine[0] if mine[1] != 9 else -1) - best

    def move_card(self, card: int, to_seat: int) -> None:
        self._programs = None
        for display in self.displays:
            if card in display:
                display.remove(card)
                for attached, target in (
                    (MERCHANT, self.merchant_on),
                    (SORCERER, self.sorcerer_on),
                ):
                    if target == card and attached in display:
                        display.remove(attached)
                        self.displays[to_seat].append(attached)
                break
        self.displays[to_seat].append(card)

    def after(self, seat: int, play: KingsLifeMove.Play) -> Table:
        """The table once ``play`` by ``seat`` took effect (the parts that matter)."""
        sim = self.copy()
        face = card_face(play.card)
        kind = face.character
        if not kind or kind in (pb.CHARACTER_DUCHESS, pb.CHARACTER_PRIEST):
            sim.displays[seat].append(play.card)
        elif kind == pb.CHARACTER_MERCHANT:
            sim.displays[seat].append(play.card)
            sim.merchant_on = play.target_card
        elif kind == pb.CHARACTER_SORCERER:
            sim.displays[seat].append(play.card)
            sim.sorcerer_on = play.target_card
            sim.sorcerer_activity = play.activity
        elif kind == pb.CHARACTER_THIEF:
            sim.move_card(play.target_card, seat)
        elif kind == pb.CHARACTER_JESTER and len(play.cards) == 2:
            a, b = play.cards
            owner_a = next(s for s, d in enumerate(sim.displays) if a in d)
            owner_b = next(s for s, d in enumerate(sim.displays) if b in d)
            sim.move_card(a, owner_b)
            sim.move_card(b, owner_a)
        elif kind == pb.CHARACTER_CHAMBERLAIN and len(play.positions) == 2:
            board = [*sim.preferences, _face_down(sim.preferences)]
            i, j = play.positions
            board[i], board[j] = board[j], board[i]
            sim.preferences = board[:3]
        elif kind == pb.CHARACTER_GUARD:
            sim.passed[seat] = True
        return sim


def _face_down(preferences: Sequence[int]) -> int:
    return next(a for a in ACTIVITIES if a not in preferences)


def keep_value(card: int) -> int:
    face = card_face(card)
    return face.value if face.activity else KEEP_VALUE.get(face.character, 0)


class KingsLifeBot:
    """Plays King's Life from its view and legal moves (see the module docstring)."""

    name = "kings_life_heuristic"

    def __init__(self, seed: int | None = None, *, fight_margin: int = 2) -> None:
        self._random = random.Random(seed)
        self.fight_margin = fight_margin

    def plays(self, game_type: str, num_seats: int, options: Mapping[str, Any]) -> bool:
        """Whether this bot plays ``game_type`` (every mode and seat count of it)."""
        return game_type == GAME

    def choose(
        self,
        game_type: str,
        seat: int,
        view: game_pb2.View,
        legal_moves: Sequence[game_pb2.Move],
    ) -> game_pb2.Move:
        if game_type != GAME:
            raise ValueError(f"KingsLifeBot plays {GAME}, not {game_type}")
        if not legal_moves:
            raise ValueError(f"seat {seat} has no legal move to choose from")
        own_view = unwrap(view)
        moves = [unwrap(m) for m in legal_moves]
        assert isinstance(own_view, KingsLifeView)
        own_moves = [m for m in moves if isinstance(m, KingsLifeMove)]
        chosen = self.decide(seat, own_view, own_moves)
        return wrap_move(GAME, chosen)

    # --- The decisions ------------------------------------------------------------------

    def decide(self, seat: int, view: KingsLifeView, moves: list[KingsLifeMove]) -> KingsLifeMove:
        forced = only_move(moves)
        if forced is not None:
            return forced
        kind = moves[0].WhichOneof("kind")
        if kind == "exchange":
            return self._exchange(moves)
        if kind == "mulligan":
            return next(m for m in moves if m.mulligan.take)
        if kind == "commit":
            return self._commit(view, moves)
        if kind == "queen":
            return self._queen(seat, view, moves)
        if kind == "duke":
            return self._duke(view, moves)
        if kind == "take_back":
            return self._take_back(view, moves)
        return self._turn(seat, view, moves)

    def _exchange(self, moves: list[KingsLifeMove]) -> KingsLifeMove:
        """Discard the cards worth little to keep (at most three)."""
        best = moves[0]
        best_score = 0.0
        for move in moves:
            score = sum(2.5 - keep_value(c) for c in move.exchange.discard)
            if score > best_score:
                best, best_score = move, score
        return best

    def _commit(self, view: KingsLifeView, moves: list[KingsLifeMove]) -> KingsLifeMove:
        """The best sun card of the activity where the hand is strongest."""
        target = self._target_activity(view)

        def score(move: KingsLifeMove) -> tuple[int, int, int]:
            face = card_face(move.commit.card)
            in_target = face.activity == target
            return (int(in_target), face.value if in_target else -face.value, int(face.draws))

        return max(moves, key=score)

    def _target_activity(self, view: KingsLifeView) -> int:
        prefs: list[int] = list(view.preferences)
        totals: dict[int, int] = {a: (1 if i == 0 else 0) for i, a in enumerate(prefs)}
        for card in list(view.hand) + list(view.players[view.viewer].display):
            face = card_face(card)
            if face.activity in totals:
                totals[face.activity] += face.value
        return max(prefs, key=lambda a: (totals[a], -prefs.index(a)))

    def _queen(self, seat: int, view: KingsLifeView, moves: list[KingsLifeMove]) -> KingsLifeMove:
        decline = next(m for m in moves if not m.queen.cancel)
        cancels = [m for m in moves if m.queen.cancel]
        if not cancels or view.window != Phase.WINDOW_PLAY:
            return decline
        table = Table.of(view)
        player = view.turn
        favourite = seat if view.players[seat].supporting < 0 else view.players[seat].supporting
        before = table.winner()
        pending = view.pending
        if card_face(pending.card).character == pb.CHARACTER_RAINY_DAY:
            return cancels[0] if before in (seat, favourite) else decline
        after = table.after(player, pending).winner()
        if before in (seat, favourite) and after not in (seat, favourite):
            return cancels[0]
        return decline

    def _duke(self, view: KingsLifeView, moves: list[KingsLifeMove]) -> KingsLifeMove:
        """Swap the rewards when the day card is worth more than the token."""
        today = view.tokens[view.day - 1]
        if today.known:
            token = float(today.value)
        else:
            pool = list(TOKEN_VALUES)
            for t in view.tokens:
                if t.known and t.value in pool:
                    pool.remove(t.value)
            token = sum(pool) / len(pool) if pool else 1.0
        play = next(m for m in moves if m.duke.play)
        decline = next(m for m in moves if not m.duke.play)
        return play if DAYS[view.day].victory_points > token else decline

    def _take_back(self, view: KingsLifeView, moves: list[KingsLifeMove]) -> KingsLifeMove:
        """After a Fool: take back the characters worth keeping for a later day
        (the display is discarded at the end of the day), then stop."""
        worth = [
            m
            for m in moves
            if m.take_back.card
            and m.take_back.card not in (MERCHANT, SORCERER)
            and not card_face(m.take_back.card).activity
            and keep_value(m.take_back.card) >= 3
        ]
        return worth[0] if worth else moves[0]

    # --- A turn ---------------------------------------------------------------------------

    def _turn(self, seat: int, view: KingsLifeView, moves: list[KingsLifeMove]) -> KingsLifeMove:
        table = Table.of(view)
        passes = [m for m in moves if m.WhichOneof("kind") == "passing"]
        plays = [m for m in moves if m.WhichOneof("kind") == "play"]
        if not plays:
            return self._best_pass(seat, view, table, passes)
        others_active = any(not p for s, p in enumerate(table.passed) if s != seat)
        margin = table.margin(seat)
        winning = table.winner() == seat
        if winning and (not others_active or margin >= self.fight_margin):
            return self._best_pass(seat, view, table, passes)
        # Every play, scored by what it does to the day.
        target = self._target_activity(view)
        scored: list[tuple[float, int, KingsLifeMove]] = []
        for index, move in enumerate(plays):
            play = move.play
            face = card_face(play.card)
            if face.character in (pb.CHARACTER_FOOL, pb.CHARACTER_DOG, pb.CHARACTER_ASTROLOGER):
                continue
            if face.character == pb.CHARACTER_RAINY_DAY:
                continue  # weighed below, as a last resort
            sim = table.after(seat, play)
            new_margin = sim.margin(seat)
            wins = sim.winner() == seat
            gain = new_margin - margin
            if gain <= 0 and not (wins and not winning):
                continue
            cost = keep_value(play.card)
            if face.activity and face.activity != target and not wins:
                cost += 2
            score = (10 if wins else 0) + min(gain, 6) - 0.5 * cost
            scored.append((score, -index, move))
        potential = self._potential(view, table, seat, target)
        if scored:
            score, _, move = max(scored, key=lambda t: (t[0], t[1]))
            if score >= 8 or potential >= 0 or winning:
                return move
        rainy = [m for m in plays if card_face(m.play.card).character == pb.CHARACTER_RAINY_DAY]
        leader = table.winner()
        favourite = view.players[seat].supporting
        if (
            rainy
            and leader not in (-1, seat, favourite)
            and view.players[leader].supporter != seat
            and (view.players[leader].supporter >= 0 or view.players[seat].supporting >= 0)
        ):
            # Nothing to gain from this day for us: deny it to the leader.
            return rainy[0]
        return self._best_pass(seat, view, table, passes, plays)

    def _potential(self, view: KingsLifeView, table: Table, seat: int, target: int) -> int:
        """How far ahead the bot could get by playing its whole target activity."""
        sim = table.copy()
        for card in view.hand:
            if card_face(card).activity == target or card_face(card).character == (
                pb.CHARACTER_DUCHESS
            ):
                sim.displays[seat].append(card)
        return sim.margin(seat)

    def _best_pass(
        self,
        seat: int,
        view: KingsLifeView,
        table: Table,
        passes: list[KingsLifeMove],
        plays: Sequence[KingsLifeMove] = (),
    ) -> KingsLifeMove:
        """Pass supporting the most likely winner (with a helpful card), or use a
        Guard to take over the leader's support."""
        leader = table.winner()
        if leader == seat:
            leader = max(
                (s for s in range(len(table.displays)) if s != seat),
                key=lambda s: table.program(s)[0],
            )
        guards = [
            m
            for m in plays
            if card_face(m.play.card).character == pb.CHARACTER_GUARD
            and m.play.HasField("support")
            and m.play.support == leader
        ]
        supportable = [m for m in passes if m.passing.HasField("support")]
        if not any(m.passing.support == leader for m in supportable) and guards:
            return self._with_best_gift(table, guards, leader, lambda m: m.play.hand_over)
        to_leader = [m for m in supportable if m.passing.support == leader]
        if to_leader:
            return self._with_best_gift(table, to_leader, leader, lambda m: m.passing.hand_over)
        if supportable:
            ranked = sorted(supportable, key=lambda m: -table.program(m.passing.support)[0])
            best_target = ranked[0].passing.support
            return next(
                m
                for m in supportable
                if m.passing.support == best_target and not m.passing.hand_over
            )
        return passes[0]

    @staticmethod
    def _with_best_gift(
        table: Table, moves: list[KingsLifeMove], target: int, gift_of: object
    ) -> KingsLifeMove:
        assert callable(gift_of)
        best = moves[0]
        best_value = table.program(target)[0]
        for move in moves:
            gift = gift_of(move)
            if not gift:
                continue
            sim = table.copy()
            sim.move_card(gift, target)
            value = sim.program(target)[0]
            if value > best_value:
                best, best_value = move, value
        return best


def trials() -> tuple[BotTrial, ...]:
    """The evaluation KingsLifeBot must pass (issues #3 and #4): at least 40% of
    the games at 5 seats against random bots."""
    return (
        against_random_bots(
            "King's Life", lambda seed: KingsLifeBot(seed=seed), seats=5, goal=0.40
        ),
    )
