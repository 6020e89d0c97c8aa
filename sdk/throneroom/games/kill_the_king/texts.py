"""Sentences for Kill the King's moves and events (for clients and logs).

One English sentence per message, from the message alone (no state)::

    >>> from throneroom.v1 import kill_the_king_pb2 as pb
    >>> describe_move(pb.KillTheKingMove(step=pb.KillTheKingMove.Step(unit=4, direction=1)))
    'unit 4 steps north'
    >>> describe_move(pb.KillTheKingMove(buy=pb.KillTheKingMove.Buy(unit=5)))
    'buy a Cavalry'
"""

from __future__ import annotations

from throneroom.games.kill_the_king.data import UNITS, Direction, UnitType
from throneroom.v1 import kill_the_king_pb2 as pb

Move = pb.KillTheKingMove
Event = pb.KillTheKingEvent


def _unit(value: int) -> str:
    try:
        return UNITS[UnitType(value)].name
    except ValueError:
        return f"unit type {value}"


def _dir(value: int) -> str:
    try:
        return Direction(value).name.lower()
    except ValueError:
        return f"direction {value}"


_SIDES: dict[int, str] = {int(pb.SIDE_ATTACKER): "attacker", int(pb.SIDE_DEFENDER): "defender"}


def _side(value: int) -> str:
    return _SIDES.get(value, "nobody")


def _sq(square: pb.Square) -> str:
    return f"({square.row}, {square.col})"


def _phase(value: pb.KillTheKingState.Phase.ValueType) -> str:
    return pb.KillTheKingState.Phase.Name(value).removeprefix("PHASE_").lower().replace("_", " ")


def describe_move(move: Move) -> str:
    """One sentence for a decision."""
    kind = move.WhichOneof("decision")
    if kind == "choose_side":
        return f"play the {_side(move.choose_side.side)}"
    if kind == "buy":
        return f"buy a {_unit(move.buy.unit)}"
    if kind == "buy_suggested_army":
        return "buy the suggested army"
    if kind == "choose_leader":
        return f"lead with the {_unit(move.choose_leader.leader)}"
    if kind == "place":
        p = move.place
        return f"place unit {p.unit} on {_sq(p.square)} facing {_dir(p.facing)}"
    if kind == "reinforce":
        r = move.reinforce
        return f"bring a {_unit(r.unit)} in on {_sq(r.square)} facing {_dir(r.facing)}"
    if kind == "step":
        return f"unit {move.step.unit} steps {_dir(move.step.direction)}"
    if kind == "rotate":
        return f"unit {move.rotate.unit} turns {_dir(move.rotate.facing)}"
    if kind == "climb":
        return f"unit {move.climb.unit} climbs the wall to the {_dir(move.climb.direction)}"
    if kind == "prepare_climb":
        c = move.prepare_climb
        return f"unit {c.unit} gets ready to climb the wall to the {_dir(c.direction)}"
    if kind == "dismount":
        return f"unit {move.dismount.unit} dismounts"
    if kind == "attack":
        a = move.attack
        level = {int(pb.LEVEL_GROUND): " on the ground", int(pb.LEVEL_WALL): " on the wall"}
        return f"unit {a.unit} attacks {_sq(a.target)}{level.get(a.level, '')}"
    if kind == "follow_up":
        return "advance and charge again" if move.follow_up.advance else "stay"
    if kind == "disband":
        return f"remove unit {move.disband.unit} (the Treasurer is dead)"
    if kind == "end_phase":
        return "end the phase"
    return "an empty move"


def describe_event(event: Event) -> str:
    """One sentence for an event."""
    kind = event.WhichOneof("kind")
    if kind is None:
        return "nothing happens"
    body = getattr(event, kind)
    if kind == "setup":
        return f"a game of Kill the King for {body.num_seats} seats is set up"
    if kind == "die_rolled":
        purpose = pb.DiePurpose.Name(body.purpose).removeprefix("DIE_PURPOSE_").lower()
        return f"seat {body.seat} rolls {body.value} ({purpose.replace('_', ' ')})"
    if kind == "side_chosen":
        return f"seat {body.seat} plays the {_side(body.side)}"
    if kind == "unit_bought":
        return f"seat {body.seat} gets a {_unit(body.unit)} ({body.coins_left} coins left)"
    if kind == "leader_chosen":
        return f"seat {body.seat} is led by the {_unit(body.leader)}"
    if kind == "unit_placed":
        if body.HasField("unit"):
            u = body.unit
            return f"seat {body.seat} places a {_unit(u.type)} on {_sq(u.square)}"
        return f"seat {body.seat} places a counter"
    if kind == "placement_revealed":
        return f"the armies are revealed ({len(body.units)} counters)"
    if kind == "turn_started":
        return f"round {body.round}: the {_side(body.side)}'s turn, seat {body.seat} to play"
    if kind == "phase_started":
        return f"the {_phase(body.phase)} phase starts"
    if kind == "stepped":
        return f"unit {body.unit} moves to {_sq(body.to_square)}"
    if kind == "rotated":
        return f"unit {body.unit} turns {_dir(body.facing)}"
    if kind == "manned":
        return f"unit {body.crew} mans (or boards) unit {body.engine}"
    if kind == "unmanned":
        return f"unit {body.crew} gets off unit {body.engine}"
    if kind in ("climbed", "climb_prepared"):
        verb = "climbs onto" if kind == "climbed" else "gets ready to climb"
        return f"unit {body.unit} {verb} the wall at {_sq(body.wall)}"
    if kind == "flipped":
        return f"unit {body.unit} fights on foot as Swordsmen"
    if kind == "attacked":
        return f"unit {body.unit} attacks {_sq(body.target)} at {body.value}"
    if kind == "unit_saved":
        return f"unit {body.unit} saves"
    if kind == "unit_killed":
        cause = pb.Cause.Name(body.cause).removeprefix("CAUSE_").lower().replace("_", " ")
        return f"unit {body.unit} is killed ({cause})"
    if kind == "wall_destroyed":
        return f"the wall at {_sq(body.square)} falls"
    if kind == "gate_destroyed":
        return f"the gate at {_sq(body.square)} is destroyed"
    if kind == "gate_control_changed":
        return f"the {_side(body.controlled_by)} controls the gate"
    if kind == "door_destroyed":
        return "the King's Door is destroyed"
    if kind == "followed_up":
        return f"unit {body.unit} {'charges on' if body.advanced else 'holds'}"
    if kind == "panicked":
        return f"unit {body.unit} panics and runs {_dir(body.direction)}"
    if kind == "pigs_exploded":
        return f"the Flaming Pigs {body.unit} explode"
    if kind == "movement_locked":
        return f"seat {body.seat} cannot move next turn: its Ranger is dead"
    if kind == "defence_penalty":
        return f"the {_side(body.side)} defends at -1 this turn: its Knight is dead"
    if kind == "reinforcements_due":
        return f"seat {body.seat} gets {body.cavalry} Cavalry and {body.value} coins of units"
    if kind == "reinforced":
        return f"a {_unit(body.unit.type)} arrives on {_sq(body.unit.square)}"
    if kind == "game_ended":
        return str(body.summary) or "the game is over"
    return kind.replace("_", " ")
