"""``throneroom tournament FILE``: run (or resume) a tournament and print its standings.

The results go to ``--results`` (default: the file's name with
``.results.jsonl``), appended as each match ends; running the command again
resumes. Each finished game's record goes into ``--records DIR`` (default:
beside the results file, its name with ``.records``; ``--no-records``:
none). ``--export-json``/``--export-csv`` write the standings; ``--json``
prints them as JSON instead of the table; ``--plain`` prints a line per
finished match on stderr (its result and any failure) instead of the
progress bar, and the table as text (no rich needed). The server is
``--server``, else ``$THRONEROOM_SERVER``, else the file's ``server``; an
address that does not answer a ping within 5 s stops the run at once.
"""

from __future__ import annotations

import argparse
import dataclasses
import importlib.util
import os
import sys
from collections.abc import Callable
from pathlib import Path

from throneroom._common import ADDRESS_ENV
from throneroom.cli_output import UsageError
from throneroom.games.protocol import game_client
from throneroom.tournament.config import TournamentConfig, TournamentFileError, load_config
from throneroom.tournament.crosstable import (
    head_to_head,
    head_to_head_text,
    swiss_rounds,
    swiss_rounds_text,
)
from throneroom.tournament.entrants import EntrantError
from throneroom.tournament.match_stats import (
    Sprt,
    match_lines,
    match_stats,
    match_summary,
    pentanomial,
)
from throneroom.tournament.records import MatchRecord, ResultsFile, ResultsMismatch
from throneroom.tournament.runner import (
    Progress,
    ServerUnreachable,
    run_tournament,
    total_matches,
)
from throneroom.tournament.standings import (
    Standing,
    compute_standings,
    standings_csv,
    standings_json,
)

__all__ = ["add_arguments", "plain_table", "progress_line", "run_command"]

EXTRA_MISSING = (
    "tournaments need the 'tournament' extra (openskill, rich): "
    "pip install 'throneroom[tournament]' (from a checkout: pip install './sdk[tournament]')"
)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", metavar="FILE", help="the tournament file (TOML)")
    parser.add_argument(
        "--results",
        metavar="PATH",
        help="the results file (JSON lines; default: FILE with .results.jsonl)",
    )
    records = parser.add_mutually_exclusive_group()
    records.add_argument(
        "--records",
        metavar="DIR",
        help="write each finished game's record (ExportGame's, JSON) into DIR as it ends "
        "(default: beside the results file, FILE with .records)",
    )
    records.add_argument(
        "--no-records", action="store_true", help="write no game records (default: written)"
    )
    parser.add_argument(
        "--export-json", metavar="PATH", help="write the standings as JSON (default: not written)"
    )
    parser.add_argument(
        "--export-csv", metavar="PATH", help="write the standings as CSV (default: not written)"
    )
    parser.add_argument(
        "--concurrency", type=int, metavar="N", help="matches at once (default: the file's)"
    )
    parser.add_argument(
        "--sprt",
        nargs="+",
        metavar="K=V",
        help="two entrants: stop once a sequential probability ratio test decides, e.g. "
        "--sprt elo0=0 elo1=5 alpha=0.05 beta=0.05 (default: play every match)",
    )
    parser.add_argument(
        "--interim",
        type=int,
        metavar="N",
        help="print the standings so far after every N finished matches (default: at the end only)",
    )
    parser.add_argument(
        "--plain",
        action="store_true",
        help="a line per match on stderr instead of the progress bar; the table as plain "
        "text (default: rich when installed)",
    )


