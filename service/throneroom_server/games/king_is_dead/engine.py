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
object (lastcard.py): the engine's memo (``Memo``, the definition's
``fast.memo``) holds it, and the functions that read it are declared
``memoized`` (kit.fast): each engine binds them to its own memo.
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
from throneroom_server.games.king_is_dead.cards import Key
from throneroom_server.games.king_is_dead.effects import (
    crown,
    exchange,
    place_follower,
    play_card,
    summon,
)
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
    Fast,
    GameDefinition,
    Golden,
    MoveKind,
    Option,
    PhaseField,
    PhaseTable,
    Testing,
    Variant,
    end,
    memoized,
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


class Memo:
    """The memo of one engine object (``fast.memo``): the 3-player last-card
    search (lastcard.py) and the listed move of each key ``member`` has
    answered, built once (at most one per possible move): the kit hands it
    only to the kind's effect, which reads it and never changes it. Every
    answer depends on the state alone, so the engine stays pure."""

    __slots__ = ("key_by_listed", "listed_by_key", "search")

    def __init__(self, search: LastCardSearch | None = None) -> None:
        self.search = search if search is not None else LastCardSearch()
        self.listed_by_key: dict[Key, Move] = {}
        self.key_by_listed: dict[int, Key] = {}
        """The key of each move of ``listed_by_key``, by object (they live as
        long as the memo, so no other object takes their id meanwhile)."""

    def listed(self, key: Key) -> Move:
        """The listed move of ``key`` (built once)."""
        listed = self.listed_by_key.get(key)
        if listed is None:
            listed = self.listed_by_key[key] = move_from_key(key)
            self.key_by_listed[id(listed)] = key
        return listed

    def key_of(self, move: Move) -> Key:
        """The key of ``move``: known for a listed move, else read."""
        key = self.key_by_listed.get(id(move))
        return key if key is not None else move_key(move)


def legal(memo: Memo, state: State, seat: Seat) -> LegalMoves:
    """Every phase's generator (the kit asks it only for the seat to act while
    the game goes on)."""
    return LegalMoves(keys_to_act(state, seat, memo.search))


LEGAL: Callable[[State, Seat], LegalMoves] = memoized(legal)

PHASE_TABLE: PhaseTable[State] = PhaseTable(
    phase_of=phase_of,
    phases=(
        *(
            turn(
                name,
                seat=to_move,
                moves=moves,
                ends=ends,
                follows=follows,
                generate=LEGAL,
                ordered=True,
            )
            for name, moves, ends, follows in PHASES
        ),
        end(OVER),
    ),
    start=("turn",),
)
"""The flow of the game, every phase listing its moves with ``legal``."""


# --- What each kind of move does ---------------------------------------------------------


check_move: Callable[[State, Move], Checked] = checked_key
"""The move's kind and key (``key_of``); a malformed move (undeclared enum values
too) raises InvalidMoveError. The kit takes the kind from it (``kind_of_checked``)
and hands it to ``member``."""

kind_of_checked: Callable[[Checked], str] = itemgetter(0)
"""The kind ``check_move`` read (in C)."""


# --- The definition ------------------------------------------------------------------------


def pass_turn(state: State, seat: Seat, move: Move, events: list[Event]) -> None:
    """A pass (a pass by every seat in a row resolves the power struggle)."""
    if not record_pass(state, seat, events, forced=False):
        advance(state, seat, events)


def play(memo: Memo, state: State, seat: Seat, move: Move, events: list[Event]) -> None:
    """A card played from the hand (its key known for a listed move)."""
    key = memo.key_by_listed.get(id(move))  # memo.key_of(move), without the call
    play_card(state, seat, (key if key is not None else move_key(move))[1], events)


def crowned(memo: Memo, state: State, seat: Seat, move: Move, events: list[Event]) -> None:
    """The Crown's swap (effects.crown) of the move's key."""
    key = memo.key_by_listed.get(id(move))  # memo.key_of(move), without the call
    crown(state, seat, key if key is not None else move_key(move), events)


def exchanged(memo: Memo, state: State, seat: Seat, move: Move, events: list[Event]) -> None:
    """The Garrison's or the Ambassador's exchange (effects.exchange)."""
    key = memo.key_by_listed.get(id(move))
    exchange(state, seat, key if key is not None else move_key(move), events)


