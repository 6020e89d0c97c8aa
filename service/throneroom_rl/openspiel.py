"""Every game registered with OpenSpiel (docs/rl.md, "OpenSpiel").

Importing this module registers ``throneroom_<game>`` for every game with an
action codec and a view tensor (``pyspiel.register_game``)::

    import pyspiel
    import throneroom_rl.openspiel  # noqa: F401 - registers the games
    game = pyspiel.load_game("throneroom_king_is_dead(players=3)")

Parameters: ``players`` (the seat count; default the game's fewest) and each
field of the game's options message by its name (``mordred``, ``mode`` as its
number, ``advanced``).

The facts each game declares (``GameType``):

* dynamics SEQUENTIAL: one decider at a time. A simultaneous decision (King's
  Life's, Kill the King's) is serialized: every asked seat decides in seat
  order, each answer hidden from the others until all have answered (the
  engine's decision window), and no answer changes what the others may answer
  (``kit.decisions``); so the serialized game has the same information sets.
* chance EXPLICIT_STOCHASTIC: every deal, draw, shuffle and die of the engine
  is a chance node, with the outcomes the kit lists (``kit.chance``: a shuffle
  is one node per card placed, a die one node of six); ``max_chance_outcomes``
  is the engine's largest step. The engine is replayed with the chosen
  outcomes (``kit.chance.explore``), never with its own RNG.
* IMPERFECT_INFORMATION, GENERAL_SUM utilities at the end (TERMINAL rewards):
  1 for each seat whose team is among the winners, -1 for the others, 0 on a
  draw.
* ``num_distinct_actions`` the action codec's N, ``max_game_length`` the
  engine's ``max_decisions``.

Observers: the observation tensor is the seat's view tensor and the
observation string the view's bytes in base64 (``view_of`` reads it back).
The information-state string is perfect recall: a digest chained over the
seat's view at each of its decisions and the action it took (SHA-256), then
its view now. The information-state tensor is the view tensor (a view keeps
the public record the rules keep, not every earlier view).
"""

from __future__ import annotations

import base64
import hashlib
from collections.abc import Mapping
from typing import Any

import numpy as np
import pyspiel
from google.protobuf.descriptor import FieldDescriptor
from google.protobuf.message import Message
from throneroom.notation import for_game
from throneroom_server.games.kit.chance import ChanceStep, Picker, explore

from throneroom_rl.table import Table, rl_game_names, table

__all__ = ["game_name", "registered"]

SETUP_SEED = 0
"""The engine's seed at setup: it is never drawn from (every chance step is a
chance node), but the state carries an RNG."""

registered: dict[str, str] = {}
"""OpenSpiel's short name -> the registered game name, for every game here."""


def game_name(name: str) -> str:
    """The OpenSpiel short name of a game (``throneroom_`` and its name)."""
    return f"throneroom_{name}"


def _parameters(tbl: Table) -> dict[str, Any]:
    """``players`` and each scalar option with its default (enums as numbers)."""
    spec: dict[str, Any] = {"players": tbl.game.info.min_seats}
    options = tbl.game.default_options()
    for field in options.DESCRIPTOR.fields:
        if field.is_repeated or field.type == FieldDescriptor.TYPE_MESSAGE:
            continue
        value = getattr(options, field.name)
        spec[field.name] = value if isinstance(value, bool | int | float | str) else int(value)
    return spec


def _options_of(params: Mapping[str, Any], spec: Mapping[str, Any]) -> dict[str, Any]:
    return {
        name: params[name]
        for name in spec
        if name != "players" and name in params and params[name] != spec[name]
    }


