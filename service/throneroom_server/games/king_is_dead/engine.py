"""The King Is Dead as one definition on the engine kit, and its engine.

The game's flow is its pending decision (``pending.decision``): each value is
a turn phase of the seat to move (``PHASES`` below), the eight fields of the
move's ``decision`` oneof are its move kinds. Legality is written once, in
legality.py: one generator per phase (``keys_to_act``, the enumeration of
``legal_keys`` for the seat to act, as the lazy ``LegalMoves``, in key order),
and each kind's ``narrow`` is that enumeration restricted to the one move asked
about (``is_legal`` on its key: one region, one exchange, one swap); the
checked apply asks each kind's ``member``, the same test on the key
``check_move`` read (``checked_key``: the kind and the key of ``key_of``,
which also refuses every undeclared enum value: ``check_move_refuses_enums``;
the kit takes the kind from it, ``kind_of_checked``), the pending decision
being the kind's (``LEGAL_IN_ITS_PHASE``), so it never lists a Garrison's
hundreds of executions. ``explain_illegal`` is the sentence for an illegal
move.

The 3-player last-card rule asks a search whose memos belong to the engine
object (lastcard.py): the definition is built per engine around its
``LastCardSearch`` (``definition(search)``), everything else in it is the
same for every engine.
"""

from __future__ import annotations

from collections.abc import Callable
from operator import attrgetter, itemgetter
from types import MappingProxyType

from throneroom.games.messages import GameMessages
from throneroom.v1 import king_is_dead_pb2 as pb

from throneroom_server.games.core import Seat
from throneroom_server.games.king_is_dead.board import (
    DECIDE_AMBASSADOR,
    DECIDE_CROWN,
    DECIDE_GARRISON,
    DECIDE_PLACE,
    DECIDE_SETTLE,
    DECIDE_SUMMON,
    HAND,
    MAX_SEATS,
    MIN_SEATS,
    NONE,
    NUM_REGIONS,
    TURN,
)
from throneroom_server.games.king_is_dead.cards import K_PASS, K_PLAY, Key
from throneroom_server.games.king_is_dead.effects import carry_out, play_card
from throneroom_server.games.king_is_dead.explain import explain_illegal
from throneroom_server.games.king_is_dead.invariants import check_invariants
from throneroom_server.games.king_is_dead.lastcard import LastCardSearch, resolving_last_card
from throneroom_server.games.king_is_dead.legality import (
    LEGAL_IN_ITS_PHASE,
    is_legal,
    keys_to_act,
)
from throneroom_server.games.king_is_dead.moves import (
    KIND_OF_FIELD,
    Checked,
    LegalMoves,
    checked_key,
    key_of,
    move_from_key,
    move_key,
)
from throneroom_server.games.king_is_dead.setup import (
    MAX_CHANCE_OUTCOMES,
    setup_state,
    setup_summary,
)
from throneroom_server.games.king_is_dead.struggle import advance, record_pass
from throneroom_server.games.king_is_dead.views import build_view, randomize_hidden, seat_view
from throneroom_server.games.kit import (
    Engine,
    GameDefinition,
    Golden,
    MoveKind,
    Option,
    PhaseField,
    PhaseTable,
    Testing,
    Variant,
    end,
    turn,
)
from throneroom_server.games.kit.engine import one_line

Options = pb.KingIsDeadOptions
State = pb.KingIsDeadState
Move = pb.KingIsDeadMove
Event = pb.KingIsDeadEvent
View = pb.KingIsDeadView

Definition = GameDefinition[Options, State, Move, Event, View]

# --- Setup ------------------------------------------------------------------------------


def max_decisions(options: Options, num_seats: int) -> int:
    # Per card at most 5 decisions (play, 3 Settlers placements, summon); at
    # most N-1 passes before each card play and N passes ending each of the
    # 8 struggles: 5*8N + (N-1)*8N + 8N = 8N(N+5).
    cards = len(HAND) * num_seats
    return cards * 5 + cards * (num_seats - 1) + NUM_REGIONS * num_seats


def setup_events(state: State) -> list[Event]:
    """The public setup summary of a fresh game (courts, board, region card
    order), for its history."""
    return [setup_summary(state)]


# --- Phases: the pending decision of the seat to move ------------------------------------

