"""Each game's one home on the client side, and the protocol that finds it.

``throneroom.games.<game>`` (the game's registered name, the field name of its
game.proto envelope entries) holds everything a client needs of a game: data,
texts, notation, terminal board, web data, bots. Its ``client`` module's
``CLIENT`` is a ``GameClient``, found by name with ``game_client`` (both in
:mod:`throneroom.games.protocol`, which the engines never import: it is the
client side), so there is no list of games to extend here::

    >>> from throneroom.games.protocol import game_client
    >>> game_client("king_is_dead").describe_move(move, lang="es")

:mod:`throneroom.games.messages` types each game's five messages and their
envelopes. This package and the games' data, texts and notation import only
the standard library and the generated messages: the rules engines share them.
"""
