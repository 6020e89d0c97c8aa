"""Fuzz the service through both faces: every RPC's request fields and every game's moves.

Starts a real server in this process (gRPC and REST, on the memory store or,
with ``--redis``, on a throwaway redis-server), keeps a pool of live games of
every registered game type, and lets hypothesis draw cases: well-formed and
malformed requests of every RPC (messages generated from the proto
descriptors), legal moves, tweaked legal moves, random moves of every game,
requests padded with unknown fields, undecodable gRPC payloads, play sessions
(bench/fuzz_play.py), and for REST random JSON, nesting, content types,
headers, paths and query strings.

Every case is checked:

* no gRPC INTERNAL or UNKNOWN, no HTTP 5xx, no unexpected exception logged;
* a rejected call changes nothing: the store records no write and the target
  game's version, state and seats are byte-identical before and after;
* an accepted move adds exactly one version (or is a replay, adding none);
* a play session adds as many versions as it applied moves, and answers every
  move it read while it stays open.

Prints the number of cases, the status histogram and the violations found,
and exits non-zero if there is any. ``make fuzz`` runs 100,000 cases.

    python bench/fuzz.py --cases 100000 [--seed N] [--redis]
"""

from __future__ import annotations

import argparse
import http.client
import sys
import time
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Any

import grpc
from google.protobuf.message import Message
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import seed as hypothesis_seed
from hypothesis import strategies as st

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "sdk"), str(ROOT / "service")]

from throneroom.v1 import game_pb2, service_pb2, service_pb2_grpc  # noqa: E402

from bench.fuzz_cases import LiveGame, Outcome, Tally  # noqa: E402
from bench.fuzz_inputs import (  # noqa: E402
    TRICKY_TEXT,
    Draw,
    fill,
    index,
    ints,
    mangle,
    padded,
    rest_request,
    tweak,
)
from bench.fuzz_play import play_requests, play_send  # noqa: E402
from bench.fuzz_server import ServerThread, watched_logs  # noqa: E402

SERVICE = "/throneroom.v1.Throneroom/"
BAD_GRPC = {"INTERNAL", "UNKNOWN", "DATA_LOSS", "UNIMPLEMENTED"}
POOL_PER_TYPE = 2
WATCH_WAIT = 0.15  # seconds a watch case waits for its first message