OVER = "over"
PHASE_OF_DECISION = MappingProxyType(
    {
        NONE: OVER,
        TURN: "turn",
        DECIDE_CROWN: "crown",
        DECIDE_GARRISON: "garrison",
        DECIDE_AMBASSADOR: "ambassador",
        DECIDE_SETTLE: "settle",
        DECIDE_PLACE: "place",
        DECIDE_SUMMON: "summon",
    }
)
"""Each pending decision is a phase; none is pending exactly when the game is
over (an invariant; the kit checks at every move that the end phase and the
outcome agree)."""

phase_of: PhaseField[State] = PhaseField("pending.decision", PHASE_OF_DECISION)
"""The phase of a state: its pending decision's (read by the kit in C)."""


to_move: Callable[[State], Seat] = attrgetter("to_move")
"""The seat to move (read in C: asked at every to_act, legal_moves and apply)."""


AFTER_THE_EFFECT = ("summon", "turn", OVER)
"""Where a card's effect leads: its summon, else (nothing to summon) the next
turn, or the end when the passes that follow resolve the last struggle."""

PHASES: tuple[tuple[str, tuple[str, ...], str, tuple[str, ...]], ...] = (
    (
        "turn",
        ("pass_turn", "play_card"),
        "the seat plays an action card, or passes (a pass by every seat in a row resolves "
        "the power struggle; the last one ends the game)",
        ("crown", "garrison", "ambassador", "settle", "place", *AFTER_THE_EFFECT),
    ),
    ("crown", ("crown",), "the Crown's swap is chosen", AFTER_THE_EFFECT),
    ("garrison", ("garrison",), "the Garrison's exchange is chosen", AFTER_THE_EFFECT),
    ("ambassador", ("ambassador",), "the Ambassador's exchange is chosen", AFTER_THE_EFFECT),
    (
        "settle",
        ("settle",),
        "the Settlers have placed one follower of each colour the supply holds",
        AFTER_THE_EFFECT,
    ),
    ("place", ("place",), "the faction card has placed its followers", AFTER_THE_EFFECT),
    (
        "summon",
        ("summon",),
        "a follower is summoned to court (then the next seat holding cards plays)",
        ("turn", OVER),
    ),
)
"""The phases in which a seat acts: (name, move kinds, what ends it, what may follow).
Each is a turn of the seat to move; the phase generator lists every kind at once."""


def phase_table(legal: Callable[[State, Seat], LegalMoves]) -> PhaseTable[State]:
    """The flow of the game, every phase listing its moves with ``legal``."""
    return PhaseTable(
        phase_of=phase_of,
        phases=(
            *(
                turn(
                    name,
                    seat=to_move,
                    moves=moves,
                    ends=ends,
                    follows=follows,
                    generate=legal,
                    ordered=True,
                )
                for name, moves, ends, follows in PHASES
            ),
            end(OVER),
        ),
        start=("turn",),
    )


# --- What each kind of move does ---------------------------------------------------------


check_move: Callable[[State, Move], Checked] = checked_key
"""The move's kind and key (``key_of``); a malformed move (undeclared enum values
too) raises InvalidMoveError. The kit takes the kind from it (``kind_of_checked``)
and hands it to ``member``."""

kind_of_checked: Callable[[Checked], str] = itemgetter(0)
"""The kind ``check_move`` read (in C)."""


# --- The definition ------------------------------------------------------------------------

KINDS = ("pass_turn", "play_card", "crown", "garrison", "ambassador", "settle", "place", "summon")
"""The fields of the move's ``decision`` oneof, in number order."""


