"""How the game is won: control, invasion and the Mordred (Loyalist) ending.

Pure functions over plain data (controls and resolution order per region,
courts, the order of each seat's last card play), shared by the engine and the
3-player last-card search (which asks ``ranked_seat_wins`` once it knows the
ranking's first and second factions, hence the plain tuples). Readings
(RULES-NOTES and docs/rules/king_is_dead.md):

* The faction in power has the most regions; a tie goes to the tied faction
  that won a power struggle most recently. The "second" faction is ranked the
  same way among the others. A faction with no region is not ranked.
* Control: most followers of the ruling faction; tied players are separated
  by the second faction; still tied (or no second faction), the tied player
  whose last card play came latest loses, repeatedly until one remains.
* Invasion: most complete sets (one follower of each faction); tied, the tied
  player whose last card play came latest wins. With 4 players teammates pool
  their followers (invasion only) and the team with a member who played last
  wins a tie.
* Loyalist: as control with the regions resolved so far; without a ruling
  faction, or without a second faction to settle a tie, most followers at
  court wins; still tied, the tied player who played last wins.
* A seat that never played counts as earliest; when no tie-break can separate
  seats (none of them ever played), they share the victory.
* With 4 players, the single ruler's teammate shares a control or Loyalist win.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from throneroom_server.games.king_is_dead.board import FACTION_NAMES, TEAM_SEATS

CONTROL = "control"
INVASION = "invasion"
LOYALIST = "loyalist"

TB_FACTION_RECENCY = "faction_recency"
TB_SECOND_FACTION = "second_faction"
TB_SECOND_FACTION_RECENCY = "second_faction_recency"
TB_LAST_CARD_PLAYED = "last_card_played"
TB_COURT_TOTAL = "court_total"

Court = Sequence[int]
"""A court's followers: (scots, welsh, romano_british[, loyalists])."""
Rank = tuple[int, int, int]
"""A ranked faction: (regions, resolved_order of its latest win, faction)."""


@dataclass(frozen=True)
class Ending:
    termination: str
    winners: tuple[int, ...]
    ruling_faction: int
    """The faction in power (0 for an invasion or when no faction rules)."""
    tiebreaks: tuple[str, ...]
    summary: str


def faction_tally(controls: Sequence[int], orders: Sequence[int]) -> tuple[list[int], list[int]]:
    """Per faction (index 1..3): the regions it controls and the order of its
    most recent win (0 if none)."""
    regions = [0, 0, 0, 0]
    latest = [0, 0, 0, 0]
    for control, order in zip(controls, orders, strict=True):
        if 1 <= control <= 3:
            regions[control] += 1
            latest[control] = max(latest[control], order)
    return regions, latest


def rank_factions(regions: Sequence[int], latest: Sequence[int]) -> list[Rank]:
    """Factions controlling at least one region, strongest first: most regions,
    then the most recent win (``regions``/``latest`` as faction_tally's)."""
    ranks = [(regions[f], latest[f], f) for f in (1, 2, 3) if regions[f]]
    ranks.sort(reverse=True)
    return ranks


def faction_ranking(controls: Sequence[int], orders: Sequence[int]) -> list[Rank]:
    """Factions controlling at least one region, strongest first: most regions,
    then the most recent win."""
    return rank_factions(*faction_tally(controls, orders))


def _best(seats: Sequence[int], score: Sequence[int]) -> list[int]:
    top = max(score[s] for s in seats)
    return [s for s in seats if score[s] == top]


def _last_player_loses(tied: list[int], last_played: Sequence[int]) -> list[int]:
    """Drop the tied seat whose last card play came latest, until one remains
    (seats that never played cannot be told apart and share)."""
    tied = list(tied)
    while len(tied) > 1:
        latest = max(tied, key=lambda s: last_played[s])
        if last_played[latest] == 0:
            break
        tied.remove(latest)
    return tied


