"""The King Is Dead: the names of things in the notation, and the move notation
(see the package's __init__ and docs/notation.md)."""

from __future__ import annotations

from throneroom.notation.base import Names, NotationError, Word, Words, enum_words
from throneroom.v1 import king_is_dead_pb2 as pb
from throneroom.v1.king_is_dead_pb2 import KingIsDeadMove

Move = KingIsDeadMove

REGIONS = Names(
    "region",
    {
        pb.REGION_CALEDONIA: "cal",
        pb.REGION_DIN_EIDYN: "din",
        pb.REGION_DEVA: "dev",
        pb.REGION_EBORACUM: "ebo",
        pb.REGION_CAERLEON: "cae",
        pb.REGION_RATAE: "rat",
        pb.REGION_LONDINIUM: "lon",
        pb.REGION_AQUAE_SULIS: "aqu",
    },
    {"dineidyn": pb.REGION_DIN_EIDYN, "aquaesulis": pb.REGION_AQUAE_SULIS},
    pb.Region.DESCRIPTOR,
    "region_",
)
COLOURS = Names(
    "colour",
    {
        pb.FACTION_SCOTS: "s",
        pb.FACTION_WELSH: "w",
        pb.FACTION_ROMANO_BRITISH: "r",
        pb.FACTION_LOYALISTS: "l",
    },
    {
        "blue": pb.FACTION_SCOTS,
        "red": pb.FACTION_WELSH,
        "yellow": pb.FACTION_ROMANO_BRITISH,
        "black": pb.FACTION_LOYALISTS,
    },
    pb.Faction.DESCRIPTOR,
    "faction_",
)
CONTROLS = Names(
    "control",
    {
        pb.REGION_CONTROL_SCOTS: "s",
        pb.REGION_CONTROL_WELSH: "w",
        pb.REGION_CONTROL_ROMANO_BRITISH: "r",
        pb.REGION_CONTROL_LOYALISTS: "l",
        pb.REGION_CONTROL_SAXONS: "x",
    },
)
CARDS = Names(
    "card",
    {
        pb.ACTION_CARD_CROWN: "crown",
        pb.ACTION_CARD_GARRISON: "garrison",
        pb.ACTION_CARD_AMBASSADOR: "ambassador",
        pb.ACTION_CARD_SETTLERS: "settlers",
        pb.ACTION_CARD_SCOTS: "scots",
        pb.ACTION_CARD_WELSH: "welsh",
        pb.ACTION_CARD_ROMANO_BRITISH: "romano_british",
    },
    {"rb": pb.ACTION_CARD_ROMANO_BRITISH},
    pb.ActionCard.DESCRIPTOR,
    "action_card_",
)
CARD_LETTERS = Names(
    "card letter",
    {
        pb.ACTION_CARD_CROWN: "c",
        pb.ACTION_CARD_GARRISON: "g",
        pb.ACTION_CARD_AMBASSADOR: "a",
        pb.ACTION_CARD_SETTLERS: "t",
        pb.ACTION_CARD_SCOTS: "s",
        pb.ACTION_CARD_WELSH: "w",
        pb.ACTION_CARD_ROMANO_BRITISH: "r",
    },
)
DECISIONS = Names(
    "decision", enum_words(pb.KingIsDeadPending.Decision.DESCRIPTOR, "DECISION_", skip_zero=False)
)
COUNT_FIELDS = ("scots", "welsh", "romano_british", "loyalists")
"""Follower counts in colour order (Faction value - 1)."""


# -- moves ----------------------------------------------------------------------------------


def _side(region: int, colour: int | None) -> str:
    where = REGIONS.word(region)
    return where if colour is None else f"{COLOURS.word(colour)}@{where}"


