"""King's Life as one definition on the engine kit: ``KINGS_LIFE`` and its engine.

Everything the kit needs is declared here or named from the package: the
setup (the shuffled tokens and deck, the first player, Tuesday's deal),
the termination bound, the phase table and move kinds (``phases.TABLE`` and
``phases.DECISIONS``: each decision tree is a kind's generator, membership
test and explanation), malformed moves (``shapes``), the sort key of legal
moves, views and redaction (``views``), the invariants and the test
declarations. The kit derives ``to_act``, ``legal_moves`` and the checked
``apply`` from them (docs/adding-a-game.md).
"""

from __future__ import annotations

from throneroom.games.messages import GameMessages
from throneroom.v1 import kings_life_pb2 as pb

from throneroom_server.games.kings_life import days, invariants, shapes, views
from throneroom_server.games.kings_life.data import (
    ALL_CARDS,
    DAYS,
    DECK_SIZE,
    MAX_PLAYERS,
    MIN_PLAYERS,
    TOKEN_VALUES,
    max_plays_per_day,
)
from throneroom_server.games.kings_life.phases import DECISIONS, TABLE
from throneroom_server.games.kings_life.table import NO_SEAT, State
from throneroom_server.games.kit import (
    Engine,
    Fast,
    GameDefinition,
    Golden,
    Testing,
    Variant,
    chance,
)
from throneroom_server.games.rng import Rng, seed_rng

Options = pb.KingsLifeOptions
Move = pb.KingsLifeMove
Event = pb.KingsLifeEvent
View = pb.KingsLifeView

# --- Setup ---------------------------------------------------------------------------


def setup(options: Options, num_seats: int, seed: int) -> State:
    """Tokens and deck shuffled, the first player drawn, Tuesday dealt."""
    state = State(
        num_seats=num_seats,
        day=pb.DAY_TUESDAY,
        turn=NO_SEAT,
        queen_canceller=NO_SEAT,
        queen_target=NO_SEAT,
        last_winner=NO_SEAT,
    )
    seed_rng(state.rng, seed)
    rng = Rng(state.rng)
    tokens = list(TOKEN_VALUES)
    chance.shuffle(rng, tokens, "shuffle:tokens")
    for value in tokens:
        state.tokens.add(value=value, holder=NO_SEAT)
    for _ in range(num_seats):
        state.players.add(supporter=NO_SEAT, supporting=NO_SEAT)
    deck = list(ALL_CARDS)
    chance.shuffle(rng, deck, "shuffle:deck")
    state.deck.extend(deck)
    state.first_player = chance.draw(rng, "first_player", num_seats)
    days.begin_day(state, [])
    return state


def max_decisions(options: Options, num_seats: int) -> int:
    # Per day and seat: exchange, mulligan, initial card, initial Queen
    # window, its pass, the Duke's Queen window (+1 for the Duke itself);
    # and per play on a turn the play and the others' Queen window; plus
    # the Fool's take-backs (a card taken back lands in a hand that passes,
    # so at most one per card a day) and one "done" per Fool (its player
    # passes, so at most one per seat a day).
    per_day = (6 + max_plays_per_day()) * num_seats + 1 + DECK_SIZE + num_seats
    return per_day * len(DAYS)


# --- Moves: malformedness and order ----------------------------------------------------


def check_move(state: State, move: Move) -> None:
    """Malformed whatever the state (InvalidMoveError): ``shapes.check``. The
    kit refuses the empty move itself."""
    kind = move.WhichOneof("kind")
    if kind is not None:
        shapes.check(move, kind, state.num_seats)


_KIND_ORDER = {decision.kind: order for order, decision in enumerate(DECISIONS)}


def move_key(move: Move) -> tuple[int, ...]:
    """The order of legal moves: by kind (``phases.DECISIONS``), then the
    kind's choices in the order its decision tree makes them."""
    kind = move.WhichOneof("kind")
    if kind is None:
        return (-1,)
    order = _KIND_ORDER[kind]
    if kind == "play":
        p = move.play
        return (
            order,
            p.card,
            p.target_card,
            p.activity,
            p.token_day,
            p.support + 1 if p.HasField("support") else 0,
            p.hand_over,
            len(p.positions),
            *p.positions,
            *p.cards,
        )
    if kind == "passing":
        q = move.passing
        return (order, q.support + 1 if q.HasField("support") else 0, q.hand_over)
    if kind == "queen":
        if not move.queen.cancel:
            return (order, 0)
        return (order, 1, move.queen.target)
    if kind == "exchange":
        cards = move.exchange.discard
        return (order, len(cards), *cards)
    if kind == "mulligan":
        return (order, int(move.mulligan.take))
    if kind == "commit":
        return (order, move.commit.card)
    if kind == "take_back":
        return (order, move.take_back.card)
    return (order, int(move.duke.play))


# --- The definition ---------------------------------------------------------------------

KINGS_LIFE: GameDefinition[Options, State, Move, Event, View] = GameDefinition(
    messages=GameMessages("kings_life", Options, State, Move, Event, View),
    title="King's Life",
    description=(
        "Five days at court: suggest programs of tourneys, feasts, hunts and dances "
        "to the king, support the favourites and play characters to sway him."
    ),
    min_seats=MIN_PLAYERS,
    max_seats=MAX_PLAYERS,
    hidden_information=True,
    chance=True,
    # the deck's shuffle (and a reshuffle) draws among at most every card
    max_chance_outcomes=max(len(ALL_CARDS), len(TOKEN_VALUES), MAX_PLAYERS),
    default_options=Options(),
    options=(),
    max_decisions=max_decisions,
    setup=setup,
    phases=TABLE,
    moves=tuple(decision.move_kind() for decision in DECISIONS),
    check_move=check_move,
    # shapes.check refuses every undeclared enum value (kit.checks proves it)
    fast=Fast(check_move_refuses_enums=True),
    move_key=move_key,
    view=views.view,
    redact_event=views.redact_event,
    randomize_hidden=views.randomize_hidden,
    invariants=(invariants.check,),
    testing=Testing(
        variants=tuple(Variant(seats) for seats in range(MIN_PLAYERS, MAX_PLAYERS + 1)),
        examples=4,
        deep_rate=0.15,
        # The drawer sees its new cards in draw order; its view keeps only the hand.
        unordered_event_fields=frozenset({"cards_drawn.cards"}),
        golden=(Golden(Variant(4), seed=5), Golden(Variant(8), seed=6)),
    ),
)


class KingsLife(Engine[Options, State, Move, Event, View]):
    """King's Life for 4-8 players (see docs/rules/kings_life.md): everything
    derived from ``KINGS_LIFE``."""

    definition = KINGS_LIFE