def _last_player_wins(tied: list[int], last_played: Sequence[int]) -> list[int]:
    top = max(last_played[s] for s in tied)
    if top == 0:
        return tied
    return [s for s in tied if last_played[s] == top]


def _with_teammates(rulers: Sequence[int], num_seats: int) -> tuple[int, ...]:
    if num_seats != TEAM_SEATS:
        return tuple(sorted(rulers))
    return tuple(sorted({s for w in rulers for s in (w, (w + 2) % 4)}))


@dataclass(frozen=True)
class _Decision:
    rulers: list[int]
    """The ruling seat(s) (the invasion's winning seats), before teammates."""
    winners: tuple[int, ...]
    ranks: list[Rank]
    tiebreaks: list[str]


def _decide(
    termination: str,
    controls: Sequence[int],
    orders: Sequence[int],
    courts: Sequence[Court],
    last_played: Sequence[int],
) -> _Decision:
    tiebreaks: list[str] = []
    if termination == INVASION:
        seats = _invaders(courts, last_played, tiebreaks)
        return _Decision(seats, tuple(seats), [], tiebreaks)
    ranks = faction_ranking(controls, orders)
    if len(ranks) > 1 and ranks[1][0] == ranks[0][0]:
        tiebreaks.append(TB_FACTION_RECENCY)
    tied = _rulers(
        termination,
        first=ranks[0][2] if ranks else 0,
        second=ranks[1][2] if len(ranks) > 1 else 0,
        courts=courts,
        last_played=last_played,
        tiebreaks=tiebreaks,
        second_recency=len(ranks) > 2 and ranks[2][0] == ranks[1][0],
    )
    return _Decision(tied, _with_teammates(tied, len(courts)), ranks, tiebreaks)


def _invaders(
    courts: Sequence[Court], last_played: Sequence[int], tiebreaks: list[str]
) -> list[int]:
    """The winning seats of an invasion (teammates pooled)."""
    num_seats = len(courts)
    if num_seats == TEAM_SEATS:
        units: list[list[int]] = [[0, 2], [1, 3]]
    else:
        units = [[s] for s in range(num_seats)]
    sets = [min(sum(courts[s][f] for s in unit) for f in range(3)) for unit in units]
    latest = [max(last_played[s] for s in unit) for unit in units]
    tied = _best(range(len(units)), sets)
    if len(tied) > 1:
        tiebreaks.append(TB_LAST_CARD_PLAYED)
        tied = _last_player_wins(tied, latest)
    return sorted(s for i in tied for s in units[i])


def _rulers(
    termination: str,
    *,
    first: int,
    second: int,
    courts: Sequence[Court],
    last_played: Sequence[int],
    tiebreaks: list[str],
    second_recency: bool,
) -> list[int]:
    """The ruling seat(s) of a control or Loyalist ending, before teammates,
    given the ranking's first and second factions (0: none): nothing else of
    the ranking decides. ``second_recency``: the second faction was told from
    the third by recency (for the tie-break names only)."""
    everyone = range(len(courts))
    if not first:
        # Only after a Loyalist win: no faction controls a region.
        tiebreaks.append(TB_COURT_TOTAL)
        tied = _best(everyone, [c[0] + c[1] + c[2] for c in courts])
        if len(tied) > 1:
            tiebreaks.append(TB_LAST_CARD_PLAYED)
            tied = _last_player_wins(tied, last_played)
        return tied
    tied = _best(everyone, [c[first - 1] for c in courts])
    if len(tied) > 1:
        if second:
            tiebreaks.append(TB_SECOND_FACTION)
            if second_recency:
                tiebreaks.append(TB_SECOND_FACTION_RECENCY)
            tied = _best(tied, [c[second - 1] for c in courts])
            if len(tied) > 1:
                tiebreaks.append(TB_LAST_CARD_PLAYED)
                tied = _last_player_loses(tied, last_played)
        elif termination == LOYALIST:
            tiebreaks.append(TB_COURT_TOTAL)
            tied = _best(tied, [c[0] + c[1] + c[2] for c in courts])
            if len(tied) > 1:
                tiebreaks.append(TB_LAST_CARD_PLAYED)
                tied = _last_player_wins(tied, last_played)
        else:
            tiebreaks.append(TB_LAST_CARD_PLAYED)
            tied = _last_player_loses(tied, last_played)
    return tied


