"""Play-session cases for bench/fuzz.py: one bidirectional stream per case.

A session's requests are drawn as ApplyMove's are (the acting seat's token or
another, legal, tweaked or random moves, fresh or reused idempotency keys),
then shaped: mostly an opening followed by up to three moves, sometimes a
move first, two openings, or messages of random fields. The responses are read
until every move has its result (or the stream ends), and the case reports how
many moves were applied, which the fuzzer checks against the game's versions:
every result accounts for one move, never a move applied without one.
"""

from __future__ import annotations

import grpc
from hypothesis import strategies as st
from throneroom.v1 import service_pb2

from bench.fuzz_cases import CaseSource, LiveGame, Outcome
from bench.fuzz_inputs import Draw, fill, index, ints

PLAY_WAIT = 0.15
"""Seconds a session without moves waits for its first message."""
RESULT_WAIT = 10.0
"""Seconds a session waits for its moves' results: past it, a result is lost."""
BAD_CODES = {grpc.StatusCode.INTERNAL, grpc.StatusCode.UNKNOWN, grpc.StatusCode.DATA_LOSS}


def play_requests(
    fuzzer: CaseSource, draw: Draw, game: LiveGame
) -> tuple[list[service_pb2.PlayRequest], int]:
    """The requests of one session and how many of them are moves."""
    snap = fuzzer.snapshot(game)
    acting = list(snap.to_act)
    i = index(draw, len(acting))
    seat = acting[i] if i >= 0 else -1
    legal = fuzzer.legal_moves(game, snap.version, seat) if seat >= 0 else []
    opening = service_pb2.PlayRequest(
        open=service_pb2.WatchGameRequest(
            game_id=fuzzer.game_id(draw, game),
            seat_token=fuzzer.token(draw, game, seat),
            from_version=snap.version if draw(st.booleans()) else draw(ints(0, 2**64 - 1)),
            include_current=draw(st.booleans()),
            with_legal_moves=draw(st.booleans()),
            heartbeat_seconds=draw(st.integers(0, 2)),
        )
    )
    moves = []
    for _ in range(draw(st.integers(0, 3))):
        version = snap.version if draw(st.integers(0, 9)) else draw(ints(0, 2**64 - 1))
        moves.append(
            service_pb2.PlayRequest(
                move=service_pb2.PlayMove(
                    expected_version=version,
                    move=fuzzer.move(draw, game, legal),
                    idempotency_key=fuzzer.key(draw, game),
                )
            )
        )
    shape = draw(st.integers(0, 11))
    if shape == 0:
        return moves, len(moves)  # no opening
    if shape == 1:
        return [opening, opening, *moves], len(moves)
    if shape == 2:
        junk = service_pb2.PlayRequest()
        fill(draw, junk)
        return [opening, junk, *moves], len(moves) + 1
    return [opening, *moves], len(moves)


def play_send(stub: object, requests: list[service_pb2.PlayRequest], moves: int) -> Outcome:
    """Run the session and say how it ended and how many moves it applied.

    A server failure is a status or a move result of INTERNAL, UNKNOWN or
    DATA_LOSS, or a move left without result while the session stayed open
    (the deadline passed): the stream may end early (a wrong token, a
    finished game), but an open session answers every move it read."""

    wait = RESULT_WAIT if moves else PLAY_WAIT
    call = stub.Play(iter(requests), timeout=wait)  # type: ignore[attr-defined]
    results: list[service_pb2.PlayMoveResult] = []
    code = grpc.StatusCode.OK
    try:
        for response in call:
            results.extend(response.results)
            if len(results) >= moves:
                break
    except grpc.RpcError as error:
        code = error.code() or grpc.StatusCode.UNKNOWN
    finally:
        call.cancel()
    failed = {c.value[0] for c in BAD_CODES}
    bad = code in BAD_CODES or any(r.error.code in failed for r in results if r.HasField("error"))
    lost = code == grpc.StatusCode.DEADLINE_EXCEEDED and len(results) < moves
    applied = sum(1 for r in results if r.version and not r.replayed and not r.HasField("error"))
    label = f"grpc {code.name}" + (" with a move unanswered" if lost else "")
    accepted = code in (grpc.StatusCode.OK, grpc.StatusCode.DEADLINE_EXCEEDED)
    return Outcome(label, accepted=accepted, bad=bad or lost, applied=applied)