class ThroneroomObserver:
    """A seat's view (see the module doc); ``perfect_recall`` for the
    information state."""

    def __init__(self, tbl: Table, perfect_recall: bool) -> None:
        self.table = tbl
        self.perfect_recall = perfect_recall
        self.tensor = np.zeros(tbl.tensor.size, np.float32)
        self.dict = {"view": self.tensor}

    def set_from(self, state: ThroneroomState, player: int) -> None:
        self.tensor.fill(0)
        if state.engine_state is not None:
            view = self.table.view(state.engine_state, player)
            self.table.tensor.encode_into(view, self.tensor)  # type: ignore[arg-type]  # a numpy array is a MutableSequence of floats

    def string_from(self, state: ThroneroomState, player: int) -> str:
        now = _view_text(self.table, state.engine_state, player)
        if not self.perfect_recall:
            return now
        return f"{state.recall[player]} {now}"


def _view_text(tbl: Table, engine_state: Message | None, player: int | None) -> str:
    """The view's bytes (deterministic serialization) in base64: compact and
    exact (``view_of`` parses it back; protobuf's text format costs tens of
    times more on Kill the King's board)."""
    if engine_state is None:
        return "(dealing)"
    return _bytes_text(tbl.view(engine_state, player))


def _bytes_text(message: Message) -> str:
    return base64.b64encode(message.SerializeToString(deterministic=True)).decode()


def view_of(tbl: Table, text: str) -> Message:
    """The view message of an observation string (the readable form:
    ``text_format.MessageToString(view_of(...))``)."""
    view: Message = type(tbl.view(tbl.setup(SETUP_SEED), 0))()
    view.ParseFromString(base64.b64decode(text))
    return view


class ThroneroomState(pyspiel.State):  # type: ignore[misc]  # pyspiel ships no types
    """One game in progress: the engine's state, or the call (setup or a
    move) waiting for the outcome of its next chance step."""

    def __init__(self, game: ThroneroomGame) -> None:
        super().__init__(game)
        self.table = game.table
        self.engine_state: Message | None = None
        self.recall: list[str] = [""] * game.table.seats
        """Per seat, a digest of its views at its decisions and its actions (a
        hash chain: equal exactly when those histories are, up to SHA-256)."""
        self._pending: tuple[Message, int, Message] | None = None
        """(state, seat, move) of the move waiting for chance; None: the setup."""
        self._script: list[int] = []
        self._step: ChanceStep | None = None
        self._legal: dict[int, Message] = {}
        self._actor = -1
        self._advance()

    def __deepcopy__(self, memo: dict[int, Any]) -> ThroneroomState:
        """A copy sharing the immutable parts (engine states are never changed
        in place: every move makes a new one)."""
        copy: ThroneroomState = self.__class__.__new__(self.__class__)
        pyspiel.State.__init__(copy, self.get_game())
        copy.__dict__.update(self.__dict__)
        copy.recall = list(self.recall)
        copy._script = list(self._script)
        return copy

    # -- the engine -----------------------------------------------------------------------

    def _call(self, chance: Picker) -> tuple[Message, list[Any]]:
        """The pending call (the setup, or a move) with ``chance`` picking."""
        if self._pending is None:
            return self.table.setup(SETUP_SEED, chance=chance), []
        state, seat, move = self._pending
        result: tuple[Message, list[Any]] = self.table.engine.apply(
            state, seat, move, chance=chance
        )
        return result

    def _advance(self) -> None:
        """Replay the pending call with the chosen outcomes: its result, or the
        next chance node."""
        found = explore(self._call, self._script)
        self._step = found.step
        if found.result is not None:
            self.engine_state, _ = found.result
            self._script = []
            acting = self.table.to_act(self.engine_state)
            self._actor = acting[0] if acting else -1
            self._legal = self.table.legal(self.engine_state, self._actor) if acting else {}

    def current_player(self) -> int:
        if self._step is not None:
            return int(pyspiel.PlayerId.CHANCE)
        if self._actor < 0:
            return int(pyspiel.PlayerId.TERMINAL)
        return self._actor

    def _legal_actions(self, player: int) -> list[int]:
        if player != self._actor or self._step is not None:
            return []
        return sorted(self._legal)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        step = self._step
        assert step is not None, "not a chance node"
        return [(outcome.index, float(outcome.probability)) for outcome in step.outcomes]

    def _apply_action(self, action: int) -> None:
        if self._step is not None:
            self._script.append(self._step.check(action))
            self._advance()
            return
        state, seat, move = self.engine_state, self._actor, self._legal[action]
        assert state is not None
        seen = f"{self.recall[seat]}|{_view_text(self.table, state, seat)}|{action}"
        self.recall[seat] = hashlib.sha256(seen.encode()).hexdigest()
        self._pending = (state, seat, move)
        self._script = []
        self._advance()

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE and self._step is not None:
            labels = self._step.labels
            # Labels repeat (three identical followers): the index tells outcomes apart.
            return f"{self._step.name}={action}" + (f" ({labels[action]})" if labels else "")
        return self.move_text(action)

    def move_text(self, action: int) -> str:
        """The action's move in the game's notation."""
        return str(for_game(self.table.name).format_move(self.table.codec.decode(action)))

    def is_terminal(self) -> bool:
        return self._step is None and self._actor < 0

    def returns(self) -> list[float]:
        if not self.is_terminal() or self.engine_state is None:
            return [0.0] * self.table.seats
        return self.table.rewards(self.engine_state)

    def __str__(self) -> str:
        """The whole state (as OpenSpiel's states show it): the engine's state
        in base64, and the chance node's script when one is pending."""
        if self.engine_state is None:
            return f"dealing: {self._script}"
        text = _bytes_text(self.engine_state)
        if self._step is not None:
            return f"{text} chance: {self._step.name} after {self._script}"
        return text


