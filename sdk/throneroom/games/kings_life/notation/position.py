"""King's Life: the position notation (see the package's __init__ and docs/notation.md)."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from throneroom.games.kings_life.notation.moves import (
    ACTIVITIES,
    DAYS,
    NO_SEAT,
    PHASES,
    RESULTS,
    STATUSES,
    WINDOWS,
    State,
    format_play,
    parse_move,
)
from throneroom.notation.base import (
    Fields,
    FieldWriter,
    NotationError,
    Value,
    format_rng,
    ints_text,
    parse_rng,
    read_outcome,
    seat_keys,
    write_outcome,
)
from throneroom.v1 import kings_life_pb2 as pb
from throneroom.v1.kings_life_pb2 import KingsLifeState

# -- positions ------------------------------------------------------------------------------


def _token_text(token: pb.KingsLifeToken) -> str:
    won = pb.KingsLifeToken.STATUS_WON
    if token.status == pb.KingsLifeToken.STATUS_ON_BOARD and token.holder == NO_SEAT:
        return str(token.value)
    if token.status == won and token.holder >= 0:
        return f"{token.value}w{token.holder}"
    if token.status == pb.KingsLifeToken.STATUS_DISCARDED and token.holder == NO_SEAT:
        return f"{token.value}x"
    return f"{token.value}:{STATUSES.word(token.status)}:{token.holder}"


_TOKEN = re.compile(r"(-?\d+)(?:(w)(\d+)|(x))?")


def _read_token(value: Value, text: str, offset: int, token: pb.KingsLifeToken) -> None:
    if ":" in text:
        parts = value.parts(":", text, offset)
        if len(parts) != 3:
            raise value.error("value:status:holder expected", offset)
        token.value = value.int_part(*parts[0])
        token.status = value.name(STATUSES, *parts[1])  # type: ignore[assignment]
        token.holder = value.int_part(*parts[2])
        return
    match = _TOKEN.fullmatch(text)
    if not match:
        raise value.error(
            f"a token like 3, 3w1 (won by seat 1) or 3x expected, not {text!r}", offset
        )
    token.value = int(match[1])
    if match[2]:
        token.status, token.holder = pb.KingsLifeToken.STATUS_WON, int(match[3])
    else:
        token.holder = NO_SEAT
        if match[4]:
            token.status = pb.KingsLifeToken.STATUS_DISCARDED


def _record_text(record: pb.KingsLifeDayRecord) -> str:
    day = DAYS.word(record.day) if record.day else "-"
    text = f"{day}:{RESULTS.word(record.result)}:{record.winner}:{record.supporter}"
    if record.duke:
        text += ":duke"
    if record.tied:
        text += ":tied=" + "+".join(str(s) for s in record.tied)
    return text


def _read_record(value: Value, text: str, offset: int, record: pb.KingsLifeDayRecord) -> None:
    parts = value.parts(":", text, offset)
    if len(parts) < 4:
        raise value.error("day:result:winner:supporter expected", offset)
    (day, o1), (result, o2), (winner, o3), (supporter, o4), *extra = parts
    if day != "-":
        record.day = value.name(DAYS, day, o1)  # type: ignore[assignment]
    record.result = value.name(RESULTS, result, o2)  # type: ignore[assignment]
    record.winner = value.int_part(winner, o3)
    record.supporter = value.int_part(supporter, o4)
    for part, o in extra:
        if part == "duke":
            record.duke = True
        elif part.startswith("tied="):
            record.tied.extend(value.int_part(s, so) for s, so in value.parts("+", part[5:], o + 5))
        else:
            raise value.error(f"duke or tied=<seats> expected, not {part!r}", o)


def _days_text(days: Sequence[int]) -> str:
    return ",".join(DAYS.word(d) for d in days) or "-"


# (key, getter, writer, reader, default text) of each player field, in order.
PlayerField = tuple[
    str,
    Callable[[pb.KingsLifePlayer], str],
    Callable[[Value, pb.KingsLifePlayer], None],
    str,
]


def _ints_reader(name: str) -> Callable[[Value, pb.KingsLifePlayer], None]:
    def read(value: Value, player: pb.KingsLifePlayer) -> None:
        getattr(player, name).extend(value.int_list())

    return read


def _days_reader(name: str) -> Callable[[Value, pb.KingsLifePlayer], None]:
    def read(value: Value, player: pb.KingsLifePlayer) -> None:
        getattr(player, name).extend(value.names_in(DAYS))

    return read


def _set_int(name: str) -> Callable[[Value, pb.KingsLifePlayer], None]:
    def read(value: Value, player: pb.KingsLifePlayer) -> None:
        setattr(player, name, value.integer())

    return read


def _set_bool(name: str) -> Callable[[Value, pb.KingsLifePlayer], None]:
    def read(value: Value, player: pb.KingsLifePlayer) -> None:
        setattr(player, name, value.boolean())

    return read


PLAYER_FIELDS: tuple[PlayerField, ...] = (
    ("hand", lambda p: ints_text(p.hand), _ints_reader("hand"), "-"),
    ("display", lambda p: ints_text(p.display), _ints_reader("display"), "-"),
    ("passed", lambda p: "yes" if p.passed else "no", _set_bool("passed"), "no"),
    ("supporter", lambda p: str(p.supporter), _set_int("supporter"), "-1"),
    ("supporting", lambda p: str(p.supporting), _set_int("supporting"), "-1"),
    ("days", lambda p: _days_text(p.days_won), _days_reader("days_won"), "-"),
    ("kept", lambda p: ints_text(p.kept), _ints_reader("kept"), "-"),
    (
        "facedown",
        lambda p: ints_text(p.face_down_discards),
        _ints_reader("face_down_discards"),
        "-",
    ),
    ("commit", lambda p: str(p.commitment), _set_int("commitment"), "0"),
    ("mulligan", lambda p: "yes" if p.mulligan else "no", _set_bool("mulligan"), "no"),
    ("revealed", lambda p: ints_text(p.revealed), _ints_reader("revealed"), "-"),
    ("seen", lambda p: _days_text(p.tokens_seen), _days_reader("tokens_seen"), "-"),
)


def format_position(state: KingsLifeState) -> str:
    out = FieldWriter()

    def put(key: str, text: str, default: str) -> None:
        if text != default:
            out.put(key, text)

    out.put("seats", str(state.num_seats))
    put("day", DAYS.word(state.day) if state.day else "-", "-")
    out.put("phase", PHASES.word(state.phase))
    out.put("first", str(state.first_player))
    put("turn", str(state.turn), "-1")
    put("awaiting", ints_text(state.awaiting), "-")
    put("prefs", ",".join(ACTIVITIES.word(a) for a in state.preferences) or "-", "-")
    put("window", WINDOWS.word(state.window), "none")
    if state.HasField("pending"):
        out.put("pending", format_play(state.pending))
    put("queen", f"{state.queen_canceller}/{state.queen_target}", "-1/-1")
    put("merchant", str(state.merchant_on), "0")
    activity = ACTIVITIES.word(state.sorcerer_activity) if state.sorcerer_activity else "-"
    put("sorcerer", f"{state.sorcerer_on}/{activity}", "0/-")
    put("last", str(state.last_winner), "-1")
    put("deck", ints_text(state.deck), "-")
    put("discard", ints_text(state.discard), "-")
    put("removed", ints_text(state.removed), "-")
    put("fool", ints_text(state.fool_taken), "-")
    put("tokens", ",".join(_token_text(t) for t in state.tokens) or "-", "-")
    put("days", ",".join(_record_text(r) for r in state.days) or "-", "-")
    if len(state.players) != state.num_seats:
        raise NotationError(f"{len(state.players)} players for {state.num_seats} seats")
    for seat, player in enumerate(state.players):
        for key, get, _, default in PLAYER_FIELDS:
            put(f"p{seat}.{key}", get(player), default)
    if state.HasField("rng"):
        out.put("rng", format_rng(state.rng))
    write_outcome(out, state.HasField("outcome"), state.outcome)
    return out.text()


def _read_pending(value: Value, state: KingsLifeState) -> None:
    try:
        move = parse_move(value.text)
    except NotationError as err:
        raise value.error(f"{err.reason} (in the card)", err.column - 1) from None
    if move.WhichOneof("kind") != "play":
        raise value.error("a card play (play <card> ...) expected")
    state.pending.CopyFrom(move.play)


def _read_pair(value: Value) -> tuple[str, int, str, int]:
    parts = value.parts("/")
    if len(parts) != 2:
        raise value.error("two parts a/b expected")
    (a, oa), (b, ob) = parts
    return a, oa, b, ob


def parse_position(text: str) -> KingsLifeState:
    fields = Fields(text)
    state = State(turn=NO_SEAT, queen_canceller=NO_SEAT, queen_target=NO_SEAT, last_winner=NO_SEAT)
    state.num_seats = fields.require("seats").integer(lo=0, hi=64)
    if (value := fields.take("day")) is not None and value.text != "-":
        state.day = value.name(DAYS)  # type: ignore[assignment]
    if (value := fields.take("phase")) is not None:
        state.phase = value.name(PHASES)  # type: ignore[assignment]
    if (value := fields.take("first")) is not None:
        state.first_player = value.integer()
    if (value := fields.take("turn")) is not None:
        state.turn = value.integer()
    if (value := fields.take("awaiting")) is not None:
        state.awaiting.extend(value.int_list())
    if (value := fields.take("prefs")) is not None:
        state.preferences.extend(value.names_in(ACTIVITIES))  # type: ignore[arg-type]
    if (value := fields.take("window")) is not None:
        state.window = value.name(WINDOWS)  # type: ignore[assignment]
    if (value := fields.take("pending")) is not None:
        _read_pending(value, state)
    if (value := fields.take("queen")) is not None:
        a, oa, b, ob = _read_pair(value)
        state.queen_canceller, state.queen_target = value.int_part(a, oa), value.int_part(b, ob)
    if (value := fields.take("merchant")) is not None:
        state.merchant_on = value.integer(lo=0)
    if (value := fields.take("sorcerer")) is not None:
        a, oa, b, ob = _read_pair(value)
        state.sorcerer_on = value.int_part(a, oa, lo=0)
        if b != "-":
            state.sorcerer_activity = value.name(ACTIVITIES, b, ob)  # type: ignore[assignment]
    if (value := fields.take("last")) is not None:
        state.last_winner = value.integer()
    for key, field in (("deck", "deck"), ("discard", "discard"), ("removed", "removed")):
        if (value := fields.take(key)) is not None:
            getattr(state, field).extend(value.int_list(lo=0))
    if (value := fields.take("fool")) is not None:
        state.fool_taken.extend(value.int_list(lo=0))
    if (value := fields.take("tokens")) is not None and value.text != "-":
        for part, offset in value.parts(","):
            _read_token(value, part, offset, state.tokens.add())
    if (value := fields.take("days")) is not None and value.text != "-":
        for part, offset in value.parts(","):
            _read_record(value, part, offset, state.days.add())
    players = [
        pb.KingsLifePlayer(supporter=NO_SEAT, supporting=NO_SEAT) for _ in range(state.num_seats)
    ]
    readers = {key: read for key, _, read, _ in PLAYER_FIELDS}
    for seat, sub, value in seat_keys(fields, "p", state.num_seats):
        if sub not in readers:
            raise value.error(f"unknown player field {sub!r} (one of {', '.join(readers)})")
        readers[sub](value, players[seat])
    state.players.extend(players)
    if (value := fields.take("rng")) is not None:
        parse_rng(value, state.rng)
    read_outcome(fields, lambda: state.outcome)
    fields.finish()
    return state
