"""What each seat may see: views, event redaction, and hidden-world sampling.

Secrets: each hand (a seat sees its own; everyone sees the hand sizes and the
cards taken back with the Fool), the deck order, face-down discards (the
discarding seat knows them), face-down initial-round cards until the reveal,
the answers to simultaneous decisions until they take effect (so who holds
the Queen never leaks), the support tokens' values (a seat sees the tokens it
won and those it looked at with an Astrologer; won tokens are shown to all
once the game is over), and the RNG. The face-down preference card is not
shown, though with four activities it is known by elimination.
"""

from __future__ import annotations

from throneroom.v1 import kings_life_pb2 as pb

from throneroom_server.games.core import Viewer
from throneroom_server.games.kings_life import queen, reckoning
from throneroom_server.games.kings_life.data import (
    ALL_CARDS,
    CARD_ACTIVITY,
    CARD_SUN,
    DAYS,
    FACE_DOWN_POSITION,
    QUEEN,
)
from throneroom_server.games.kings_life.phases import TABLE
from throneroom_server.games.kings_life.table import NO_SEAT, Event, State
from throneroom_server.games.rng import Rng, seed_rng

Phase = pb.KingsLifeState
Status = pb.KingsLifeToken


def _initial_cards_public(state: State) -> bool:
    return state.phase == Phase.PHASE_QUEEN_WINDOW and state.window == Phase.WINDOW_INITIAL_REVEAL


def token_known(state: State, day_index: int, viewer: Viewer) -> bool:
    token = state.tokens[day_index]
    if token.status == Status.STATUS_WON and (
        token.holder == viewer or state.phase == Phase.PHASE_GAME_OVER
    ):
        return True
    return viewer is not None and DAYS[day_index] in state.players[viewer].tokens_seen


def view(state: State, viewer: Viewer) -> pb.KingsLifeView:
    over = state.phase == Phase.PHASE_GAME_OVER
    to_act = list(TABLE.current(state).acting(state))
    face_down: set[int] = set()
    for player in state.players:
        face_down.update(player.face_down_discards)
    out = pb.KingsLifeView(
        num_seats=state.num_seats,
        viewer=NO_SEAT if viewer is None else viewer,
        day=state.day,
        phase=state.phase,
        first_player=state.first_player,
        turn=state.turn,
        to_act=to_act,
        preferences=state.preferences[:FACE_DOWN_POSITION],
        deck_size=len(state.deck),
        discard=[c for c in state.discard if c not in face_down],
        face_down_discards=len(face_down),
        window=state.window,
        merchant_on=state.merchant_on,
        sorcerer_on=state.sorcerer_on,
        sorcerer_activity=state.sorcerer_activity,
        removed=state.removed,
        days=state.days,
        fool_taken=state.fool_taken,
        programs=reckoning.program_messages(reckoning.programs(state)),
    )
    initial_public = _initial_cards_public(state)
    if over:
        points, support = reckoning.scores(state)
    for seat, player in enumerate(state.players):
        pv = out.players.add(
            hand_size=len(player.hand),
            display=player.display,
            passed=player.passed,
            supporter=player.supporter,
            supporting=player.supporting,
            days_won=player.days_won,
            kept=player.kept,
            face_down_discards=len(player.face_down_discards),
            revealed=sorted(player.revealed),
            revealed_commitment=player.commitment if initial_public else 0,
        )
        if over:
            pv.score = points[seat]
            pv.support_points = support[seat]
    if viewer is not None:
        me = state.players[viewer]
        out.hand.extend(sorted(me.hand))
        out.my_commitment = me.commitment
        out.my_face_down_discards.extend(me.face_down_discards)
    for index, token in enumerate(state.tokens):
        known = token_known(state, index, viewer)
        out.tokens.add(
            day=DAYS[index],
            status=token.status,
            holder=token.holder,
            known=known,
            value=token.value if known else 0,
        )
    if state.window in (Phase.WINDOW_PLAY, Phase.WINDOW_DUKE):
        out.pending.CopyFrom(state.pending)
    if state.HasField("outcome"):
        out.outcome.CopyFrom(state.outcome)
    return out


def redact_event(event: pb.KingsLifeEvent, viewer: Viewer) -> pb.KingsLifeEvent:
    """The event as ``viewer`` may see it: private card lists, answers and token
    values are cleared for everybody but their seat."""
    kind = event.WhichOneof("kind")
    if kind == "cards_drawn":
        if event.cards_drawn.seat == viewer or not event.cards_drawn.cards:
            return event
        out = Event()
        out.CopyFrom(event)
        out.cards_drawn.ClearField("cards")
        return out
    if kind == "exchanged":
        if event.exchanged.seat == viewer or not event.exchanged.discarded:
            return event
        out = Event()
        out.CopyFrom(event)
        out.exchanged.ClearField("discarded")
        return out
    if kind == "answered":
        if event.answered.seat == viewer:
            return event
        return Event(answered=Event.Answered(seat=event.answered.seat))
    if kind == "token_peeked":
        if event.token_peeked.seat == viewer:
            return event
        return Event(
            token_peeked=Event.TokenPeeked(seat=event.token_peeked.seat, day=event.token_peeked.day)
        )
    if kind == "hand_discarded":
        if event.hand_discarded.seat == viewer:
            return event
        out = Event()
        out.CopyFrom(event)
        out.hand_discarded.ClearField("cards")
        return out
    if kind == "reward_taken":
        if event.reward_taken.seat == viewer or not event.reward_taken.token_day:
            return event
        out = Event()
        out.CopyFrom(event)
        out.reward_taken.token_value = 0
        return out
    return event


