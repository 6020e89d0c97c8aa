"""Tournament files for the tests, written into a temporary directory."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
NODE_BOT = ROOT / "examples" / "external_bot" / "random_bot.js"

ENTRANTS = {
    "random": 'bot = "throneroom.bots:RandomBot"',
    "heuristic": 'bot = "throneroom.games.king_is_dead.bot:KingIsDeadBot"',
    "node": f'command = ["node", "{NODE_BOT}"]',
    "crasher": 'bot = "tests.tournament.misbehaving:CrashingBot"',
    "hanger": 'bot = "tests.tournament.misbehaving:HangingBot"',
    "illegal": 'bot = "tests.tournament.misbehaving:IllegalBot"',
    "late": 'bot = "tests.tournament.misbehaving:LateBot"',
}


def tournament_file(directory: Path, entrants: list[str], **settings: object) -> Path:
    """A tournament file of King Is Dead (2 seats) with the named entrants, each
    decision within ``deadline`` seconds (a setting): generous by default, so
    that a loaded machine never turns a well-behaved bot's slowness into a loss;
    the tests of bots that hang or answer late pass a few seconds."""
    deadline = settings.pop("deadline", 30)
    values: dict[str, object] = {
        "name": "test",
        "game": "king_is_dead",
        "seats": 2,
        "seed": 11,
        "concurrency": 2,
        "games_per_pairing": 1,
    }
    values.update(settings)
    lines = [f"{key} = {_toml(value)}" for key, value in values.items()]
    lines += ["", "[time_control]", f"per_decision_seconds = {deadline}", ""]
    for name in entrants:
        lines += ["[[entrants]]", f'name = "{name}"', ENTRANTS[name], ""]
    path = directory / "tournament.toml"
    path.write_text("\n".join(lines))
    return path


def _toml(value: object) -> str:
    return (
        f'"{value}"'
        if isinstance(value, str)
        else str(value).lower()
        if isinstance(value, bool)
        else str(value)
    )
