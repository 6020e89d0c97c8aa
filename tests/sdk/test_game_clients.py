"""The GameClient protocol: every game of the protos is found by name, and
each game's client answers every hook (or None) with the right kinds."""

from __future__ import annotations

import pytest
from throneroom.games.messages import message_class
from throneroom.games.protocol import (
    BasicGameClient,
    GameClient,
    UnknownGame,
    game_client,
    game_clients,
    game_names,
)
from throneroom.v1 import game_pb2


def test_every_game_of_the_protos_has_a_client() -> None:
    clients = game_clients()
    assert list(clients) == game_names()
    for name, client in clients.items():
        assert isinstance(client, GameClient)
        assert client.name == name
        assert client.languages[0] == "en"
        assert game_client(name) is client  # found once


def test_an_unknown_name_is_refused() -> None:
    with pytest.raises(UnknownGame, match="no game 'chess'"):
        game_client("chess")


def test_a_game_without_a_package_gets_the_basic_client() -> None:
    basic = BasicGameClient("duel")
    assert isinstance(basic, GameClient)
    assert basic.notation() is None and basic.bot(1) is None and basic.bot_trials() == ()
    assert basic.web_data() is None and basic.task(game_pb2.View()) is None


@pytest.mark.parametrize("name", game_names())
def test_each_client_answers_its_hooks(name: str) -> None:
    client = game_client(name)
    notation = client.notation()
    assert notation is not None and notation.game_type == name
    move = message_class(game_pb2.Move, name)()
    text = client.describe_move(move, mover=0, lang="es", viewer=None)
    assert text is None or isinstance(text, str)
    bot = client.bot(1)
    assert bot is None or callable(bot.choose)
    for trial in client.bot_trials():
        bots = trial.bots(0, trial.seats)
        assert len(bots) == trial.seats and trial.groups
    data = client.web_data()
    assert data is None or data.get("game") == name
