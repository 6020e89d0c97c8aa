"""King's Life's world for the MCTS bot: a full state built from one seat's view only.

The engines cannot turn a view back into a state, so the game's package has a
builder that does it with the game's data (``throneroom.games.kings_life.data``):
every public fact of the view is copied; every hidden fact gets a placeholder
of the right size taken from the cards the view does not show (the game's
composition minus every card the seat can see); then the engine's own
``randomize_hidden(state, seat, seed)`` redraws all of them at random among
the worlds consistent with what the seat knows. The true state is never read:
the input is the view the service sent to the seat.

King's Life: hidden are the other hands (but the cards taken back with the
Fool), face-down discards, the face-down initial-round cards, the deck, the
unseen support tokens, the answers to simultaneous decisions, and the
face-down preference (known by elimination: the activity not shown). The
unknown cards are ``ALL_CARDS`` minus displays, kept, revealed and face-up
discards, removed cards, the pending card, revealed commitments and the
viewer's own hand, face-down discards and commitment; placeholders take them
in order for the other hands, face-down discards and commitments, and the
deck gets the rest. Face-down discards are put at the end of the discard pile
(their place in it is hidden; only the pile's content matters to the rules).
Unknown token values are the token values minus the known ones. In the
initial round, the number of cards left over after hands, discards and deck
is the number of seats that committed a card (a seat without a sun card
commits nothing, and is asked all the same): the answered seats with the
smallest hands are given them. Other hidden answers start as "no" (no
mulligan, no Queen cancel), and ``randomize_hidden`` redraws what an
answered seat may hold.

``tests/tournament/test_mcts.py`` checks over seeded playouts that every
world's view for the seat equals the view it was built from.
"""

from __future__ import annotations

from typing import Any

from throneroom.games.kings_life.data import ACTIVITIES, ALL_CARDS, DAYS, TOKEN_VALUES
from throneroom.v1 import kings_life_pb2 as kl

__all__ = ["kings_life_world"]

NO_SEAT = -1


def kings_life_world(view: kl.KingsLifeView, seat: int) -> kl.KingsLifeState:
    """A state whose view for ``seat`` is ``view`` (hidden cards: placeholders)."""
    state = _public_state(view)
    pool = _unknown_cards(view)

    def take(count: int) -> list[int]:
        taken = pool[:count]
        del pool[:count]
        return taken

    hidden_discards: list[int] = []
    for index, public in enumerate(view.players):
        player: Any = state.players.add(  # Any: enum lists take plain ints
            display=public.display,
            passed=public.passed,
            supporter=public.supporter,
            supporting=public.supporting,
            days_won=public.days_won,
            kept=public.kept,
            revealed=public.revealed,
        )
        if index == seat:
            player.hand.extend(view.hand)
            player.face_down_discards.extend(view.my_face_down_discards)
            player.commitment = view.my_commitment
            hidden_discards.extend(view.my_face_down_discards)
            player.tokens_seen.extend(_tokens_seen(view, seat))
            continue
        player.hand.extend(list(public.revealed) + take(public.hand_size - len(public.revealed)))
        face_down = take(public.face_down_discards)
        player.face_down_discards.extend(face_down)
        hidden_discards.extend(face_down)
        if public.revealed_commitment:
            player.commitment = public.revealed_commitment
    if view.phase == kl.KingsLifeState.PHASE_INITIAL_ROUND:
        # The cards left over are the commitments of seats that answered (a seat
        # without a sun card answers nothing): the smallest hands committed.
        committed = len(pool) - view.deck_size
        answered = [i for i in range(view.num_seats) if i != seat and i not in view.to_act]
        answered.sort(key=lambda i: (view.players[i].hand_size, i))
        for index in answered[:committed]:
            state.players[index].commitment = take(1)[0]  # randomize_hidden draws a sun card
    state.discard.extend(list(view.discard) + hidden_discards)
    state.deck.extend(take(view.deck_size))
    _add_tokens(view, state)
    return state


def _public_state(view: kl.KingsLifeView) -> kl.KingsLifeState:
    """The state's public facts, as the view shows them (no player records yet)."""
    phases = kl.KingsLifeState
    state = kl.KingsLifeState(
        num_seats=view.num_seats,
        day=view.day,
        phase=view.phase,
        first_player=view.first_player,
        turn=view.turn,
        window=view.window,
        merchant_on=view.merchant_on,
        sorcerer_on=view.sorcerer_on,
        sorcerer_activity=view.sorcerer_activity,
        removed=view.removed,
        days=view.days,
        fool_taken=view.fool_taken,
        queen_canceller=NO_SEAT,
        queen_target=NO_SEAT,
        last_winner=NO_SEAT,
    )
    if view.phase in (
        phases.PHASE_MULLIGAN,
        phases.PHASE_INITIAL_ROUND,
        phases.PHASE_QUEEN_WINDOW,
    ):
        state.awaiting.extend(view.to_act)
    shown = list(view.preferences)
    state.preferences.extend(shown + [a for a in ACTIVITIES if a not in shown])
    for record in view.days:
        if record.result == kl.KingsLifeDayRecord.RESULT_WON:
            state.last_winner = record.winner
    if view.HasField("pending"):
        state.pending.CopyFrom(view.pending)
    if view.HasField("outcome"):
        state.outcome.CopyFrom(view.outcome)
    return state


def _unknown_cards(view: kl.KingsLifeView) -> list[int]:
    """The cards the view does not show, in the game's order."""
    known: set[int] = set(view.discard) | set(view.removed)
    known.update(view.hand, view.my_face_down_discards)
    if view.my_commitment:
        known.add(view.my_commitment)
    if view.HasField("pending") and view.pending.card:
        known.add(view.pending.card)
    for public in view.players:
        known.update(public.display, public.kept, public.revealed)
        if public.revealed_commitment:
            known.add(public.revealed_commitment)
    return [c for c in ALL_CARDS if c not in known]


def _add_tokens(view: kl.KingsLifeView, state: kl.KingsLifeState) -> None:
    """The day tokens: known values as shown, unknown ones from the values left."""
    values = list(TOKEN_VALUES)
    for token in view.tokens:
        if token.known:
            values.remove(token.value)
    for token in view.tokens:
        value = token.value if token.known else values.pop()
        state.tokens.add(value=value, status=token.status, holder=token.holder)


def _tokens_seen(view: kl.KingsLifeView, seat: int) -> list[int]:
    """The days whose token the seat knows other than by holding it (Astrologer)."""
    over = view.phase == kl.KingsLifeState.PHASE_GAME_OVER
    won = kl.KingsLifeToken.STATUS_WON
    return [
        DAYS[index]
        for index, token in enumerate(view.tokens)
        if token.known and not (token.status == won and (token.holder == seat or over))
    ]
