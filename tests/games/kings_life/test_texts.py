"""The SDK's texts: every move and event of real games has an English sentence,
and the helpers that answer simultaneous decisions automatically."""

from __future__ import annotations

import random

from throneroom.games.kings_life import (
    EVENT_KINDS,
    auto_decline_queen,
    card_name,
    describe_event,
    describe_move,
    only_move,
)
from throneroom.v1 import kings_life_pb2 as pb

from .helpers import ENGINE, HUNT, QUEEN, THIEF_4, A, Move, Play, scenario, step


def test_every_event_kind_has_a_description() -> None:
    fields = {f.name for f in pb.KingsLifeEvent.DESCRIPTOR.oneofs_by_name["kind"].fields}
    assert set(EVENT_KINDS) == fields


def test_moves_and_events_of_random_games_read_as_sentences() -> None:
    seen_events: set[str] = set()
    seen_moves: set[str] = set()
    for seed in range(12):
        rng = random.Random(seed)
        state = ENGINE.setup(ENGINE.default_options(), 4 + seed % 5, seed)
        while acting := ENGINE.to_act(state):
            seat = acting[rng.randrange(len(acting))]
            moves = ENGINE.legal_moves(state, seat)
            move = moves[rng.randrange(len(moves))]
            text = describe_move(move, seat)
            assert text.startswith(f"Seat {seat} ") and "?" not in text
            for lang, you in (("en", "You "), ("pt", "Você ")):
                mine = describe_move(move, seat, lang=lang, viewer=seat)
                assert mine.startswith(you) and "?" not in mine
            seen_moves.add(move.WhichOneof("kind") or "")
            state, events = ENGINE.apply(state, seat, move)
            for event in events:
                for viewer in (seat, None):
                    redacted = ENGINE.redact_event(event, viewer)
                    assert redacted is not None
                    for lang in ("en", "es", "pt"):
                        sentence = describe_event(redacted, lang=lang, viewer=viewer)
                        assert sentence and "?" not in sentence and "{" not in sentence
                        assert sentence not in ("Nothing happens", "No pasa nada", "Nada acontece")
                seen_events.add(event.WhichOneof("kind") or "")
    assert seen_moves >= {"exchange", "mulligan", "commit", "queen", "play", "passing"}
    assert len(seen_events) >= 18


def test_some_sentences() -> None:
    assert card_name(A(HUNT, 3)) == "Hunt 3"
    assert card_name(THIEF_4) == "the Thief (4)"
    move = Move(play=Play(card=THIEF_4, target_card=A(HUNT, 4)))
    assert describe_move(move, 2) == "Seat 2 plays the Thief (4), taking Hunt 4"
    passing = Move(passing=Move.Pass(support=1, hand_over=A(HUNT, 3)))
    assert describe_move(passing, 0) == "Seat 0 passes, supporting seat 1 and handing over Hunt 3"
    assert describe_move(Move(queen=Move.Queen(cancel=True, target=3)), 1) == (
        "Seat 1 plays the Queen, cancelling seat 3's card"
    )
    assert describe_move(Move(take_back=Move.TakeBack(card=A(HUNT, 3))), 0) == (
        "Seat 0 takes Hunt 3 back in hand with the Fool"
    )
    assert describe_move(Move(take_back=Move.TakeBack()), 0) == (
        "Seat 0 stops taking cards back with the Fool"
    )


def test_auto_decline_queen_only_without_the_queen() -> None:
    state = scenario(hands={0: [A(HUNT, 5)], 1: [A(HUNT, 2)], 2: [QUEEN]})
    state, _ = step(state, 0, Move(play=Play(card=A(HUNT, 5))))
    for seat, expected in ((1, True), (2, False)):
        view = ENGINE.view(state, seat)
        moves = ENGINE.legal_moves(state, seat)
        answer = auto_decline_queen(view, moves)
        assert (answer is not None) == expected
        if answer is not None:
            assert answer == Move(queen=Move.Queen())
    turn = scenario(hands={0: [A(HUNT, 5)]})
    assert auto_decline_queen(ENGINE.view(turn, 0), ENGINE.legal_moves(turn, 0)) is None
    assert only_move([Move(queen=Move.Queen())]) == Move(queen=Move.Queen())
    assert only_move(ENGINE.legal_moves(turn, 0)) is None
