"""King's Life: the names of things in the notation, and the move notation
(see the package's __init__ and docs/notation.md)."""

from __future__ import annotations

from throneroom.notation.base import Names, NotationError, Words, enum_words
from throneroom.v1 import kings_life_pb2 as pb
from throneroom.v1.kings_life_pb2 import KingsLifeMove, KingsLifeState

Move = KingsLifeMove
Play = KingsLifeMove.Play
State = KingsLifeState
NO_SEAT = -1

ACTIVITIES = Names(
    "activity",
    enum_words(pb.Activity.DESCRIPTOR, "ACTIVITY_", skip_zero=True),
    enum=pb.Activity.DESCRIPTOR,
    prefix="activity_",
)
DAYS = Names(
    "day",
    {d: w[:3] for d, w in enum_words(pb.Day.DESCRIPTOR, "DAY_", skip_zero=True).items()},
    enum=pb.Day.DESCRIPTOR,
    prefix="day_",
)
PHASES = Names("phase", enum_words(State.Phase.DESCRIPTOR, "PHASE_", skip_zero=False))
WINDOWS = Names("window", enum_words(State.Window.DESCRIPTOR, "WINDOW_", skip_zero=False))
RESULTS = Names(
    "day result", enum_words(pb.KingsLifeDayRecord.Result.DESCRIPTOR, "RESULT_", skip_zero=False)
)
STATUSES = Names(
    "token status", enum_words(pb.KingsLifeToken.Status.DESCRIPTOR, "STATUS_", skip_zero=False)
)


# -- moves ----------------------------------------------------------------------------------


def format_play(play: Play) -> str:
    """``play 55 on 31 as hunt``: the card, then each choice it carries."""
    text = f"play {play.card}"
    if play.target_card:
        text += f" on {play.target_card}"
    if play.activity:
        text += f" as {ACTIVITIES.word(play.activity)}"
    if play.cards:
        text += " swap " + " ".join(str(c) for c in play.cards)
    if play.positions:
        text += " pos " + " ".join(str(p) for p in play.positions)
    if play.token_day:
        text += f" day {DAYS.word(play.token_day)}"
    if play.HasField("support"):
        text += f" support {play.support}"
    if play.hand_over:
        text += f" give {play.hand_over}"
    return text


def format_move(move: KingsLifeMove) -> str:
    kind = move.WhichOneof("kind")
    if kind == "exchange":
        return "exchange " + (" ".join(str(c) for c in move.exchange.discard) or "none")
    if kind == "mulligan":
        return "mulligan" if move.mulligan.take else "keep"
    if kind == "commit":
        return f"commit {move.commit.card or 'none'}"
    if kind == "queen":
        q = move.queen
        if q.cancel:
            return f"queen {q.target}" if q.HasField("target") else "queen"
        if q.HasField("target"):
            raise NotationError("a Queen answer that declines names no target")
        return "decline"
    if kind == "play":
        return format_play(move.play)
    if kind == "passing":
        text = "pass"
        if move.passing.HasField("support"):
            text += f" support {move.passing.support}"
        if move.passing.hand_over:
            text += f" give {move.passing.hand_over}"
        return text
    if kind == "duke":
        return "duke" if move.duke.play else "no-duke"
    if kind == "take_back":
        return f"back {move.take_back.card}" if move.take_back.card else "done"
    raise NotationError("an empty move (no decision) has no notation")


def _card_or_none(words: Words, expected: str) -> int:
    word = words.next(expected)
    if word.text == "none":
        return 0
    return words.int_of(word, word.text, expected, lo=0)


def _play(words: Words, play: Play) -> None:
    play.card = words.integer("a card id", lo=0)
    while (word := words.peek()) is not None:
        words.next("")
        if word.text == "on":
            play.target_card = words.integer("a card id", lo=0)
        elif word.text == "as":
            play.activity = words.name(ACTIVITIES)  # type: ignore[assignment]
        elif word.text == "swap":
            play.cards.extend(words.integers("a card id", lo=0))
        elif word.text == "pos":
            play.positions.extend(words.integers("a preference position", lo=0))
        elif word.text == "day":
            play.token_day = words.name(DAYS)  # type: ignore[assignment]
        elif word.text == "support":
            play.support = words.integer("a seat", lo=0)
        elif word.text == "give":
            play.hand_over = words.integer("a card id", lo=0)
        else:
            raise words.error(
                f"unknown choice {word.text!r} (on, as, swap, pos, day, support, give)", word
            )


_VERBS = "exchange, mulligan, keep, commit, queen, decline, play, pass, duke, no-duke, back, done"


def parse_move(text: str) -> KingsLifeMove:
    words = Words(text)
    verb = words.next(f"a move ({_VERBS})")
    move = Move()
    if verb.text == "exchange":
        move.exchange.SetInParent()
        if (word := words.peek()) is not None and word.text == "none":
            words.next("none")
        else:
            move.exchange.discard.extend(words.integers("a card id", lo=0))
            if not move.exchange.discard:
                raise words.error("the cards to discard (or none) expected", words.peek())
    elif verb.text in ("mulligan", "keep"):
        move.mulligan.take = verb.text == "mulligan"
    elif verb.text == "commit":
        move.commit.card = _card_or_none(words, "a sun card id (or none)")
    elif verb.text == "queen":
        move.queen.cancel = True
        if not words.at_end():
            move.queen.target = words.integer("the seat whose card is cancelled", lo=0)
    elif verb.text == "decline":
        move.queen.SetInParent()
    elif verb.text == "play":
        _play(words, move.play)
    elif verb.text == "pass":
        move.passing.SetInParent()
        while (word := words.peek()) is not None:
            words.next("")
            if word.text == "support":
                move.passing.support = words.integer("a seat", lo=0)
            elif word.text == "give":
                move.passing.hand_over = words.integer("a card id", lo=0)
            else:
                raise words.error(f"unknown choice {word.text!r} (support, give)", word)
    elif verb.text == "duke":
        move.duke.play = True
    elif verb.text in ("no-duke", "no_duke", "noduke"):
        move.duke.SetInParent()
    elif verb.text == "back":
        move.take_back.card = words.integer("a display card id", lo=0)
    elif verb.text == "done":
        move.take_back.SetInParent()
    else:
        raise words.error(f"unknown move {verb.text!r} ({_VERBS})", verb)
    words.finish()
    return move