class Fuzzer:
    def __init__(self, server: ServerThread) -> None:
        self.server = server
        self.channel = grpc.insecure_channel(
            f"127.0.0.1:{server.running.port}",
            options=[("grpc.max_send_message_length", 16 * 1024 * 1024)],
        )
        self.stub = service_pb2_grpc.ThroneroomStub(self.channel)
        self.http_port = server.running.http_port
        self.http = http.client.HTTPConnection("127.0.0.1", self.http_port, timeout=10)
        types = self.stub.ListGameTypes(service_pb2.ListGameTypesRequest()).game_types
        self.types = {t.name: t for t in types}
        self.pool: dict[str, list[LiveGame]] = {name: [] for name in self.types}
        self.finished: dict[str, list[LiveGame]] = {name: [] for name in self.types}
        self.open_games: dict[str, list[LiveGame]] = {name: [] for name in self.types}
        self.games_made = 0
        self.tally = Tally()

    def close(self) -> None:
        self.channel.close()
        self.http.close()

    # -- games --------------------------------------------------------------------------

    def new_game(self, name: str) -> LiveGame:
        kind = self.types[name]
        created = self.stub.CreateGame(
            service_pb2.CreateGameRequest(
                options=kind.default_options, num_seats=kind.min_seats, seed=self.games_made
            )
        )
        tokens = [
            self.stub.JoinGame(
                service_pb2.JoinGameRequest(game_id=created.game_id, display_name=f"p{n}")
            ).seat_token
            for n in range(kind.min_seats)
        ]
        self.games_made += 1
        return LiveGame(created.game_id, name, tokens)

    def game_type(self, draw: Draw) -> str:
        name: str = draw(st.sampled_from(sorted(self.types)))
        return name

    def any_game(self, draw: Draw, name: str) -> LiveGame:
        """A live game of type ``name``, or now and then a finished one."""
        finished = draw(st.integers(0, 9)) == 0
        i = index(draw, len(self.finished[name]))
        live = index(draw, POOL_PER_TYPE)
        if finished and i >= 0:
            return self.finished[name][i]
        games = self.pool[name]
        while len(games) < POOL_PER_TYPE:
            games.append(self.new_game(name))
        return games[live]

    def open_game(self, draw: Draw, name: str) -> LiveGame:
        """A game with free seats (created without joining)."""
        kind = self.types[name]
        seats = draw(st.integers(kind.min_seats, kind.max_seats))
        if len(self.open_games[name]) < 2:
            request = service_pb2.CreateGameRequest(options=kind.default_options, num_seats=seats)
            try:
                created = self.stub.CreateGame(request)
            except grpc.RpcError as error:
                # The default options may take fewer seats than the type
                # (Kill the King: 3-4 only in its Giga modes).
                if error.code() != grpc.StatusCode.INVALID_ARGUMENT:
                    raise
                request.num_seats = kind.min_seats
                created = self.stub.CreateGame(request)
            self.open_games[name].append(LiveGame(created.game_id, kind.name, []))
        return self.open_games[name][index(draw, len(self.open_games[name]))]

    def snapshot(self, game: LiveGame) -> service_pb2.GameSnapshot:
        request = service_pb2.GetGameRequest(game_id=game.game_id)
        return self.stub.GetGame(request).snapshot

    def legal_moves(self, game: LiveGame, version: int, seat: int) -> list[game_pb2.Move]:
        key = (version, seat)
        if key not in game.legal:
            request = service_pb2.ListLegalMovesRequest(
                game_id=game.game_id, seat_token=game.tokens[seat]
            )
            game.legal = {key: list(self.stub.ListLegalMoves(request).moves)}
        return game.legal[key]

    def retire_if_finished(self, game: LiveGame) -> None:
        if game in self.pool[game.game_type] and self.snapshot(game).finished:
            self.pool[game.game_type].remove(game)
            self.finished[game.game_type] = [*self.finished[game.game_type][-3:], game]

    # -- request fields ----------------------------------------------------------------

    def game_id(self, draw: Draw, game: LiveGame) -> str:
        pick = draw(st.integers(0, 9))
        if pick < 8:
            return game.game_id
        text: str = draw(st.one_of(TRICKY_TEXT, st.just("0" * 16), st.just("a" * 65)))
        return text

    def token(self, draw: Draw, game: LiveGame, seat: int) -> str:
        """Mostly ``seat``'s token (-1: none to act), else another seat's, none,
        or a malformed one."""
        pick = draw(st.integers(0, 19))
        other = index(draw, len(game.tokens))
        if pick < 14 and seat >= 0:
            return game.tokens[seat]
        if pick < 16:
            return game.tokens[other]
        if pick == 16:
            return ""
        good = game.tokens[0]
        seat_text, _, secret = good.partition(".")
        forms = [
            f"0{seat_text}.{secret}",
            f"\u00b2.{secret}",
            f"{seat_text}.{secret[:-1]}",
            f"{seat_text}.{secret}=",
            f"{seat_text}.{secret[:-1]}\u00e9",
            f"{seat_text}.{'A' * len(secret)}",
            f"9.{secret}",
            good.replace(".", ""),
        ]
        text: str = draw(st.one_of(st.sampled_from(forms), TRICKY_TEXT))
        return text

    def key(self, draw: Draw, game: LiveGame) -> str:
        pick = draw(st.integers(0, 19))
        used = index(draw, len(game.keys))
        if pick == 0:
            return ""
        if pick == 1:
            return "k" * draw(st.integers(120, 140))
        if pick == 2 and used >= 0:
            return game.keys[used]
        return uuid.uuid4().hex

    def move(self, draw: Draw, game: LiveGame, legal: list[game_pb2.Move]) -> game_pb2.Move:
        pick = draw(st.integers(0, 19))
        i = index(draw, len(legal))
        move = game_pb2.Move()
        name = game.game_type
        # Which draws follow depends on ``pick`` alone, never on the server's state.
        if pick < 11 and i >= 0:
            move.CopyFrom(legal[i])
        if pick < 8:
            return move
        if pick < 10:
            tweak(draw, move, name)
            return move
        if pick == 10:
            getattr(move, name).CopyFrom(padded(draw, getattr(move, name)))
            return move
        if pick == 19:
            return move
        if pick >= 17:
            name = self.game_type(draw)
        fill(draw, getattr(move, name))
        getattr(move, name).SetInParent()
        return move

    def request(self, draw: Draw, method: str) -> tuple[Message, LiveGame | None]:
        """A request message for ``method`` (and the game it targets, if any)."""
        name = self.game_type(draw)
        if method == "ApplyMove":
            game = self.any_game(draw, name)
            snap = self.snapshot(game)
            acting = list(snap.to_act)
            i = index(draw, len(acting))
            seat = acting[i] if i >= 0 else -1
            legal = self.legal_moves(game, snap.version, seat) if seat >= 0 else []
            version = snap.version
            if draw(st.integers(0, 9)) == 0:
                version = draw(ints(0, 2**64 - 1))
            request = service_pb2.ApplyMoveRequest(
                game_id=self.game_id(draw, game),
                seat_token=self.token(draw, game, seat),
                expected_version=version,
                move=self.move(draw, game, legal),
                idempotency_key=self.key(draw, game),
            )
            return request, game
        message_class = getattr(service_pb2, f"{method}Request")
        request = message_class()
        game: LiveGame | None = None
        if method == "CreateGame" and draw(st.booleans()):
            kind = self.types[name]
            request.options.CopyFrom(kind.default_options)
            request.num_seats = draw(st.integers(kind.min_seats - 1, kind.max_seats + 1))
            if draw(st.booleans()):
                request.seed = draw(ints(0, 2**64 - 1))
            if draw(st.booleans()):
                request.options.CopyFrom(padded(draw, request.options))
            return request, None
        fill(draw, request)
        if method == "JoinGame" and draw(st.booleans()):
            game = self.open_game(draw, name)
            request.game_id = game.game_id
            if draw(st.booleans()):
                request.ClearField("seat")
                request.display_name = "p"
        elif "game_id" in request.DESCRIPTOR.fields_by_name:
            game = self.any_game(draw, name)
            request.game_id = self.game_id(draw, game)
            if "seat_token" in request.DESCRIPTOR.fields_by_name:
                seat = index(draw, len(game.tokens))
                request.seat_token = self.token(draw, game, seat)
        if method == "WatchGame":
            request.heartbeat_seconds = draw(st.integers(0, 2))
            if draw(st.integers(0, 4)):
                request.from_version = 0
        return request, game

    # -- one case -------------------------------------------------------------------------

    def case(self, draw: Draw) -> None:
        method = draw(
            st.sampled_from(
                ["ApplyMove"] * 10
                + ["CreateGame", "JoinGame", "GetGame", "ListLegalMoves", "GetHistory"] * 2
                + ["Play"] * 3
                + ["WatchGame", "Ping", "ListGameTypes", "ListGames", "ExportGame", "raw"]
            )
        )
        rest = draw(st.integers(0, 2)) == 0 and method != "Play"
        if method == "Play":
            game = self.any_game(draw, self.game_type(draw))
            requests, moves = play_requests(self, draw, game)
            outcome = self.checked(
                "grpc Play", game.game_id, lambda: play_send(self.stub, requests, moves)
            )
            if outcome.applied:
                self.retire_if_finished(game)
            return
        if method == "raw":
            method = draw(st.sampled_from(sorted(m.name for m in SERVICE_METHODS)))
            request, game = self.request(draw, method)
            data = mangle(draw, request.SerializeToString())
            kind = f"grpc raw {method}"
            target = game.game_id if game else None
            outcome = self.checked(kind, target, lambda: self.grpc_raw(method, data))
        else:
            request, game = self.request(draw, method)
            target = game.game_id if game else None
            if rest:
                http_call = rest_request(draw, method, request)
                outcome = self.checked(f"rest {method}", target, lambda: self.rest_send(*http_call))
            else:
                outcome = self.checked(
                    f"grpc {method}", target, lambda: self.grpc_send(method, request)
                )
        if game is not None and method == "ApplyMove":
            verdict = "accepted" if outcome.accepted else "rejected"
            self.tally.moves[f"{game.game_type} {verdict}"] += 1
        if game is None or not outcome.accepted:
            return
        if method == "ApplyMove":
            if isinstance(request, service_pb2.ApplyMoveRequest):
                game.keys = [*game.keys[-20:], request.idempotency_key]
            self.retire_if_finished(game)
        opened = self.open_games[game.game_type]
        if game in opened and all(s.taken for s in self.snapshot(game).seats):
            opened.remove(game)

    def checked(self, kind: str, target: str | None, send: Callable[[], Outcome]) -> Outcome:
        before_writes = self.server.store.writes
        before = self.server.fingerprint(target) if target else None
        outcome = send()
        tally = self.tally
        tally.cases += 1
        tally.histogram[outcome.label] += 1
        tally.by_kind[kind] += 1
        if outcome.bad:
            tally.violation(f"{kind}: {outcome.label}")
        after = self.server.fingerprint(target) if target else None
        if outcome.applied is not None:  # a play session: versions = moves applied
            grew = (after[0] - before[0]) if before and after else 0
            if grew != outcome.applied:
                tally.violation(f"{kind}: {outcome.applied} moves applied, {grew} versions made")
            if outcome.applied == 0:
                tally.rejected_checked += 1
                if self.server.store.writes != before_writes or before != after:
                    tally.violation(f"{kind}: nothing applied ({outcome.label}) but a write")
            return outcome
        if not outcome.accepted:
            tally.rejected_checked += 1
            if self.server.store.writes != before_writes:
                tally.violation(f"{kind}: rejected ({outcome.label}) but the store was written")
            if before != after:
                tally.violation(f"{kind}: rejected ({outcome.label}) but the game changed")
        elif kind.endswith("ApplyMove") and before is not None and after is not None:
            grew = after[0] - before[0]
            if grew != (0 if outcome.replayed else 1):
                tally.violation(f"{kind}: accepted but the version grew by {grew}")
        return outcome

    # -- gRPC ---------------------------------------------------------------------------

    def grpc_send(self, method: str, request: Message) -> Outcome:
        try:
            if method == "WatchGame":
                stream = self.stub.WatchGame(request, timeout=WATCH_WAIT)
                try:
                    next(stream, None)  # None: the stream ended at once (a finished game)
                finally:
                    stream.cancel()
                return Outcome("grpc OK", accepted=True, bad=False)
            response = getattr(self.stub, method)(request, timeout=10)
        except grpc.RpcError as error:
            return self._grpc_error(error)
        replayed = bool(getattr(response, "replayed", False))
        return Outcome("grpc OK", accepted=True, bad=False, replayed=replayed)

    def grpc_raw(self, method: str, data: bytes) -> Outcome:
        streaming = method in ("WatchGame", "Play")
        if method == "Play":  # one undecodable-or-not request on the bidirectional stream
            bidi = self.channel.stream_stream(
                SERVICE + method, request_serializer=None, response_deserializer=None
            )
            call: Any = lambda data, timeout: bidi(iter([data]), timeout=timeout)  # noqa: E731
        else:
            make = self.channel.unary_stream if streaming else self.channel.unary_unary
            call = make(SERVICE + method, request_serializer=None, response_deserializer=None)
        try:
            if streaming:
                stream = call(data, timeout=WATCH_WAIT)
                try:
                    next(stream, None)  # None: the stream ended at once (a finished game)
                finally:
                    stream.cancel()
            else:
                response = call(data, timeout=10)
                if method == "ApplyMove":
                    decoded = service_pb2.ApplyMoveResponse.FromString(response)
                    return Outcome("grpc OK", True, False, replayed=decoded.replayed)
        except grpc.RpcError as error:
            return self._grpc_error(error)
        return Outcome("grpc OK", accepted=True, bad=False)

    @staticmethod
    def _grpc_error(error: grpc.RpcError) -> Outcome:
        code = error.code()
        name = code.name if code is not None else "NONE"
        # A watch that reached its deadline or was cancelled by us was accepted.
        accepted = name in ("DEADLINE_EXCEEDED", "CANCELLED")
        return Outcome(f"grpc {name}", accepted=accepted, bad=name in BAD_GRPC)

    # -- REST ---------------------------------------------------------------------------

    def rest_send(
        self, verb: str, path: str, body: bytes | None, headers: dict[str, bytes]
    ) -> Outcome:
        if "/watch" in path:  # a stream: its own connection, read up to the first event
            conn = http.client.HTTPConnection("127.0.0.1", self.http_port, timeout=WATCH_WAIT)
            try:
                status, _ = exchange(conn, verb, path, body, headers, stream=True)
            finally:
                conn.close()
            return Outcome(f"http {status}", accepted=status < 400, bad=status >= 500)
        try:
            status, text = exchange(self.http, verb, path, body, headers)
        except (ConnectionError, http.client.HTTPException):
            # The server may close a connection after an error; send again on a new one.
            self.http.close()
            status, text = exchange(self.http, verb, path, body, headers)
        replayed = status == 200 and b'"replayed":true' in text
        return Outcome(f"http {status}", status < 400, status >= 500, replayed=replayed)