# --- Sampling a hidden world ------------------------------------------------------------


def randomize_hidden(state: State, viewer: Viewer, seed: int) -> State:
    """A state the viewer cannot tell from ``state``: other hands (but their
    publicly known cards), face-down discards of others, others' face-down
    initial cards, the deck order, unseen token values, hidden answers and the
    RNG are redrawn, keeping what the viewer knows or can infer (a committed
    card is a sun card, a hand that committed nothing has none, a hand that
    took the mulligan has characters only)."""
    new = State()
    new.CopyFrom(state)
    seed_rng(new.rng, seed)
    rng = Rng(new.rng)
    others = [s for s in range(new.num_seats) if s != viewer]
    known = _known_cards(new, viewer, others)
    pool = _Pool([c for c in ALL_CARDS if c not in known])
    rng.shuffle(pool.cards)
    answered = {s for s in others if s not in new.awaiting}
    _redeal_hidden_cards(new, others, answered, pool)
    _move_hidden_cancel(state, new, viewer, answered)
    unknown = [i for i in range(len(new.tokens)) if not token_known(new, i, viewer)]
    values = [new.tokens[i].value for i in unknown]
    rng.shuffle(values)
    for i, value in zip(unknown, values, strict=True):
        new.tokens[i].value = value
    return new


def _known_cards(new: State, viewer: Viewer, others: list[int]) -> set[int]:
    """The cards whose places the viewer knows or can infer."""
    players = new.players
    known: set[int] = set()
    for seat, player in enumerate(players):
        known.update(player.display)
        known.update(player.revealed)
        known.update(player.kept)
        if seat == viewer:
            known.update(player.hand)
            known.update(player.face_down_discards)
            known.add(player.commitment)
    face_down_others: set[int] = set()
    for seat in others:
        face_down_others.update(players[seat].face_down_discards)
    known.update(c for c in new.discard if c not in face_down_others)
    known.update(new.removed)
    if new.window in (Phase.WINDOW_PLAY, Phase.WINDOW_DUKE):
        known.add(new.pending.card)
    if _initial_cards_public(new):
        known.update(p.commitment for p in players)
    return known


class _Pool:
    """The cards the viewer cannot place, shuffled, dealt out again."""

    def __init__(self, cards: list[int]) -> None:
        self.cards = cards

    def take(self, count: int, fits: tuple[bool, ...] | None) -> list[int]:
        """The first ``count`` cards that ``fits`` (by card; None: any)."""
        picked: list[int] = []
        rest: list[int] = []
        for card in self.cards:
            if len(picked) < count and (fits is None or fits[card]):
                picked.append(card)
            else:
                rest.append(card)
        assert len(picked) == count, "randomize_hidden: no consistent world (a bug)"
        self.cards[:] = rest
        return picked


def _redeal_hidden_cards(new: State, others: list[int], answered: set[int], pool: _Pool) -> None:
    """Others' committed cards, hidden hands and face-down discards, and the
    deck, dealt from ``pool``: the constrained slots first (each constraint uses
    a different kind of card)."""
    players = new.players
    in_initial = new.phase == Phase.PHASE_INITIAL_ROUND
    in_mulligan = new.phase == Phase.PHASE_MULLIGAN
    hidden_hand: dict[int, list[int]] = {}
    not_sun = tuple(not s for s in CARD_SUN)
    character = tuple(not a for a in CARD_ACTIVITY)
    if in_initial:
        for seat in others:
            if seat in answered and players[seat].commitment:
                players[seat].commitment = pool.take(1, CARD_SUN)[0]
    for seat in others:
        player = players[seat]
        count = len(player.hand) - len(player.revealed)
        if in_mulligan and seat in answered and player.mulligan:
            hidden_hand[seat] = pool.take(count, character)
        elif in_initial and seat in answered and not player.commitment:
            hidden_hand[seat] = pool.take(count, not_sun)
    for seat in others:
        player = players[seat]
        if seat not in hidden_hand:
            hidden_hand[seat] = pool.take(len(player.hand) - len(player.revealed), None)
        del player.hand[:]
        player.hand.extend(player.revealed)
        player.hand.extend(hidden_hand[seat])
    renamed: dict[int, int] = {}
    for seat in others:
        player = players[seat]
        fresh = pool.take(len(player.face_down_discards), None)
        renamed.update(zip(player.face_down_discards, fresh, strict=True))
        del player.face_down_discards[:]
        player.face_down_discards.extend(fresh)
    if renamed:
        cards = [renamed.get(c, c) for c in new.discard]
        del new.discard[:]
        new.discard.extend(cards)
    deck = pool.take(len(new.deck), None)
    del new.deck[:]
    new.deck.extend(deck)


def _move_hidden_cancel(state: State, new: State, viewer: Viewer, answered: set[int]) -> None:
    """The Queen window's hidden "cancel" follows the Queen to its new holder."""
    canceller = state.queen_canceller
    if canceller in (NO_SEAT, viewer):
        return
    new.queen_canceller = NO_SEAT
    new.queen_target = NO_SEAT
    holder = next((s for s in answered if QUEEN in new.players[s].hand), NO_SEAT)
    if holder != NO_SEAT:
        targets = queen.queen_targets(new, holder)
        if targets:
            new.queen_canceller = holder
            new.queen_target = state.queen_target if state.queen_target in targets else targets[0]
