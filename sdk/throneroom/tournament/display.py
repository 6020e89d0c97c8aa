"""The tournament in a terminal: a progress bar while it runs, then the
standings as a table (rich, from the ``tournament`` or ``cli`` extra).

Imported only by ``throneroom tournament`` when it draws (``--plain`` prints
the same table as text without rich).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager

from rich.console import Console
from rich.measure import Measurement
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from throneroom.tournament.records import MatchRecord
from throneroom.tournament.standings import Standing

__all__ = ["print_standings", "progress_bar", "standings_table"]


@contextmanager
def progress_bar(
    title: str, total: int, done: int, console: Console | None = None
) -> Iterator[Callable[[MatchRecord, int, int], None]]:
    """A progress bar; yields the callback :func:`run_tournament` calls per match."""
    with Progress(
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        TextColumn("{task.fields[last]}"),
        console=console,
        transient=False,
    ) as bar:
        task = bar.add_task(title, total=total, completed=done, last="")

        def advance(record: MatchRecord, completed: int, _total: int) -> None:
            won = ", ".join(record.winning_entrants) or "nobody"
            bar.update(task, completed=completed, last=f"{record.key}: {won}")

        yield advance


def standings_table(title: str, standings: Sequence[Standing]) -> Table:
    """The standings as a rich table (rating, win rate with its interval, per seat)."""
    seats = len(standings[0].seat_games) if standings else 0
    table = Table(title=title)
    table.add_column("#", justify="right")
    table.add_column("entrant")
    swiss = bool(standings) and standings[0].swiss is not None
    if swiss:
        for column in ("points", "byes", "Buchholz", "SB"):
            table.add_column(column, justify="right")
    table.add_column("rating", justify="right")
    table.add_column("mu ± 95%", justify="right")
    table.add_column("games", justify="right")
    table.add_column("win rate (95%)", justify="right")
    for seat in range(seats):
        table.add_column(f"seat {seat}", justify="right")
    table.add_column("failures")
    for line in standings:
        score = line.swiss
        table.add_row(
            str(line.rank),
            line.entrant,
            *(
                [
                    f"{score.points:.2f}",
                    str(score.byes),
                    f"{score.buchholz:.2f}",
                    f"{score.sonneborn_berger:.2f}",
                ]
                if score is not None
                else []
            ),
            f"{line.ordinal:.1f}",
            f"{line.mu:.1f} ± {1.96 * line.sigma:.1f}",
            str(line.games),
            f"{line.win_rate:.0%} [{line.win_low:.0%}, {line.win_high:.0%}]",
            *["-" if r is None else f"{r:.0%}" for r in line.seat_win_rates],
            ", ".join(f"{k} {v}" for k, v in sorted(line.failures.items())) or "-",
        )
    return table


def print_standings(
    title: str, standings: Sequence[Standing], console: Console | None = None
) -> None:
    """Print the standings table: on a terminal, as wide as it is; elsewhere (a
    file, a pipe) as wide as the table needs, never cut at rich's 80 columns."""
    console = console or Console()
    table = standings_table(title, standings)
    if not console.is_terminal:
        console.width = max(console.width, _widest(console, table))
    console.print(table)


def _widest(console: Console, table: Table) -> int:
    """The width the table takes when nothing limits it."""
    return Measurement.get(console, console.options.update_width(10_000), table).maximum