def exchange(
    conn: http.client.HTTPConnection,
    verb: str,
    path: str,
    body: bytes | None,
    headers: dict[str, bytes],
    *,
    stream: bool = False,
) -> tuple[int, bytes]:
    """Send one request; the status and the body (of a stream: its first line)."""
    conn.putrequest(verb, path, skip_accept_encoding=True)
    for name, value in headers.items():
        conn.putheader(name, value)
    if body is not None:
        conn.putheader("Content-Length", str(len(body)))
    conn.endheaders(body)
    response = conn.getresponse()
    if stream and response.status == 200:
        try:
            return response.status, response.readline()
        except TimeoutError:  # no event within the wait: the stream was accepted
            return response.status, b""
    return response.status, response.read()


SERVICE_METHODS = list(service_pb2.DESCRIPTOR.services_by_name["Throneroom"].methods)


# -- running ---------------------------------------------------------------------------------


def run(cases: int, *, seed: int | None = None, redis_url: str | None = None) -> Tally:
    """Run ``cases`` fuzz cases against a fresh in-process server; return the tally."""
    with watched_logs() as logs:
        server = ServerThread(redis_url)
        fuzzer = Fuzzer(server)
        try:
            run_cases = settings(
                max_examples=cases,
                database=None,
                deadline=None,
                phases=[Phase.generate],
                suppress_health_check=list(HealthCheck),
            )(given(st.data())(lambda data: fuzzer.case(data.draw)))
            if seed is not None:
                run_cases = hypothesis_seed(seed)(run_cases)
            run_cases()
        finally:
            fuzzer.close()
            server.stop()
    fuzzer.tally.unparsable_http = logs.unparsable_http
    for event in logs.errors:
        fuzzer.tally.violation(f"logged error: {event.get('event')} {event.get('exc_info', '')}")
    return fuzzer.tally


