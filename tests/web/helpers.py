"""Helpers for the browser tests: games made and advanced through the REST API
(seeded random moves), and the page opened as a seat whose token the browser
keeps, as it would after joining from the page."""

from __future__ import annotations

import json
import random
import re
from dataclasses import dataclass, field
from typing import Any

import pytest
from google.protobuf import json_format
from playwright.sync_api import Error as PlaywrightError
from throneroom.games.protocol import game_client
from throneroom.terminal.texts import seat_names
from throneroom.v1 import service_pb2

from tests.web.conftest import Server, Tab

#: A person's pause after each click, in ms: the pace of a person playing, on
#: purpose (what the page must wait for is waited for as a condition).
PERSON_PACE_MS = 150
#: The decisions a whole game may ask of the page's player before it fails.
MAX_DECISIONS = 600

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


class Person:
    """A player clicking in the page as a person does: on the board's
    highlighted things, else on a move of the list, and Confirm for a move of
    several clicks; ``pace_ms`` after each click; every click counted. A
    player with a purpose (``purpose``: move notations, such as ending a
    phase, and the chance of choosing one when the list offers it) clicks such
    a move of the list at that chance before it looks at the board."""

    def __init__(
        self,
        tab: Tab,
        rng: random.Random,
        pace_ms: int = 0,
        purpose: tuple[frozenset[str], float] = (frozenset(), 0.0),
    ) -> None:
        self.tab = tab
        self.page = tab.page
        self.rng = rng
        self.pace_ms = pace_ms
        self.purpose = purpose
        self.clicks = 0

    def click(self, target: Any) -> bool:
        """Click ``target`` (a locator or a selector); False if it went away
        meanwhile (the page redrew it as an update came)."""
        locator = self.page.locator(target) if isinstance(target, str) else target
        try:
            locator.click(timeout=2_000)
        except PlaywrightError:
            return False
        self.clicks += 1
        if self.pace_ms:
            self.page.wait_for_timeout(self.pace_ms)  # a person's pace, on purpose
        return True

    def move(self, version: int) -> str:
        """Make one decision at ``version``: click highlighted things on the
        board until the move is sent, else (several moves left after the
        clicks) a move of the narrowed list. How it was made: "board", "list"
        or "none" (nothing could be clicked)."""
        page = self.page
        notations, chance = self.purpose
        if notations and self.rng.random() < chance:
            chosen = ", ".join(
                f"#move-list button.move:enabled[data-notation='{n}']" for n in notations
            )
            if page.locator(chosen).count() and self.click(page.locator(chosen).first):
                return "list"
        for _ in range(4):  # a move takes at most three clicks on the board
            clickable = page.locator("#board [data-key].clickable")
            count = clickable.count()
            if not count:
                break
            if not self.click(clickable.nth(self.rng.randrange(count))):
                continue  # redrawn meanwhile (an update came): look again
            page.wait_for_function(
                """(v) => {
                    const svg = document.querySelector('#board svg.board');
                    const m = /version (\\d+)/.exec(svg.getAttribute('aria-label'));
                    return Number(m[1]) > v || document.querySelector('#clear-pick')
                        || document.querySelector('#confirm-move');
                }""",
                arg=version,
            )
            if shown_version(self.tab) > version:
                return "board"
            if page.locator("#confirm-move:enabled").count():
                # A move of several clicks: the page shows it in words and waits for Confirm.
                if not self.click("#confirm-move"):
                    continue  # redrawn meanwhile: look again
                return "board"
        moves = page.locator("#move-list button.move:enabled")
        count = moves.count()
        if count and self.click(moves.nth(self.rng.randrange(count))):
            return "list"
        return "none"

    def play_to_the_end(self, name: str, turn_timeout_ms: int = 30_000) -> int:
        """Make every decision asked of this seat until the outcome shows
        (waiting up to ``turn_timeout_ms`` for each turn); the decisions made."""
        page = self.page
        decisions = 0
        for _ in range(MAX_DECISIONS):
            try:
                page.wait_for_function(
                    """() => document.querySelector('#outcome') ||
                             document.querySelector('#move-list button.move:enabled')""",
                    timeout=turn_timeout_ms,
                )
            except PlaywrightError:
                self.tab.shot(f"{name}-stuck")
                raise
            if page.locator("#outcome").count():
                return decisions
            version = shown_version(self.tab)
            if self.move(version) != "none":
                decisions += 1
                wait_version(self.tab, version + 1)
        pytest.fail(f"{name}: the game did not end in {MAX_DECISIONS} decisions")
