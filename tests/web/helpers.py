"""Helpers for the browser tests: games made and advanced through the REST API
(seeded random moves), and the page opened as a seat whose token the browser
keeps, as it would after joining from the page."""

from __future__ import annotations

import json
import random
import re
from dataclasses import dataclass, field
from typing import Any

from google.protobuf import json_format
from throneroom.games.protocol import game_client
from throneroom.terminal.texts import seat_names
from throneroom.v1 import service_pb2

from tests.web.conftest import Server, Tab

ENVELOPES = {
    "king_is_dead": "kingIsDead",
    "kings_life": "kingsLife",
    "kill_the_king": "killTheKing",
    "nim": "nim",
}


@dataclass
class Game:
    server: Server
    game_id: str
    game_type: str
    tokens: list[str] = field(default_factory=list)

    def snapshot(self, seat: int | None = None) -> dict[str, Any]:
        token = None if seat is None else self.tokens[seat]
        result: dict[str, Any] = self.server.call("GET", f"/v1/games/{self.game_id}", token=token)[
            "snapshot"
        ]
        return result

    def outcome_text(self, seat: int | None, lang: str = "en") -> str:
        """The finished game's outcome in words as ``seat`` reads it (the
        page's outcome line: the game's own words, ``describe_outcome``)."""
        snapshot = json_format.ParseDict(
            self.snapshot(seat), service_pb2.GameSnapshot(), ignore_unknown_fields=True
        )
        return game_client(self.game_type).describe_outcome(
            snapshot.outcome, lang=lang, viewer=seat, names=seat_names(snapshot)
        )

    def view(self, seat: int | None = None) -> dict[str, Any]:
        result: dict[str, Any] = self.snapshot(seat)["view"][ENVELOPES[self.game_type]]
        return result

    def play_random(self, moves: int, seed: int = 1, stop: Any = None) -> int:
        """Up to ``moves`` random legal moves by whoever must act; the version reached."""
        rng = random.Random(seed)
        for n in range(moves):
            snapshot = self.snapshot()
            if snapshot["finished"] or (stop is not None and stop(self)):
                return int(snapshot["version"])
            seat = snapshot["toAct"][0]
            listed = self.server.call(
                "GET", f"/v1/games/{self.game_id}/legal-moves", token=self.tokens[seat]
            )
            self.server.call(
                "POST",
                f"/v1/games/{self.game_id}/moves",
                {
                    "expectedVersion": listed["version"],
                    "move": rng.choice(listed["moves"]),
                    "idempotencyKey": f"test-{seed}-{n}",
                },
                token=self.tokens[seat],
            )
        return int(self.snapshot()["version"])


def new_game(
    server: Server,
    game_type: str,
    seats: int,
    *,
    join: int | None = None,
    options: dict[str, Any] | None = None,
    seed: int = 7,
) -> Game:
    """A game made through the API; ``join`` seats taken (all by default)."""
    created = server.call(
        "POST",
        "/v1/games",
        {"options": {ENVELOPES[game_type]: options or {}}, "numSeats": seats, "seed": str(seed)},
    )
    game = Game(server, created["gameId"], game_type)
    for n in range(seats if join is None else join):
        joined = server.call("POST", f"/v1/games/{game.game_id}/seats", {"displayName": f"P{n}"})
        game.tokens.append(joined["seatToken"])
    return game


def open_as(tab: Tab, game: Game, seat: int | None) -> None:
    """Open the game's page as ``seat`` (its token put where the page keeps
    tokens), or as a spectator."""
    page = tab.page
    page.goto(game.server.base + "/")
    page.wait_for_selector("body[data-ready='lobby']")
    if seat is not None:
        held = {seat: {"token": game.tokens[seat], "name": f"P{seat}", "bot": False}}
        page.evaluate(
            "([key, value]) => localStorage.setItem(key, value)",
            [f"throneroom.seats.{game.game_id}", json.dumps(held)],
        )
        page.goto(f"{game.server.base}/#/game/{game.game_id}/seat/{seat}")
    else:
        page.goto(f"{game.server.base}/#/game/{game.game_id}")
    page.wait_for_selector("body[data-ready='game']")
    page.wait_for_selector("#board svg.board")
    wait_version(tab, int(game.snapshot()["version"]))


def shown_version(tab: Tab) -> int:
    label = tab.page.get_attribute("#board svg.board", "aria-label") or ""
    match = re.search(r"version (\d+)", label)
    assert match, label
    return int(match.group(1))


def wait_version(tab: Tab, version: int, timeout: float = 20_000) -> None:
    tab.page.wait_for_function(
        """(v) => {
            const svg = document.querySelector('#board svg.board');
            const m = svg && /version (\\d+)/.exec(svg.getAttribute('aria-label') || '');
            return m && Number(m[1]) >= v;
        }""",
        arg=version,
        timeout=timeout,
    )


def wait_text(tab: Tab, selector: str, pattern: str) -> None:
    """Wait until the text of ``selector`` matches the JavaScript regex ``pattern``."""
    tab.page.wait_for_function(
        "([sel, pat]) => new RegExp(pat).test(document.querySelector(sel)?.textContent ?? '')",
        arg=[selector, pattern],
    )


def wait_board_label(tab: Tab, pattern: str) -> None:
    """Wait until the board's label (its title and version) matches ``pattern``."""
    tab.page.wait_for_function(
        """(pat) => new RegExp(pat).test(
            document.querySelector('#board svg.board')?.getAttribute('aria-label') ?? '')""",
        arg=pattern,
    )


def set_slider(tab: Tab, value: int) -> None:
    """Move the history slider as a drag ends: input, then change."""
    tab.page.locator("#history-slider").evaluate(
        """(el, v) => {
            el.value = v;
            el.dispatchEvent(new Event('input'));
            el.dispatchEvent(new Event('change'));
        }""",
        value,
    )