def plain_table(standings: list[Standing]) -> str:
    """The standings as text: the rating (mu - 3 sigma) then mu with its 95%
    interval (mu ± 1.96 sigma), games, win rate, per seat, failures by reason."""
    width = max([20, *(len(s.entrant) for s in standings)])
    seats = len(standings[0].seat_games) if standings else 0
    per_seat = " ".join(f"{f'seat {n}':>6}" for n in range(seats))
    swiss = bool(standings) and standings[0].swiss is not None
    lines = [
        f"rank  {'entrant':<{width}}  "
        + ("points  byes  Buchholz      SB  " if swiss else "")
        + f"rating  mu ± 95%      games  win rate [95% CI]  {per_seat}  failures"
    ]
    for s in standings:
        score = ""
        if s.swiss is not None:
            score = (
                f"{s.swiss.points:>6.2f}  {s.swiss.byes:>4}  {s.swiss.buchholz:>8.2f}  "
                f"{s.swiss.sonneborn_berger:>6.2f}  "
            )
        rates = " ".join(f"{'-' if r is None else f'{r:.0%}':>6}" for r in s.seat_win_rates)
        failures = ", ".join(f"{k} {v}" for k, v in sorted(s.failures.items())) or "-"
        interval = f"{s.mu:.1f} ± {1.96 * s.sigma:.1f}"
        win = f"{s.win_rate:.0%} [{s.win_low:.0%}, {s.win_high:.0%}]"
        lines.append(
            f"{s.rank:>4}  {s.entrant:<{width}}  {score}{s.ordinal:>6.1f}  {interval:<12}  "
            f"{s.games:>5}  {win:<17}  {rates}  {failures}"
        )
    return "\n".join(lines)


def progress_line(record: MatchRecord, done: int, total: int) -> str:
    """One finished match, as ``--plain`` prints it (on stderr) while the tournament runs."""
    won = ", ".join(record.winning_entrants) or "nobody"
    line = f"[{done}/{total}] {record.key}: {record.status}, won by {won} ({record.termination})"
    for failure in record.failures:
        line += f"; {failure.entrant} {failure.reason}: {failure.detail}"
    return line


def _print_progress(record: MatchRecord, done: int, total: int) -> None:
    sys.stderr.write(progress_line(record, done, total)[:300] + "\n")
    sys.stderr.flush()


def run_command(args: argparse.Namespace) -> None:
    if importlib.util.find_spec("openskill") is None:
        raise UsageError(EXTRA_MISSING)
    config = _configured(args)
    names = [e.name for e in config.entrants]
    sprt = _sprt(args.sprt, names)
    results_path = Path(args.results or Path(args.file).with_suffix(".results.jsonl"))
    try:
        earlier = list(ResultsFile(results_path, config).records.values())
    except ResultsMismatch as error:
        raise UsageError(str(error)) from None
    stop = None
    if sprt is not None:

        def stop(played: list[MatchRecord]) -> bool:
            return sprt.status(match_stats(names[0], names[1], played)).verdict != "continue"

    try:
        records = _play(args, config, results_path, earlier, stop)
    except (EntrantError, TournamentFileError, ServerUnreachable) as error:
        raise UsageError(f"{args.file}: {error}") from None
    _report(args, config, records, sprt)


def _configured(args: argparse.Namespace) -> TournamentConfig:
    """The tournament file's configuration, with the command line's server and concurrency."""
    try:
        config = load_config(args.file)
    except (OSError, TournamentFileError) as error:
        raise UsageError(str(error)) from None
    server = getattr(args, "server", None) or os.environ.get(ADDRESS_ENV)
    if server:
        config = dataclasses.replace(config, server=server)
    if args.concurrency:
        config = dataclasses.replace(config, concurrency=args.concurrency)
    return config


def _play(
    args: argparse.Namespace,
    config: TournamentConfig,
    results_path: Path,
    earlier: list[MatchRecord],
    stop: Callable[[list[MatchRecord]], bool] | None,
) -> list[MatchRecord]:
    """Run (or resume) the tournament, its progress shown as the command line
    asks: none (--json), printed lines (--plain, or without rich), or a bar."""
    every = args.interim or 0
    games: str | bool = False if args.no_records else args.records or True
    if args.json:
        progress = _interim(config, every, earlier, lambda *_: None)
        return run_tournament(config, results_path, progress=progress, records=games, stop=stop)
    if args.plain or importlib.util.find_spec("rich") is None:
        progress = _interim(config, every, earlier, _print_progress)
        return run_tournament(config, results_path, progress=progress, records=games, stop=stop)
    from throneroom.tournament.display import progress_bar  # noqa: PLC0415 - needs rich

    with progress_bar(config.name, total_matches(config), len(earlier)) as advance:
        return run_tournament(
            config,
            results_path,
            progress=_interim(config, every, earlier, advance),
            records=games,
            stop=stop,
        )


