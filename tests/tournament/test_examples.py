"""The example tournaments (examples/tournaments/) run, shortened, to the end
with every shipped bot that plays their game, write a record of each finished
game, and give the same results in two runs."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest
from throneroom import Client
from throneroom.tournament import TournamentConfig, compute_standings, load_config, run_tournament
from throneroom_server.embedded import EmbeddedServer

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "tournaments"


def _shortened(config: TournamentConfig) -> TournamentConfig:
    """Fewer games, the same entrants and game: one game per seating; two
    Swiss rounds; a round robin of four seats (24 seatings) as one Swiss
    round of one table (its four rotations)."""
    if config.schedule == "swiss":
        return dataclasses.replace(config, games_per_pairing=1, rounds=2)
    if config.seats == len(config.entrants) > 3:
        return dataclasses.replace(config, schedule="swiss", rounds=1, games_per_pairing=1)
    return dataclasses.replace(config, games_per_pairing=1)


def test_the_examples_cover_every_game_a_swiss_and_kill_the_king() -> None:
    configs = [load_config(path) for path in sorted(EXAMPLES.glob("*.toml"))]
    games = {c.game for c in configs}
    assert {"king_is_dead", "kill_the_king", "kings_life"} <= games
    assert any(c.schedule == "swiss" for c in configs)
    bots = {e.bot or e.command[-1] for c in configs for e in c.entrants}
    assert {
        "throneroom.bots:RandomBot",
        "throneroom.bots.mcts:MctsBot",
        "throneroom.games.king_is_dead.bot:KingIsDeadBot",
        "throneroom.games.kings_life.bot:KingsLifeBot",
        "throneroom.games.kill_the_king.bot:KillTheKingBot",
        "../external_bot/random_bot.js",
    } <= bots


@pytest.mark.slow  # whole tournaments, twice
@pytest.mark.parametrize("name", ["swiss", "kill_the_king", "kings_life"])
def test_an_example_runs_writes_its_records_and_repeats_its_results(
    tmp_path: Path, name: str
) -> None:
    config = _shortened(load_config(EXAMPLES / f"{name}.toml"))
    runs = []
    with EmbeddedServer() as server, Client(server.address) as client:
        for run in ("first", "second"):
            records_dir = tmp_path / f"{run}.records"
            played = run_tournament(
                config, tmp_path / f"{run}.jsonl", client=client, records=records_dir
            )
            finished = [r for r in played if r.status == "finished"]
            assert played and len(finished) == len(played)  # no bot failed
            assert sorted(p.name for p in records_dir.iterdir()) == sorted(
                r.record_file for r in finished
            )
            runs.append(played)
    first, second = runs
    assert [r.result() for r in first] == [r.result() for r in second]
    names = [e.name for e in config.entrants]
    standings = [compute_standings(names, run, config.seats) for run in runs]
    assert standings[0] == standings[1]
    moves = [
        [json.loads((tmp_path / f"{run}.records" / r.record_file).read_text())["moves"] for r in rs]
        for run, rs in zip(("first", "second"), runs, strict=True)
    ]
    assert moves[0] == moves[1]  # the same games, move by move