class ThroneroomGame(pyspiel.Game):  # type: ignore[misc]  # pyspiel ships no types
    """One registered game with its parameters (see the module doc)."""

    name = ""
    game_type: Any = None
    spec: dict[str, Any] = {}  # noqa: RUF012 - set per subclass

    def __init__(self, params: Mapping[str, Any] | None = None) -> None:
        params = dict(params or {})
        seats = int(params.get("players", self.spec["players"]))
        self.table = table(self.name, seats, _options_of(params, self.spec))
        info = pyspiel.GameInfo(
            num_distinct_actions=self.table.num_actions,
            max_chance_outcomes=max(1, self.table.engine.max_chance_outcomes),
            num_players=seats,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=None,
            max_game_length=self.table.max_decisions,
        )
        super().__init__(self.game_type, info, params)

    def new_initial_state(self) -> ThroneroomState:
        return ThroneroomState(self)

    def make_py_observer(
        self, iig_obs_type: Any = None, params: Mapping[str, Any] | None = None
    ) -> ThroneroomObserver:
        if params:
            raise ValueError(f"observer parameters are not supported: {params}")
        perfect_recall = bool(iig_obs_type.perfect_recall) if iig_obs_type is not None else False
        return ThroneroomObserver(self.table, perfect_recall)


def _game_type(name: str, tbl: Table, spec: dict[str, Any]) -> Any:
    info = tbl.game.info
    return pyspiel.GameType(
        short_name=game_name(name),
        long_name=f"Throneroom {info.title}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=info.max_seats,
        min_num_players=info.min_seats,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        provides_factored_observation_string=False,
        parameter_specification=spec,
        default_loadable=True,
    )


def _register() -> None:
    for name in rl_game_names():
        short = game_name(name)
        if short in registered:
            continue
        tbl = table(name)
        spec = _parameters(tbl)
        game_type = _game_type(name, tbl, spec)
        class_name = "Throneroom" + "".join(part.capitalize() for part in name.split("_"))
        cls = type(
            class_name,
            (ThroneroomGame,),
            {"name": name, "game_type": game_type, "spec": spec, "__module__": __name__},
        )
        globals()[class_name] = cls  # picklable by its name, as pyspiel copies games
        pyspiel.register_game(game_type, cls)
        registered[short] = name


_register()