def ranked_seat_wins(
    seat: int,
    termination: str,
    *,
    first: int,
    second: int,
    courts: Sequence[Court],
    last_played: Sequence[int],
) -> bool:
    """``seat in winners(...)`` once the ranking's first and second factions
    (0: none; ignored by an invasion) are known: the rest of the ranking, and
    which regions were won when, do not matter."""
    if termination == INVASION:
        return seat in _invaders(courts, last_played, [])
    rulers = _rulers(
        termination,
        first=first,
        second=second,
        courts=courts,
        last_played=last_played,
        tiebreaks=[],
        second_recency=False,
    )
    return seat in _with_teammates(rulers, len(courts))


def winners(
    termination: str,
    controls: Sequence[int],
    orders: Sequence[int],
    courts: Sequence[Court],
    last_played: Sequence[int],
) -> tuple[int, ...]:
    """The winning seats (see the module docstring)."""
    return _decide(termination, controls, orders, courts, last_played).winners


def _seats(seats: Sequence[int]) -> str:
    names = [f"seat {s}" for s in seats]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def decide_ending(
    termination: str,
    controls: Sequence[int],
    orders: Sequence[int],
    courts: Sequence[Court],
    last_played: Sequence[int],
) -> Ending:
    """The result of a finished game, with the tie-breaks used and a summary.
    ``controls``/``orders`` are per region (RegionControl, resolved_order),
    ``courts`` and ``last_played`` per seat."""
    d = _decide(termination, controls, orders, courts, last_played)
    rulers, ranks, tiebreaks = d.rulers, d.ranks, d.tiebreaks
    share = len(rulers) > 1
    if termination == INVASION:
        num_seats = len(courts)
        if num_seats == TEAM_SEATS:
            sets = min(courts[rulers[0]][f] + courts[(rulers[0] + 2) % 4][f] for f in range(3))
        else:
            sets = min(courts[rulers[0]][f] for f in range(3))
        summary = (
            f"The Saxons invaded: {_seats(d.winners)} "
            f"{'win' if len(d.winners) > 1 else 'wins'} with {sets} complete "
            f"set{'s' if sets != 1 else ''} of followers"
        )
        if tiebreaks:
            summary += " (the tie goes to whoever played a card last)"
        return Ending(termination, d.winners, 0, tuple(tiebreaks), summary + ".")
    if not ranks:
        total = sum(courts[rulers[0]][f] for f in range(3))
        summary = (
            f"No faction controls a region: {_seats(rulers)} "
            f"{'share the victory' if share else 'wins'} with {total} followers at court"
        )
        ruling = 0
    else:
        regions, _, ruling = ranks[0]
        how = f"the most {FACTION_NAMES[ruling]} followers ({courts[rulers[0]][ruling - 1]})"
        if tiebreaks[-1:] and tiebreaks[-1] != TB_FACTION_RECENCY:
            how += " after the tie-breaks " + ", ".join(
                t for t in tiebreaks if t != TB_FACTION_RECENCY
            )
        summary = (
            f"The {FACTION_NAMES[ruling]} rule with {regions} "
            f"region{'s' if regions != 1 else ''}: {_seats(rulers)} "
            f"{'share the crown' if share else 'is crowned'} with {how}"
        )
    partners = [w for w in d.winners if w not in rulers]
    if partners:
        summary += f"; teammate {_seats(partners)} shares the victory"
    if termination == LOYALIST:
        summary = "Mordred's Loyalists won a power struggle. " + summary
    return Ending(termination, d.winners, ruling, tuple(tiebreaks), summary + ".")