def _report(
    args: argparse.Namespace,
    config: TournamentConfig,
    records: list[MatchRecord],
    sprt: Sprt | None,
) -> None:
    """The standings and tables: written to the export files asked for, and shown."""
    names = [e.name for e in config.entrants]
    standings = _standings(config, records)
    meta = _meta(config.name, config.game, records)
    cross = head_to_head(names, records)
    meta["head_to_head"] = [
        {"entrant": a, "opponent": b, **dataclasses.asdict(h)} for (a, b), h in cross.items()
    ]
    tables = head_to_head_text([s.entrant for s in standings], cross) + "\n"
    if config.schedule == "swiss":
        by_round = swiss_rounds(names, records, config.rounds)
        meta["swiss_rounds"] = by_round
        order = [s.entrant for s in standings]
        tables += swiss_rounds_text(order, by_round, config.games_per_pairing) + "\n"
    match_text = ""
    if len(names) == 2:
        stats = match_stats(names[0], names[1], records)
        pairs = pentanomial(names[0], names[1], records)
        meta["match"] = match_summary(names[0], names[1], stats, sprt, pairs)
        match_text = match_lines(names[0], names[1], stats, sprt, pairs) + "\n"
    if args.export_json:
        Path(args.export_json).write_text(standings_json(standings, meta=meta) + "\n")
    if args.export_csv:
        Path(args.export_csv).write_text(standings_csv(standings))
    if args.json:
        sys.stdout.write(standings_json(standings, meta=meta) + "\n")
    elif args.plain or importlib.util.find_spec("rich") is None:
        sys.stdout.write(plain_table(standings) + "\n" + tables + match_text)
    else:
        from throneroom.tournament.display import print_standings  # noqa: PLC0415 - needs rich

        print_standings(f"{config.name} ({config.game})", standings)
        sys.stdout.write(tables + match_text)


def _standings(config: TournamentConfig, records: list[MatchRecord]) -> list[Standing]:
    return compute_standings(
        [e.name for e in config.entrants],
        records,
        config.seats,
        rate_forfeits=config.rate_forfeits,
        bye_points=config.games_per_pairing if config.schedule == "swiss" else None,
        teams=game_client(config.game).seat_teams(config.seats, config.options),
    )


def _interim(
    config: TournamentConfig, every: int, earlier: list[MatchRecord], show: Progress
) -> Progress:
    """``show``, and after every ``every`` finished matches the standings so far
    (:func:`plain_table`) on stderr."""
    seen = list(earlier)

    def progress(record: MatchRecord, done: int, total: int) -> None:
        show(record, done, total)
        seen.append(record)
        if every and done % every == 0 and done < total:
            text = plain_table(_standings(config, seen))
            sys.stderr.write(f"standings after {done} of {total} matches:\n{text}\n")
            sys.stderr.flush()

    return progress


def _sprt(words: list[str] | None, names: list[str]) -> Sprt | None:
    if not words:
        return None
    if len(names) != 2:
        raise UsageError(f"--sprt is for a match of two entrants, not {len(names)}")
    try:
        return Sprt.parse(" ".join(words))
    except ValueError as error:
        raise UsageError(str(error)) from None


def _meta(name: str, game: str, records: list[MatchRecord]) -> dict[str, object]:
    decisions = sum(r.moves for r in records)
    return {
        "tournament": name,
        "game": game,
        "matches": len(records),
        "decisions": decisions,
        "forfeits": sum(1 for r in records if r.status == "forfeit"),
    }
