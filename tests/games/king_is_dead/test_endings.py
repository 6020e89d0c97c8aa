"""Winning the game: control, invasion, teams, tie-breaks, Mordred (rules 5.x, 6.x)."""

from __future__ import annotations

import pytest

from .helpers import (
    AQS,
    C_L,
    C_R,
    C_S,
    C_W,
    CAER,
    CAL,
    DEVA,
    DIN,
    EBO,
    GAME,
    LON,
    RATAE,
    SAX,
    SETTLERS,
    State,
    act,
    build,
    cards_except,
    counts,
    kinds,
    of_kind,
    pass_,
    pass_round,
    play_through,
)

PHIL, LAURA = 0, 1
# The example's courts: Phil has more blue, Laura more yellow, both 3 red;
# Laura has 3 complete sets, Phil 2.
PHIL_COURT = (4, 3, 2)
LAURA_COURT = (3, 3, 4)


def _ending(
    resolved: list[tuple[int, int]],
    last: tuple[int, tuple[int, int, int] | tuple[int, int, int, int]],
    courts: list[tuple[int, int, int]],
    *,
    mordred: bool = False,
    played: list[list[int]] | None = None,
) -> State:
    """Pass until the power struggle of ``last`` (region, followers) resolves."""
    region, followers = last
    state = build(
        len(courts),
        board={region: followers},
        resolved=resolved,
        courts=courts,
        mordred=mordred,
        played=played,
    )
    state, events = pass_round(state)
    assert of_kind(events, "struggle_resolved")[0].region == region
    assert state.HasField("outcome")
    (ended,) = of_kind(events, "game_ended")
    assert list(ended.winners) == list(state.outcome.winners)
    assert list(ended.tiebreaks) == list(state.outcome.tiebreaks)
    return state


def test_laura_phil_ending_scots_control() -> None:
    resolved = [(CAL, C_S), (DIN, C_S), (DEVA, C_S), (EBO, C_W), (CAER, C_W), (RATAE, C_R)]
    resolved += [(LON, SAX)]
    state = _ending(resolved, (AQS, (0, 0, 0)), [PHIL_COURT, LAURA_COURT])
    assert state.outcome.termination == "control"
    assert list(state.outcome.winners) == [PHIL]
    assert list(state.outcome.tiebreaks) == []


@pytest.mark.parametrize(("second", "winner"), [(C_S, PHIL), (C_R, LAURA)])
def test_laura_phil_ending_welsh_control(second: int, winner: int) -> None:
    third = C_R if second == C_S else C_S
    resolved = [(CAL, C_W), (DIN, C_W), (DEVA, C_W), (EBO, second), (CAER, second)]
    resolved += [(RATAE, third), (LON, SAX)]
    state = _ending(resolved, (AQS, (0, 0, 0)), [PHIL_COURT, LAURA_COURT])
    assert state.outcome.termination == "control"
    assert list(state.outcome.winners) == [winner]
    assert list(state.outcome.tiebreaks) == ["second_faction"]


def test_laura_phil_ending_invasion() -> None:
    resolved = [(CAL, SAX), (DIN, SAX), (DEVA, SAX), (EBO, C_S), (CAER, C_W), (RATAE, C_R)]
    state = _ending(resolved, (LON, (0, 0, 0)), [PHIL_COURT, LAURA_COURT])
    assert state.outcome.termination == "invasion"
    assert list(state.outcome.winners) == [LAURA]
    assert "3 complete sets" in state.outcome.summary


def test_faction_recency_breaks_a_tie_in_regions() -> None:
    # Scots 3, Welsh 3: the Welsh won the most recent struggle (Aquae Sulis).
    resolved = [(CAL, C_S), (DIN, C_W), (DEVA, C_S), (EBO, C_W), (CAER, C_S), (RATAE, SAX)]
    resolved += [(LON, C_R)]
    state = _ending(resolved, (AQS, (0, 1, 0)), [(3, 0, 0), (0, 1, 0)])
    assert list(state.outcome.winners) == [1]
    assert list(state.outcome.tiebreaks) == ["faction_recency"]
    # Had the Scots won it, the Scots would rule.
    state = _ending(resolved, (AQS, (1, 0, 0)), [(3, 0, 0), (0, 1, 0)])
    assert list(state.outcome.winners) == [0]


def test_second_faction_recency() -> None:
    # Welsh 3; Scots 2 and Romano-British 2, the Romano-British won later.
    resolved = [(CAL, C_W), (DIN, C_S), (DEVA, C_R), (EBO, C_W), (CAER, C_S), (RATAE, C_R)]
    resolved += [(LON, SAX)]
    state = _ending(resolved, (AQS, (0, 1, 0)), [(3, 2, 0), (0, 2, 1)])
    assert list(state.outcome.winners) == [1]
    assert list(state.outcome.tiebreaks) == ["second_faction", "second_faction_recency"]


