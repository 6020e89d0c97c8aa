"""Forfeits: rated only when the file says so; a failure in a bigger game makes
nobody a winner; under on_timeout = "default_move" the game goes on."""

from __future__ import annotations

from pathlib import Path

import pytest
from throneroom import Client
from throneroom.tournament import (
    Failure,
    MatchRecord,
    TournamentFileError,
    compute_standings,
    load_config,
    parse_config,
    run_tournament,
)
from throneroom_server.embedded import EmbeddedServer

from tests.tournament.helpers import tournament_file


def _record(
    key: str, entrants: tuple[str, ...], winners: tuple[int, ...], **kw: object
) -> MatchRecord:
    values: dict[str, object] = {
        "key": key,
        "round": 0,
        "entrants": entrants,
        "game_seed": 1,
        "game_id": "g",
        "status": "finished",
        "winners": winners,
        "termination": "control",
        "moves": 10,
        "apply_moves": 10,
    }
    values.update(kw)
    return MatchRecord(**values)  # type: ignore[arg-type]


CRASH = (Failure(0, "a", "crash", "boom"),)


def test_forfeits_count_as_games_but_are_rated_only_with_rate_forfeits() -> None:
    records = [
        _record(
            "1", ("a", "b"), (1,), status="forfeit", termination="forfeit:crash", failures=CRASH
        ),
        _record(
            "2", ("a", "b"), (1,), termination="timeout", failures=(Failure(0, "a", "timeout"),)
        ),
    ]
    unrated = {s.entrant: s for s in compute_standings(["a", "b"], records, 2)}
    assert unrated["a"].mu == unrated["b"].mu == 25.0  # nothing rated
    assert unrated["a"].games == 2 and unrated["b"].wins == 2
    assert unrated["a"].failures == {"crash": 1, "timeout": 1}
    rated = {s.entrant: s for s in compute_standings(["a", "b"], records, 2, rate_forfeits=True)}
    assert rated["b"].mu > 25.0 > rated["a"].mu
    # A game played out is rated either way.
    played = [_record("3", ("a", "b"), (0,))]
    assert compute_standings(["a", "b"], played, 2)[0].entrant == "a"


def test_a_rated_forfeit_in_a_bigger_game_ranks_the_failing_seat_last_and_the_rest_tied() -> None:
    record = _record(
        "1", ("a", "b", "c"), (), status="forfeit", termination="forfeit:crash", failures=CRASH
    )
    standings = {
        s.entrant: s for s in compute_standings(["a", "b", "c"], [record], 3, rate_forfeits=True)
    }
    assert standings["b"].mu == standings["c"].mu > 25.0 > standings["a"].mu
    assert standings["b"].wins == standings["c"].wins == 0  # nobody won the game


def test_rate_forfeits_is_a_boolean_off_by_default_and_does_not_change_the_fingerprint() -> None:
    base = {
        "game": "king_is_dead",
        "entrants": [{"name": "r", "bot": "throneroom.bots:RandomBot"}] * 1,
    }
    base["entrants"] = [
        {"name": "r", "bot": "throneroom.bots:RandomBot"},
        {"name": "s", "bot": "throneroom.bots:RandomBot"},
    ]
    assert parse_config(base).rate_forfeits is False
    rated = parse_config({**base, "rate_forfeits": True})
    assert rated.rate_forfeits is True and rated.fingerprint() == parse_config(base).fingerprint()
    with pytest.raises(TournamentFileError, match="rate_forfeits must be true or false"):
        parse_config({**base, "rate_forfeits": "yes"})


def test_a_crash_in_a_four_seat_game_makes_nobody_a_winner(tmp_path: Path) -> None:
    path = tournament_file(
        tmp_path,
        ["crasher", "random"],
        game="kings_life",
        seats=4,
        schedule="gauntlet",
        hero="crasher",
        repeat_entrants=True,
    )
    with EmbeddedServer() as server, Client(server.address) as client:
        records = run_tournament(load_config(path), tmp_path / "r.jsonl", client=client)
    assert len(records) == 4  # the hero in each seat; the field's one entrant fills the rest
    for record in records:
        assert [(f.entrant, f.reason) for f in record.failures] == [("crasher", "crash")]
        assert record.status == "forfeit" and record.termination == "forfeit:crash"
        assert record.winners == ()


@pytest.mark.slow  # a whole game waiting out a hung bot's deadlines
def test_under_default_move_a_timeout_plays_the_default_move_and_the_game_goes_on(
    tmp_path: Path,
) -> None:
    marks = tmp_path / "marks"
    marks.mkdir()
    # Deadlines long enough that neither the random bot nor the fresh bot made for
    # the hung seat (a new worker process, on the seat's clock) runs out on a busy machine.
    path = tournament_file(tmp_path, ["random"], deadline=5)
    text = path.read_text().replace(
        "[time_control]\n", '[time_control]\non_timeout = "default_move"\n'
    )
    text += (
        '[[entrants]]\nname = "once"\nbot = "tests.tournament.misbehaving:OnceHangingBot"\n'
        f'args = {{ marks = "{marks}" }}\n'
    )
    path.write_text(text)
    with EmbeddedServer() as server, Client(server.address) as client:
        records = run_tournament(load_config(path), tmp_path / "r.jsonl", client=client)
    assert len(records) == 2 and len(list(marks.iterdir())) == 2  # it hung once in each game
    for record in records:
        assert [(f.entrant, f.reason) for f in record.failures] == [("once", "timeout")]
        assert "the default move was played" in record.failures[0].detail
        # The game was played to its end by the rules, the service's move counted.
        assert record.status == "finished" and record.termination not in {"timeout", ""}
        assert record.winners and record.moves == record.apply_moves + 1
