"""describe.py for every game: which languages each game speaks."""

from __future__ import annotations

import pytest
from throneroom.envelopes import unwrap
from throneroom.games import king_is_dead as kid
from throneroom.games.protocol import game_client
from throneroom_server.app.describe import LANGUAGES, check_language, describer
from throneroom_server.app.errors import AppError
from throneroom_server.games.registry import service_games

GAMES = service_games(include_fixtures=True)
SEATS = {"king_is_dead": 2, "kings_life": 4, "kill_the_king": 2, "nim": 2}


@pytest.mark.parametrize("name", sorted(GAMES))
def test_every_game_describes_its_first_moves_and_events(name: str) -> None:
    game = GAMES[name]
    options = game.game_type().default_options
    state = game.setup(options, SEATS[name], 7)
    seat = game.to_act(state)[0]
    moves = game.legal_moves(state, seat)
    assert moves
    english = describer(game, "en")
    assert english is not None and english.hidden_information == game.info.hidden_information
    described = english.moves(moves, seat)
    assert len(described) == len(moves)
    assert all(d.notation and d.text for d in described)
    _, events = game.apply(state, seat, moves[0])
    texts = english.events(events)
    assert len(texts) == len(events) and all(texts)
    spanish = describer(game, "es")
    assert spanish is not None
    client = game_client(name)  # every game speaks Spanish: its client's own sentences
    assert [d.text for d in spanish.moves(moves, seat)] == [
        client.describe_move(unwrap(m), lang="es", viewer=seat) for m in moves
    ]
    assert spanish.events(events) == [client.describe_event(unwrap(e), lang="es") for e in events]
    assert spanish.moves(moves, seat) != described


def test_languages() -> None:
    assert LANGUAGES == ("en", "es", "pt") == kid.LANGUAGES
    assert check_language("") == ""
    assert describer(GAMES["nim"], "") is None
    for bad in ("fr", "EN", "en-GB", "x" * 100):
        with pytest.raises(AppError) as caught:
            check_language(bad)
        assert caught.value.reason == "MALFORMED_REQUEST"
        assert len(caught.value.message) < 200