def test_control_tie_the_player_who_played_last_loses() -> None:
    resolved = [(CAL, C_S), (DIN, C_S), (DEVA, C_S), (EBO, C_W), (CAER, C_W), (RATAE, SAX)]
    resolved += [(LON, SAX)]
    courts = [(2, 1, 0), (2, 1, 0)]
    # Seat 0 played 2 cards, seat 1 one: seat 0 played last (card 3) and loses.
    played = [[SETTLERS, SETTLERS], [SETTLERS]]
    state = _ending(resolved, (AQS, (0, 0, 0)), courts, played=played)
    assert list(state.outcome.winners) == [1]
    assert list(state.outcome.tiebreaks) == ["second_faction", "last_card_played"]


def test_control_tie_among_three_removes_the_latest_players_in_turn() -> None:
    resolved = [(CAL, C_S), (DIN, C_S), (DEVA, C_S), (EBO, C_S), (CAER, C_S), (RATAE, SAX)]
    resolved += [(LON, SAX)]
    courts = [(2, 0, 0), (2, 0, 0), (2, 0, 0)]
    # Stamps: seat 0 -> 4, seat 1 -> 5, seat 2 -> 3. Seat 1 then seat 0 drop out.
    played = [[SETTLERS, SETTLERS], [SETTLERS, SETTLERS], [SETTLERS]]
    state = _ending(resolved, (AQS, (0, 0, 0)), courts, played=played)
    assert list(state.outcome.winners) == [2]
    assert list(state.outcome.tiebreaks) == ["last_card_played"]  # no second faction


def test_invasion_tie_the_player_who_played_last_wins() -> None:
    resolved = [(CAL, SAX), (DIN, SAX), (DEVA, SAX), (EBO, C_S), (CAER, C_W), (RATAE, C_R)]
    played = [[SETTLERS, SETTLERS], [SETTLERS]]
    state = _ending(resolved, (LON, (0, 0, 0)), [(2, 2, 2), (3, 2, 2)], played=played)
    assert list(state.outcome.winners) == [0]
    assert list(state.outcome.tiebreaks) == ["last_card_played"]


def test_four_players_pool_followers_on_invasion_only() -> None:
    resolved = [(CAL, SAX), (DIN, SAX), (DEVA, SAX), (EBO, C_S), (CAER, C_W), (RATAE, C_R)]
    courts = [(3, 0, 0), (2, 2, 2), (0, 3, 3), (0, 0, 0)]
    state = _ending(resolved, (LON, (0, 0, 0)), courts)
    # Seat 1 has the most sets alone (2), but seats 0+2 pool 3 sets.
    assert list(state.outcome.winners) == [0, 2]


def test_four_players_teammate_shares_the_control_win() -> None:
    resolved = [(CAL, C_S), (DIN, C_S), (DEVA, C_S), (EBO, C_W), (CAER, C_W), (RATAE, SAX)]
    resolved += [(LON, SAX)]
    # Seats 0+2 hold 4 blue together, seat 1 alone holds 3: no pooling here.
    courts = [(2, 0, 0), (3, 0, 0), (2, 0, 0), (0, 0, 0)]
    state = _ending(resolved, (AQS, (0, 0, 0)), courts)
    assert list(state.outcome.winners) == [1, 3]
    assert "teammate seat 3 shares the victory" in state.outcome.summary


# -- Mordred ---------------------------------------------------------------------------

BANNER_TABLE = {
    CAL: AQS,
    DIN: AQS,
    RATAE: AQS,
    DEVA: AQS,
    CAER: DIN,
    EBO: DIN,
    LON: DIN,
    AQS: DIN,
}


@pytest.mark.parametrize(("region", "target"), sorted(BANNER_TABLE.items()))
def test_mordred_banner_places_a_loyalist(region: int, target: int) -> None:
    others = [r for r in BANNER_TABLE if r not in (region,)]
    board = {region: (1, 0, 0, 1 if region in (DIN, AQS) else 0)}
    for r in (DIN, AQS):
        if r != region:
            board[r] = (0, 1, 0, 1)
    state = build(2, board=board, order=[region, *others], mordred=True)
    pool = state.loyalist_pool
    before = counts(state, target)[3]
    state, events = pass_round(state)
    (resolved,) = of_kind(events, "struggle_resolved")
    assert resolved.banner_region == target
    assert counts(state, target)[3] == before + 1
    returned = 1 if region in (DIN, AQS) else 0
    assert state.loyalist_pool == pool + returned - 1


def test_mordred_banner_skips_a_resolved_target() -> None:
    state = build(
        2,
        board={CAL: (1, 0, 0), DIN: (0, 1, 0, 1)},
        resolved=[(AQS, C_W)],
        mordred=True,
    )
    pool = state.loyalist_pool
    state, events = pass_round(state)
    (resolved,) = of_kind(events, "struggle_resolved")
    assert resolved.region == CAL and not resolved.HasField("banner_region")
    assert state.loyalist_pool == pool


