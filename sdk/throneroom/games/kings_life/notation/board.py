"""King's Life: the board as text, for a terminal (see the package's __init__)."""

from __future__ import annotations

from collections.abc import Sequence

from throneroom.games.kings_life import card_face
from throneroom.games.kings_life.notation.moves import (
    ACTIVITIES,
    DAYS,
    NO_SEAT,
    PHASES,
    RESULTS,
    WINDOWS,
    State,
    format_play,
)
from throneroom.notation.base import Viewer, outcome_line, viewer_name
from throneroom.v1 import kings_life_pb2 as pb
from throneroom.v1.kings_life_pb2 import KingsLifeView

# -- the board ------------------------------------------------------------------------------


def card_label(card: int) -> str:
    """``31 Hunt 3``: the id to type, and the card's name."""
    try:
        return f"{card} {card_face(card).name}"
    except ValueError:
        return f"{card} (unknown card)"


def _cards(cards: Sequence[int]) -> str:
    return ", ".join(card_label(c) for c in cards) or "none"


def _day_name(day: int) -> str:
    return (
        pb.Day.DESCRIPTOR.values_by_number[day].name.removeprefix("DAY_").title()
        if day in DAYS.canonical
        else "-"
    )


def _seat(seat: int) -> str:
    return "-" if seat == NO_SEAT else f"seat {seat}"


def _program(program: pb.KingsLifeProgram) -> str:
    if not program.has_program:
        return "none"
    return f"{ACTIVITIES.word(program.activity).title()} {program.value}"


def render_view(view: KingsLifeView, viewer: Viewer) -> str:
    phase = PHASES.word(view.phase).replace("_", " ")
    lines = [
        f"King's Life, {view.num_seats} seats, as {viewer_name(viewer)}: "
        f"{_day_name(view.day)}, {phase}",
        "",
        *_board_lines(view),
        "Players:",
    ]
    programs = {p.seat: p for p in view.programs}
    for seat, player in enumerate(view.players):
        lines += _player_lines(view, seat, player, programs.get(seat), you=seat == viewer)
    if viewer is not None:
        lines.append(f"Your hand: {_cards(view.hand)}")
        if view.my_commitment:
            lines.append(f"Your face-down card: {card_label(view.my_commitment)}")
        if view.my_face_down_discards:
            lines.append(f"Your face-down discards: {_cards(view.my_face_down_discards)}")
    if view.window != State.WINDOW_NONE:
        what = WINDOWS.word(view.window).replace("_", " ")
        pending = (
            f": seat {view.turn} {format_play(view.pending)}" if view.HasField("pending") else ""
        )
        lines.append(f"Queen window ({what}){pending}")
    if view.fool_taken:
        lines.append(f"Taken back with the Fool: {_cards(view.fool_taken)}")
    if view.HasField("outcome"):
        lines.append(outcome_line(view.outcome))
    elif view.to_act:
        lines.append("To act: " + ", ".join(_seat(s) for s in view.to_act))
    return "\n".join(lines)


def _board_lines(view: KingsLifeView) -> list[str]:
    """The king's preferences, the day cards, the support tokens and the piles."""
    prefs = [
        f"{i + 1}. {ACTIVITIES.word(a).title()}{' (+1)' if i == 0 else ''}"
        for i, a in enumerate(view.preferences)
    ]
    lines = ["The king prefers: " + "  ".join(prefs) + "  (4. face down)"]
    days = []
    for record in view.days:
        result = RESULTS.word(record.result).replace("_", " ")
        if record.result == pb.KingsLifeDayRecord.RESULT_WON:
            result = f"won by seat {record.winner}"
            if record.supporter != NO_SEAT:
                result += f", supported by seat {record.supporter}"
            if record.duke:
                result += ", Duke"
        days.append(f"{_day_name(record.day)} {result}")
    lines.append("Day cards: " + ("; ".join(days) if days else "none decided yet"))
    tokens = []
    for token in view.tokens:
        if token.status == pb.KingsLifeToken.STATUS_WON:
            what = f"won by seat {token.holder}"
        elif token.status == pb.KingsLifeToken.STATUS_DISCARDED:
            what = "discarded"
        else:
            what = "on the board"
        known = f" (value {token.value})" if token.known else ""
        tokens.append(f"{_day_name(token.day)} {what}{known}")
    lines.append("Support tokens: " + "; ".join(tokens))
    lines.append(
        f"Deck: {view.deck_size} cards   discard: {_cards(view.discard)}"
        f"   face-down discards: {view.face_down_discards}"
    )
    if view.merchant_on:
        lines.append(f"Merchant doubles {card_label(view.merchant_on)}")
    if view.sorcerer_on:
        activity = (
            ACTIVITIES.word(view.sorcerer_activity).title() if view.sorcerer_activity else "?"
        )
        lines.append(f"Sorcerer turns {card_label(view.sorcerer_on)} into {activity}")
    if view.removed:
        lines.append(f"Removed from the game: {_cards(view.removed)}")
    return lines


def _player_lines(
    view: KingsLifeView,
    seat: int,
    player: pb.KingsLifePlayerView,
    program: pb.KingsLifeProgram | None,
    *,
    you: bool,
) -> list[str]:
    """A player's line (hand size, program, flags) and its cards in sight."""
    flags = []
    if player.passed:
        flags.append("passed")
    if player.supporter != NO_SEAT:
        flags.append(f"supported by seat {player.supporter}")
    if player.supporting != NO_SEAT:
        flags.append(f"supports seat {player.supporting}")
    if player.days_won:
        flags.append("days " + ", ".join(_day_name(d) for d in player.days_won))
    if player.kept:
        flags.append(f"kept {_cards(player.kept)}")
    if view.HasField("outcome"):
        flags.append(f"score {player.score} (support {player.support_points})")
    head = f"  seat {seat}{' (you)' if you else ''}: {player.hand_size} in hand"
    if program is not None:
        head += f", program {_program(program)}"
    lines = [head + (f"  [{'; '.join(flags)}]" if flags else "")]
    lines.append(f"      display: {_cards(player.display)}")
    if player.revealed:
        lines.append(f"      known in hand: {_cards(player.revealed)}")
    if player.revealed_commitment:
        lines.append(f"      revealed: {card_label(player.revealed_commitment)}")
    return lines
