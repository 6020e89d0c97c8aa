"""The games' short drawings for a terminal of few rows: a counter is drawn on
the square its notation names (upright and turned), the viewer's reserve by
type with its ids, The King Is Dead's map carrying the order of the
struggles, and a session fitting its decision's screen to the rows it has."""

from __future__ import annotations

import io

from rich.console import Console
from throneroom import Client, notation
from throneroom.games.kill_the_king.squares import COLUMNS
from throneroom.games.kill_the_king.terminal_short import seat_lines, short_field
from throneroom.games.king_is_dead.notation.moves import REGIONS
from throneroom.games.king_is_dead.terminal_short import short_map, struggle_lines
from throneroom.terminal.boards import height
from throneroom.terminal.session import TALL_ROWS, Session
from throneroom.v1 import kill_the_king_pb2 as kk_pb
from throneroom.v1 import king_is_dead_pb2 as kid_pb
from throneroom_server.embedded import EmbeddedServer

Unit = kk_pb.KillTheKingUnit


def placed(move: str) -> kk_pb.KillTheKingView:
    """A view of the standard field with one attacker's Swordsmen placed by ``move``."""
    spelled = notation.for_game("kill_the_king").parse_move(move)
    assert isinstance(spelled, kk_pb.KillTheKingMove)
    place = spelled.place
    unit = Unit(
        id=place.unit,
        seat=0,
        side=kk_pb.SIDE_ATTACKER,
        type=kk_pb.UNIT_TYPE_SWORDSMEN,
        status=Unit.STATUS_ON_FIELD,
        square=place.square,
        facing=place.facing,
    )
    return kk_pb.KillTheKingView(mode=kk_pb.KILL_THE_KING_MODE_KILL_THE_KING, units=[unit])


def test_a_counter_placed_on_e2_is_drawn_in_column_e_row_2() -> None:
    lines = short_field(placed("place u5 e2 n")).plain.split("\n")
    column = lines[0].index(" e ") + 1  # the column letters over the cells
    row = next(line for line in lines[1:] if line.split()[0] == "2")
    assert row[column : column + 2] == "W^"  # Swordsmen, facing north
    assert sum(line.count("W") for line in lines[1:]) == 1


def test_the_turned_field_keeps_the_squares_names() -> None:
    lines = short_field(placed("place u5 e3 e"), turned=True).plain.split("\n")
    assert lines[0].endswith("north >")
    at = lines[0].index(" 3 ") + 1  # the odd rows numbered over the cells
    column_e = next(line for line in lines[1:] if line.startswith(f"{COLUMNS[4]} "))
    assert column_e[at : at + 2] == "Wv"  # facing east: down, north being to the right
    assert len(lines) == 1 + 11  # a line a column


def test_the_viewers_reserve_is_listed_by_type_with_its_ids_as_runs() -> None:
    reserve = [
        Unit(id=i, seat=0, side=kk_pb.SIDE_ATTACKER, type=kind, status=Unit.STATUS_RESERVE)
        for i, kind in (
            *((i, kk_pb.UNIT_TYPE_ARCHER) for i in range(1, 8)),
            (9, kk_pb.UNIT_TYPE_ARCHER),
            (8, kk_pb.UNIT_TYPE_CAVALRY),
        )
    ]
    view = kk_pb.KillTheKingView(
        units=reserve,
        seats=[kk_pb.KillTheKingSeat(side=kk_pb.SIDE_ATTACKER, coins=4), kk_pb.KillTheKingSeat()],
        to_act=[0],
    )
    mine, theirs = (line.plain for line in seat_lines(view, 0))
    assert (
        mine == "▶ seat 0 (you): the attacker, 4 coins, 9 in reserve: Archer u1-u7 u9; Cavalry u8"
    )
    assert theirs == "seat 1: no side yet, 0 coins"


def kid_view() -> kid_pb.KingIsDeadView:
    regions = [kid_pb.Region.Value(name) for name in kid_pb.Region.keys()[1:]]
    order = [regions[i] for i in (2, 0, 3, 7, 4, 1, 6, 5)]
    return kid_pb.KingIsDeadView(
        regions=[kid_pb.RegionState(region=r, scots=r % 3) for r in regions],
        region_cards=[kid_pb.RegionCard(region=r) for r in order],
        current_struggle=order[0],
    )


def test_the_short_map_carries_the_order_of_the_struggles() -> None:
    view = kid_view()
    console = Console(width=80, file=io.StringIO())
    drawn = "\n".join(
        "".join(s.text for s in line) for line in console.render_lines(short_map(view), pad=False)
    )
    for position, card in enumerate(view.region_cards, 1):
        assert f"[{REGIONS.word(card.region)}]" in drawn
        assert f"struggle {position}" in drawn
    assert height(console, short_map(view)) == 10  # two lines a region, five rows
    listed = "\n".join(
        "".join(s.text for s in line)
        for line in console.render_lines(struggle_lines(view), pad=False)
    )
    first = REGIONS.word(view.region_cards[0].region)
    assert listed.startswith("1 ") and f"[{first}]" in listed.split("\n")[0]
    assert "◀ now" in listed.split("\n")[0]
    assert height(console, struggle_lines(view)) == 4


def decision_screen(rows: int) -> list[str]:
    """The first decision of a Kill the King game on an 80-column screen of ``rows``."""
    out = io.StringIO()
    console = Console(width=80, file=out, color_system=None)
    with EmbeddedServer() as embedded, Client(embedded.address) as client:
        session = Session(
            client,
            "kill_the_king",
            seats=2,
            bots=1,
            seed=3,
            console=console,
            rows=rows,
            read_line=lambda _prompt: "q",
        )
        assert session.run() is False
    lines = out.getvalue().split("\n")
    start = next(i for i, line in enumerate(lines) if line.startswith("game "))
    end = next(i for i, line in enumerate(lines) if " left unfinished" in line)
    return lines[start:end]


def test_a_short_screen_fits_and_a_tall_one_has_the_full_board() -> None:
    short = decision_screen(24)
    assert len(short) <= 24 - 1  # and the prompt's line
    assert "north >" in short[1]  # the field turned a quarter round, under the header
    assert "Counters on the field" not in "\n".join(short)
    tall = "\n".join(decision_screen(TALL_ROWS))
    assert "Counters on the field" in tall and "┌───┬" in tall