def placed(memo: Memo, state: State, seat: Seat, move: Move, events: list[Event]) -> None:
    """A follower placed by the Settlers or a faction card (effects.place_follower)."""
    key = memo.key_by_listed.get(id(move))
    place_follower(state, seat, key if key is not None else move_key(move), events)


def summoned(memo: Memo, state: State, seat: Seat, move: Move, events: list[Event]) -> None:
    """A follower summoned to court (effects.summon)."""
    key = memo.key_by_listed.get(id(move))
    summon(state, seat, key if key is not None else move_key(move), events)


def member_of(
    legal_in_its_phase: Callable[[State, Seat, Key, LastCardSearch], bool],
) -> Callable[[Memo, State, Seat, Move, Checked], Move | None]:
    """The membership test of a kind whose own test of a key is
    ``legal_in_its_phase`` (``LEGAL_IN_ITS_PHASE``: ``is_legal`` without reading
    the decision again). A closure rather than a partial: the kit binds it to
    the engine's memo and calls it directly, with no call in between."""

    def member(memo: Memo, state: State, seat: Seat, move: Move, checked: Checked) -> Move | None:
        """The listed move equal to ``move`` (whose key ``check_move`` read), or
        None. The kit asks it only in a phase allowing the kind, so the pending
        decision is known: the kind's test of the key, then the message of the
        key compared (a move with unknown fields is not listed)."""
        key = checked[1]
        if not legal_in_its_phase(state, seat, key, memo.search):
            return None
        listed = memo.listed_by_key.get(key)
        if listed is None:
            listed = memo.listed(key)
        return listed if listed == move else None

    return member


def narrow(memo: Memo, state: State, seat: Seat, move: Move) -> tuple[Move, ...]:
    key = key_of(move)
    return (move_from_key(key),) if is_legal(state, seat, key, memo.search) else ()


def explain(memo: Memo, state: State, seat: Seat, move: Move) -> str:
    key = key_of(move)
    if is_legal(state, seat, key, memo.search):  # the legal move, and more
        return (
            "the move carries fields The King Is Dead does not know (unknown fields); "
            f"send it without them: {one_line(move_from_key(key))}"
        )
    return explain_illegal(state, seat, key, restricted=resolving_last_card(state))


def _kind(
    name: str, play: Callable[[State, Seat, Move, list[Event]], None]
) -> MoveKind[State, Move, Event]:
    return MoveKind(
        name,
        play=play,
        narrow=memoized(narrow),
        explain=memoized(explain),
        member=memoized(member_of(LEGAL_IN_ITS_PHASE[KIND_OF_FIELD[name]])),
    )


MOVES: tuple[MoveKind[State, Move, Event], ...] = (
    _kind("pass_turn", pass_turn),
    _kind("play_card", memoized(play)),
    _kind("crown", memoized(crowned)),
    _kind("garrison", memoized(exchanged)),
    _kind("ambassador", memoized(exchanged)),
    _kind("settle", memoized(placed)),
    _kind("place", memoized(placed)),
    _kind("summon", memoized(summoned)),
)
"""The fields of the move's ``decision`` oneof, in number order, each with its
effect."""


KING_IS_DEAD: Definition = GameDefinition(
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
    phases=PHASE_TABLE,
    moves=MOVES,
    check_move=check_move,
    fast=Fast(
        memo=Memo,
        check_move_refuses_enums=True,
        kind_of_checked=kind_of_checked,
        seat_view=seat_view,
    ),
    move_key=move_key,
    view=build_view,
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
    ``KING_IS_DEAD``.

    The object owns its memo (``Memo``: the memos of its 3-player last-card
    search, ``search``, and the listed moves); they only save work (every
    answer depends on the state alone), so the engine stays pure and one
    object may serve any number of games.
    """

    definition = KING_IS_DEAD

    def __init__(self, search: LastCardSearch | None = None) -> None:
        super().__init__(Memo(search))

    @property
    def search(self) -> LastCardSearch:
        """The last-card search and its memos (legal_moves and apply share them)."""
        memo = self.memo
        assert isinstance(memo, Memo)
        return memo.search