def report(tally: Tally, seconds: float) -> str:
    lines = [
        f"cases: {tally.cases} in {seconds:.0f} s ({tally.cases / max(seconds, 1e-9):.0f}/s)",
        f"rejected calls checked for no change: {tally.rejected_checked}",
        f"HTTP requests aiohttp could not parse (400 before any handler): {tally.unparsable_http}",
        "status histogram:",
        *(f"  {label:<32} {n:>8}" for label, n in sorted(tally.histogram.items())),
        "cases by call:",
        *(f"  {kind:<32} {n:>8}" for kind, n in sorted(tally.by_kind.items())),
        "ApplyMove cases by game:",
        *(f"  {kind:<32} {n:>8}" for kind, n in sorted(tally.moves.items())),
        f"violations: {len(tally.violations)}",
        *(f"  {v}" for v in tally.violations[:30]),
    ]
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cases", type=int, default=100_000)
    parser.add_argument("--seed", type=int, default=None)
    parser.add_argument("--redis", action="store_true", help="use a throwaway redis-server")
    args = parser.parse_args()
    start = time.perf_counter()
    if args.redis:
        from throneroom_dev.processes import throwaway_redis  # noqa: PLC0415

        with throwaway_redis() as url:
            tally = run(args.cases, seed=args.seed, redis_url=url)
    else:
        tally = run(args.cases, seed=args.seed)
    print(report(tally, time.perf_counter() - start))
    return 1 if tally.violations else 0


if __name__ == "__main__":
    sys.exit(main())
