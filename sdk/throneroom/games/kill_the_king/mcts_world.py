"""Kill the King's world for the MCTS bot: a full state built from one seat's view.

Everything in a Kill the King view is public but the hidden placement
(``PHASE_PLACEMENT``, where the search never runs) and four fields the view
leaves out, which the builder restores from what the view shows:

* ``to_move``: the view's one acting seat;
* ``turn_seat``: the seat of the side whose turn it is (two seats: one each);
* ``resume_phase``: a Cavalry's follow-up interrupts the attack phase
  (``PHASE_FOLLOW_UP`` resumes ``PHASE_ATTACK``);
* ``movement_locked_now`` (a Ranger died before the turn, KK-101): unset. It
  only governs the movement phase of the turn under way, and the search
  (``throneroom.games.kill_the_king.mcts``) starts from the attack phase, after
  it; a later turn's lock is taken from the seats' ``movement_locked``, which
  the view has.

The RNG is not in a view: the engine's ``randomize_hidden`` gives the world
one of its own, and the search samples the dice from the engine's listed
chance outcomes anyway. ``tests/tournament/test_mcts_kill_the_king.py``
checks over seeded games that every world's view and legal moves equal the
true state's.
"""

from __future__ import annotations

from throneroom.v1 import kill_the_king_pb2 as pb

__all__ = ["kill_the_king_world"]

S = pb.KillTheKingState


def kill_the_king_world(view: pb.KillTheKingView, seat: int) -> pb.KillTheKingState:
    """A state whose view for ``seat`` is ``view`` (after the placement)."""
    state = S(
        num_seats=view.num_seats,
        mode=view.mode,
        advanced=view.advanced,
        phase=view.phase,
        seats=view.seats,
        units=view.units,
        round=view.round,
        turn_side=view.turn_side,
        to_move=view.to_act[0] if view.to_act else -1,
        active_unit=view.active_unit,
        gates=view.gates,
        ruins=view.ruins,
        door_destroyed=view.door_destroyed,
        reinforced_halves=view.reinforced_halves,
        defence_penalty=view.defence_penalty,
        reinforcement_value=view.reinforcement_value,
        reinforcement_cavalry=view.reinforcement_cavalry,
        reinforcement_half=view.reinforcement_half,
        initiative_seat=view.initiative_seat,
    )
    if view.HasField("follow_up"):
        state.follow_up.CopyFrom(view.follow_up)
    if view.HasField("outcome"):
        state.outcome.CopyFrom(view.outcome)
    state.turn_seat = next(
        (i for i, s in enumerate(view.seats) if s.side == view.turn_side and view.turn_side),
        state.to_move,
    )
    if view.phase == S.PHASE_FOLLOW_UP:
        state.resume_phase = S.PHASE_ATTACK
    return state