def definition(search: LastCardSearch) -> Definition:
    """The King Is Dead, its legality asking ``search`` (the engine's) about the
    3-player last card. Like the search's memos, the listed moves below belong
    to this definition (so to one engine), never to the module."""
    listed_by_key: dict[Key, Move] = {}
    """The listed move of each key ``member`` has answered, built once (at most
    one per possible move): the kit hands it only to the kind's effect, which
    reads it and never changes it."""
    key_by_listed: dict[int, Key] = {}
    """The key of each move of ``listed_by_key``, by object (they live as long
    as this definition, so no other object takes their id meanwhile)."""

    def listed_move(key: Key) -> Move:
        listed = listed_by_key.get(key)
        if listed is None:
            listed = listed_by_key[key] = move_from_key(key)
            key_by_listed[id(listed)] = key
        return listed

    def decide(state: State, seat: Seat, move: Move, events: list[Event]) -> None:
        """Every kind's effect: a pass, a card played, a decision of a card's effect
        or its summon. The key of a listed move is known (the kit hands the effect
        the listed move); any other move's is read."""
        key = key_by_listed.get(id(move))
        if key is None:
            key = move_key(move)
        kind = key[0]
        if kind == K_PASS:
            if not record_pass(state, seat, events, forced=False):
                advance(state, seat, events)
        elif kind == K_PLAY:
            play_card(state, seat, key[1], events)
        else:
            carry_out(state, seat, key, events)

    def legal(state: State, seat: Seat) -> LegalMoves:
        """The phase generator (the kit asks it only for the seat to act while
        the game goes on)."""
        return LegalMoves(keys_to_act(state, seat, search))

    def member_of(kind: str) -> Callable[[State, Seat, Move, Checked], Move | None]:
        """The kind's membership test: the listed move equal to ``move`` (whose key
        ``check_move`` read), or None. The kit asks it only in a phase allowing the
        kind, so the pending decision is known: the kind's own test of the key
        (``LEGAL_IN_ITS_PHASE``, ``is_legal`` without reading the decision again),
        then the message of the key compared (a move with unknown fields is not
        listed)."""
        legal_in_its_phase = LEGAL_IN_ITS_PHASE[KIND_OF_FIELD[kind]]

        def member(state: State, seat: Seat, move: Move, checked: Checked) -> Move | None:
            key = checked[1]
            if not legal_in_its_phase(state, seat, key, search):
                return None
            listed = listed_by_key.get(key)
            if listed is None:
                listed = listed_move(key)
            return listed if listed == move else None

        return member

    def narrow(state: State, seat: Seat, move: Move) -> tuple[Move, ...]:
        key = key_of(move)
        return (move_from_key(key),) if is_legal(state, seat, key, search) else ()

    def explain(state: State, seat: Seat, move: Move) -> str:
        key = key_of(move)
        if is_legal(state, seat, key, search):  # the legal move, and more
            return (
                "the move carries fields The King Is Dead does not know (unknown fields); "
                f"send it without them: {one_line(move_from_key(key))}"
            )
        return explain_illegal(state, seat, key, restricted=resolving_last_card(state))

    return GameDefinition(
        messages=GameMessages("king_is_dead", Options, State, Move, Event, View),
        title="The King Is Dead",
        description=(
            "King Arthur is dead. Over eight power struggles, play action cards to decide "
            "which faction controls each region of Britain, and summon followers to court: "
            "the player with most followers of the ruling faction is crowned, unless the "
            "Saxons invade."
        ),
        min_seats=MIN_SEATS,
        max_seats=MAX_SEATS,
        hidden_information=True,
        chance=True,
        max_chance_outcomes=MAX_CHANCE_OUTCOMES,
        default_options=Options(mordred=False),
        options=(
            Option(
                "mordred",
                "the Mordred variant: 9 black Loyalist followers who may seize a region "
                "and end the game",
            ),
        ),
        max_decisions=max_decisions,
        setup=setup_state,
        setup_events=setup_events,
        phases=phase_table(legal),
        moves=tuple(
            MoveKind(
                kind,
                play=decide,
                narrow=narrow,
                explain=explain,
                member=member_of(kind),
            )
            for kind in KINDS
        ),
        check_move=check_move,
        check_move_refuses_enums=True,
        kind_of_checked=kind_of_checked,
        move_key=move_key,
        view=build_view,
        seat_view=seat_view,
        # redact_event: every event is public (cards are shown when played, courts are open).
        randomize_hidden=randomize_hidden,
        invariants=(check_invariants,),
        testing=Testing(
            variants=tuple(
                Variant(seats, (("mordred", True),) if mordred else ())
                for seats in (2, 3, 4)
                for mordred in (False, True)
            ),
            examples=8,
            deep_rate=0.3,
            golden=(
                Golden(Variant(2), seed=1),
                Golden(Variant(3), seed=2),
                Golden(Variant(4), seed=3),
                Golden(Variant(4, (("mordred", True),)), seed=4),
            ),
        ),
    )


class KingIsDead(Engine[Options, State, Move, Event, View]):
    """The King Is Dead (2-4 players; option ``mordred``): the kit's engine of
    ``definition(search)``.

    The object owns the memos of its 3-player last-card search (``search``);
    they only save work (every answer depends on the state alone), so the
    engine stays pure and one object may serve any number of games.
    """

    def __init__(self, search: LastCardSearch | None = None) -> None:
        self._search = search if search is not None else LastCardSearch()
        self.definition = definition(self._search)
        self.info = self.definition.info

    @property
    def search(self) -> LastCardSearch:
        """The last-card search and its memos (legal_moves and apply share them)."""
        return self._search
