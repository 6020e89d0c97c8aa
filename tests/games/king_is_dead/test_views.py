"""Views and hidden information (rule 8): hands and buried cards stay secret."""

from __future__ import annotations

from throneroom_server.games.king_is_dead.board import HAND

from .helpers import (
    AMBASSADOR,
    CAL,
    CROWN,
    DEVA,
    EBO,
    GAME,
    GARRISON,
    SETTLERS,
    WELSH_CARD,
    S,
    W,
    act,
    build,
    garrison,
    play,
    summon,
)


def _state() -> object:
    state = build(
        3,
        board={CAL: (1, 0, 0), DEVA: (2, 1, 0), EBO: (0, 0, 1)},
        played=[[SETTLERS, CROWN], [WELSH_CARD, AMBASSADOR], [SETTLERS]],
        crowned={EBO: 0},
        to_move=2,
    )
    state, _ = act(state, play(GARRISON), garrison(DEVA, EBO, [S, W], 3))
    return state


def test_view_shows_the_public_state_and_the_viewers_hand() -> None:
    state = _state()
    view = GAME.view(state, 1)  # type: ignore[arg-type]
    assert view.viewer == 1
    assert list(view.my_hand) == list(state.seats[1].hand)  # type: ignore[attr-defined]
    assert list(view.regions) == list(state.regions)  # type: ignore[attr-defined]
    assert list(view.region_cards) == list(state.region_cards)  # type: ignore[attr-defined]
    assert view.current_struggle == CAL and view.to_move == 2
    assert view.pending.decision == state.pending.decision  # type: ignore[attr-defined]
    assert view.last_exchange.exchange.garrison.from_region == DEVA
    seats = {s.seat: s for s in view.seats}
    assert (seats[0].played_count, seats[0].top_card, seats[0].cards_left) == (2, CROWN, 6)
    assert (seats[1].played_count, seats[1].top_card) == (2, AMBASSADOR)
    assert (seats[2].played_count, seats[2].top_card, seats[2].cards_left) == (2, GARRISON, 6)
    assert not seats[0].has_crown_token and seats[1].has_crown_token
    assert [s.last_played for s in view.seats] == [4, 5, 6]
    spectator = GAME.view(state, None)  # type: ignore[arg-type]
    assert not spectator.HasField("viewer") and list(spectator.my_hand) == []
    assert "rng" not in [f.name for f in type(view).DESCRIPTOR.fields]


def test_randomize_hidden_keeps_what_the_viewer_knows() -> None:
    state = _state()
    changed = 0
    for seed in range(40):
        for viewer in (None, 0, 1, 2):
            world = GAME.randomize_hidden(state, viewer, seed)  # type: ignore[arg-type]
            GAME.check_invariants(world)
            assert GAME.view(world, viewer) == GAME.view(state, viewer)  # type: ignore[arg-type]
            assert world.rng != state.rng  # type: ignore[attr-defined]
            for seat in range(3):
                mine, theirs = state.seats[seat], world.seats[seat]  # type: ignore[attr-defined]
                assert sorted(list(theirs.hand) + list(theirs.played)) == list(HAND)
                assert theirs.played[-1] == mine.played[-1]
                if seat == viewer:
                    assert list(theirs.hand) == list(mine.hand)
                    assert theirs.played == mine.played
                changed += list(theirs.played) != list(mine.played)
            # Seat 0's crown token lies on Eboracum: its Crown stays played.
            assert CROWN in world.seats[0].played
    assert changed > 50


def test_events_are_public() -> None:
    state = build(2, board={CAL: (1, 0, 0)})
    state, events = act(state, play(SETTLERS))
    for event in events:
        assert GAME.redact_event(event, None) is event
        assert GAME.redact_event(event, 1) is event


def test_summon_then_view_counts() -> None:
    state = build(2, board={CAL: (1, 1, 0)})
    state, _ = act(state, play(CROWN))
    state, _ = act(state, *[GAME.legal_moves(state, 0)[0]], summon(CAL, W))
    view = GAME.view(state, 0)
    assert view.seats[0].court.welsh == 1 and view.regions[CAL - 1].welsh == 0


def test_the_spectator_view_copies_the_board_field_by_field() -> None:
    from throneroom.v1 import king_is_dead_pb2 as pb
    from throneroom_server.games.king_is_dead.views import public_view

    state = _state()
    assert isinstance(state, pb.KingIsDeadState)
    view = public_view(state)
    assert list(view.regions) == list(state.regions)
    assert list(view.region_cards) == list(state.region_cards)
    assert view.supply == state.supply and view.pending == state.pending
    assert [s.court for s in view.seats] == [s.court for s in state.seats]
    assert not view.HasField("viewer") and not view.my_hand
    assert view.to_move == 2


def test_a_field_of_a_later_schema_in_the_state_stays_out_of_the_view() -> None:
    from throneroom.v1 import king_is_dead_pb2 as pb
    from throneroom_server.games.king_is_dead.views import public_view

    state = _state()
    assert isinstance(state, pb.KingIsDeadState)
    later = pb.KingIsDeadState.FromString(state.SerializeToString() + b"\xf8\x07\x2a")  # field 127
    assert later != state  # it carries the unknown field
    assert public_view(later).SerializeToString() == public_view(state).SerializeToString()