def format_move(move: KingIsDeadMove) -> str:
    kind = move.WhichOneof("decision")
    if kind == "pass_turn":
        return "pass"
    if kind == "play_card":
        return f"play {CARDS.word(move.play_card.card)}"
    if kind == "crown":
        c = move.crown
        if c.crowned not in (c.region_a, c.region_b):
            raise NotationError("the crowned region must be one of the two swapped")
        a, b = REGIONS.word(c.region_a), REGIONS.word(c.region_b)
        return f"crown {a}* {b}" if c.crowned == c.region_a else f"crown {a} {b}*"
    if kind == "garrison":
        g = move.garrison
        out = "".join(COLOURS.word(f) for f in g.outgoing) or "-"
        back = f"/{COLOURS.word(g.returning)}" if g.HasField("returning") else ""
        return f"garrison {REGIONS.word(g.from_region)}>{REGIONS.word(g.to_region)} {out}{back}"
    if kind == "ambassador":
        m = move.ambassador
        a = _side(m.region_a, m.from_a if m.HasField("from_a") else None)
        b = _side(m.region_b, m.from_b if m.HasField("from_b") else None)
        return f"ambassador {a} {b}"
    if kind == "settle":
        return f"settle {REGIONS.word(move.settle.region)}"
    if kind == "place":
        return f"place {REGIONS.word(move.place.region)}"
    if kind == "summon":
        return f"summon {_side(move.summon.region, move.summon.faction)}"
    raise NotationError("an empty move (no decision) has no notation")


def _colours(words: Words, word: Word, text: str, offset: int) -> list[int]:
    if text == "-":
        return []
    return [
        words.named(Word(word.text, word.column + offset + i), COLOURS, letter)
        for i, letter in enumerate(text)
    ]


def _parse_side(words: Words, word: Word) -> tuple[int, int | None]:
    """``s@cal`` -> (cal, s); ``cal`` -> (cal, None)."""
    colour_text, at, region_text = word.text.rpartition("@")
    region = words.named(
        Word(word.text, word.column + len(colour_text) + len(at)), REGIONS, region_text
    )
    if not at:
        return region, None
    return region, words.named(word, COLOURS, colour_text)


def parse_move(text: str) -> KingIsDeadMove:
    words = Words(text)
    verb = words.next("a move (pass, play, crown, garrison, ambassador, settle, place, summon)")
    move = Move()
    if verb.text == "pass":
        move.pass_turn.SetInParent()
    elif verb.text == "play":
        move.play_card.card = words.name(CARDS)  # type: ignore[assignment]
    elif verb.text == "crown":
        sides = []
        for _ in range(2):
            word = words.next("a region (mark the crowned one with *)")
            name = word.text.strip("*")
            start = word.text.index(name) if name else 0
            region = words.named(Word(word.text, word.column + start), REGIONS, name)
            sides.append((region, word.text != name))
        if [starred for _, starred in sides].count(True) != 1:
            raise words.error("mark exactly one of the two regions with * (the crowned one)", verb)
        move.crown.region_a, move.crown.region_b = sides[0][0], sides[1][0]  # type: ignore[assignment]
        move.crown.crowned = sides[0][0] if sides[0][1] else sides[1][0]  # type: ignore[assignment]
    elif verb.text == "garrison":
        route = words.next("from>to")
        source, arrow, target = route.text.partition(">")
        if not arrow:
            raise words.error(f"from>to expected, not {route.text!r}", route)
        g = move.garrison
        g.from_region = words.named(route, REGIONS, source)  # type: ignore[assignment]
        g.to_region = words.named(  # type: ignore[assignment]
            Word(route.text, route.column + len(source) + 1), REGIONS, target
        )
        flow = words.next("the colours that go (e.g. sw, or sw/r with one coming back)")
        out, slash, back = flow.text.partition("/")
        g.outgoing.extend(_colours(words, flow, out, 0))  # type: ignore[arg-type]
        if slash:
            back_word = Word(flow.text, flow.column + len(out) + 1)
            g.returning = words.named(back_word, COLOURS, back)  # type: ignore[assignment]
    elif verb.text == "ambassador":
        m = move.ambassador
        m.SetInParent()
        region, colour = _parse_side(words, words.next("colour@region or region"))
        m.region_a = region  # type: ignore[assignment]
        if colour is not None:
            m.from_a = colour  # type: ignore[assignment]
        region, colour = _parse_side(words, words.next("colour@region or region"))
        m.region_b = region  # type: ignore[assignment]
        if colour is not None:
            m.from_b = colour  # type: ignore[assignment]
    elif verb.text in ("settle", "place"):
        getattr(move, verb.text).region = words.name(REGIONS)
    elif verb.text == "summon":
        word = words.next("colour@region")
        region, colour = _parse_side(words, word)
        if colour is None:
            raise words.error("colour@region expected (e.g. s@cal)", word)
        move.summon.region, move.summon.faction = region, colour  # type: ignore[assignment]
    else:
        raise words.error(f"unknown move {verb.text!r}", verb)
    words.finish()
    return move
