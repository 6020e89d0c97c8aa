"""Making each seat's bot from its entrant: a Python entry point or a program."""

from __future__ import annotations

import importlib
import inspect
from pathlib import Path
from typing import Any

from throneroom.bots import Bot
from throneroom.external import ExternalBot
from throneroom.tournament.config import EntrantSpec

__all__ = ["EntrantError", "make_bot"]


class EntrantError(ValueError):
    """An entrant cannot play: its bot cannot be made (bad entry point or
    arguments), or it does not play the tournament's game (preflight)."""


def _factory(entry_point: str) -> Any:
    module_name, _, attribute = entry_point.partition(":")
    try:
        target: Any = importlib.import_module(module_name)
    except ImportError as error:
        raise EntrantError(f"{entry_point}: cannot import {module_name}: {error}") from None
    for part in attribute.split("."):
        try:
            target = getattr(target, part)
        except AttributeError:
            raise EntrantError(f"{entry_point}: {module_name} has no {attribute}") from None
    if not callable(target):
        raise EntrantError(f"{entry_point}: not a class or factory")
    return target


def _accepts_seed(factory: Any) -> bool:
    try:
        parameters = inspect.signature(factory).parameters
    except (TypeError, ValueError):
        return False
    return "seed" in parameters or any(
        p.kind is inspect.Parameter.VAR_KEYWORD for p in parameters.values()
    )


def make_bot(spec: EntrantSpec, seed: int, base_dir: Path) -> Bot:
    """A fresh bot for one seat of one game, seeded with ``seed`` when it takes one."""
    if spec.external:
        cwd = base_dir / spec.cwd if spec.cwd else base_dir
        return ExternalBot(spec.command, name=spec.name, cwd=cwd, env=spec.env, seed=seed)
    factory = _factory(spec.bot)
    kwargs = dict(spec.args)
    if "seed" not in kwargs and _accepts_seed(factory):
        kwargs["seed"] = seed
    try:
        bot = factory(**kwargs)
    except TypeError as error:
        raise EntrantError(f"{spec.name} ({spec.bot}): {error}") from None
    if not callable(getattr(bot, "choose", None)):
        raise EntrantError(f"{spec.name} ({spec.bot}): the object made has no choose()")
    return bot  # type: ignore[no-any-return]