def test_black_followers_return_to_the_pool_and_count_for_control() -> None:
    state = build(2, board={DIN: (1, 1, 0, 1), CAL: (1, 0, 0)}, order=None, mordred=True)
    state, _ = pass_round(state)  # Caledonia first: a black cube goes to Aquae Sulis
    assert counts(state, AQS) == (0, 0, 0, 1)
    pool = state.loyalist_pool
    state, events = pass_round(state)
    (resolved,) = of_kind(events, "struggle_resolved")
    assert resolved.region == DIN and resolved.control == SAX  # 1-1-0-1: a tie
    # Din Eidyn's black follower returns to the pool; its banner sends one
    # from the pool to Aquae Sulis.
    assert state.loyalist_pool == pool
    assert resolved.followers.loyalists == 1 and resolved.banner_region == AQS
    assert counts(state, AQS)[3] == 2


def test_loyalist_control_ends_the_game() -> None:
    resolved = [(CAL, C_S), (DIN, C_W)]
    state = _ending(
        resolved,
        (DEVA, (1, 0, 0, 2)),
        [(2, 0, 0), (1, 1, 0)],
        mordred=True,
    )
    assert state.outcome.termination == "loyalist"
    assert state.regions[DEVA - 1].control == C_L
    # Scots 1, Welsh 1: the Welsh won more recently and rule: seat 1 has more red.
    assert list(state.outcome.winners) == [1]
    assert list(state.outcome.tiebreaks) == ["faction_recency"]
    assert GAME.to_act(state) == ()


def test_loyalist_ending_without_a_faction_most_followers_at_court() -> None:
    state = _ending([], (CAL, (0, 0, 0, 1)), [(1, 1, 1), (4, 0, 0)], mordred=True)
    assert state.outcome.termination == "loyalist"
    assert list(state.outcome.winners) == [1]
    assert list(state.outcome.tiebreaks) == ["court_total"]


def test_loyalist_ending_still_tied_the_player_who_played_last_wins() -> None:
    played = [[SETTLERS], [SETTLERS, SETTLERS]]
    state = _ending([], (CAL, (0, 0, 0, 1)), [(1, 1, 1), (3, 0, 0)], mordred=True, played=played)
    assert list(state.outcome.winners) == [1]
    assert list(state.outcome.tiebreaks) == ["court_total", "last_card_played"]


def test_loyalist_ending_no_second_faction_to_settle_the_tie() -> None:
    # Only the Scots hold a region; both players have 2 blue: court totals decide.
    state = _ending([(CAL, C_S)], (DIN, (0, 0, 0, 1)), [(2, 0, 0), (2, 1, 0)], mordred=True)
    assert list(state.outcome.winners) == [1]
    assert list(state.outcome.tiebreaks) == ["court_total"]


def test_game_ended_event_names_the_ruling_faction() -> None:
    resolved = [(CAL, C_S), (DIN, C_S), (DEVA, C_S), (EBO, C_W), (CAER, C_W), (RATAE, C_R)]
    resolved += [(LON, SAX)]
    state = build(2, board={AQS: (0, 0, 0)}, resolved=resolved, courts=[PHIL_COURT, LAURA_COURT])
    state, events = act(state, pass_(), pass_())
    assert kinds(events)[-1] == "game_ended"
    (ended,) = of_kind(events, "game_ended")
    assert ended.ruling_faction == 1 and ended.termination == "control"


def test_play_through_to_the_end() -> None:
    # A whole game through the engine always ends with an outcome.
    state = build(2, board={CAL: (1, 0, 0)}, played=[cards_except(SETTLERS), cards_except()])
    state, events = play_through(state, SETTLERS)
    assert state.HasField("outcome") and kinds(events)[-1] == "game_ended"


def test_a_fourth_saxon_token_in_the_last_struggle_is_an_invasion() -> None:
    resolved = [(CAL, SAX), (DIN, SAX), (DEVA, SAX), (EBO, C_S), (CAER, C_S), (RATAE, C_S)]
    resolved += [(LON, C_S)]
    state = _ending(resolved, (AQS, (1, 1, 0)), [PHIL_COURT, LAURA_COURT])
    assert state.outcome.termination == "invasion"
    assert list(state.outcome.winners) == [LAURA]


def test_loyalists_winning_the_last_struggle_is_a_loyalist_ending() -> None:
    resolved = [(CAL, C_S), (DIN, C_S), (DEVA, C_S), (EBO, C_W), (CAER, C_W), (RATAE, C_R)]
    resolved += [(LON, SAX)]
    state = _ending(resolved, (AQS, (0, 0, 0, 2)), [PHIL_COURT, LAURA_COURT], mordred=True)
    assert state.outcome.termination == "loyalist"
    assert list(state.outcome.winners) == [PHIL]
