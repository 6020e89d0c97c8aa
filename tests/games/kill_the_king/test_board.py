"""The board as a text map (docs/rules/kill_the_king.md section 1, KK-1..KK-8): the
standard map's geometry, levels and adjacency, zones, destroyed walls, the
loader's refusals and the rendering round trip."""

from __future__ import annotations

from collections import deque

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from throneroom.games.kill_the_king.board import (
    ATTACK_AND_DEFENSE_ZONES,
    DEFAULT_BOARD,
    KILL_THE_KING_ZONES,
    STANDARD_MAP,
    Board,
    Coord,
    MapError,
    Position,
    Terrain,
    Zone,
    load_board,
)
from throneroom.games.kill_the_king.data import UNITS, Direction, Level, UnitType

B = DEFAULT_BOARD
GATE = Coord(9, 5)
DOOR = Coord(15, 5)
GROUND, WALL, STAIRS = Level.GROUND, Level.WALL, Level.STAIRS


def terrain_chars() -> set[str]:
    return {s.char for s in B}


def test_standard_map_dimensions_and_legend() -> None:
    """KK-1: 11 columns x 16 rows, every legend character used."""
    assert (B.rows, B.cols, B.boards) == (16, 11, 1)
    assert terrain_chars() == set(".=:_+#^/@")
    assert B.render().splitlines()[0] == ":#__/@/__#:", "the northmost row is drawn first"
    assert B.render().splitlines()[-1] == ".....=.....", "row 0, the attacker's edge, last"


def test_every_rule_space_type_is_present() -> None:
    """Every kind of space the rules speak of comes from the map (KK-1)."""
    assert B.gates == (GATE,)
    assert B.doors == (DOOR,)
    assert B.corner_stairs() == (Coord(10, 2), Coord(10, 8))
    assert len(B.king_stairs(DOOR)) == 8
    assert set(B.king_stairs(DOOR)) | set(B.corner_stairs()) == set(B.stairs)
    assert len(B.walls) == 8 + 12, "the front wall (8 beside the gate), two side walls of 6"
    assert any(s.road and s.terrain is Terrain.GRASS for s in B)
    assert any(s.road and s.terrain is Terrain.GROUND for s in B)
    assert any(s.terrain is Terrain.GROUND and not s.road for s in B)
    assert len(B.reinforcement_edge()) == 14
    for layer in (KILL_THE_KING_ZONES, ATTACK_AND_DEFENSE_ZONES):
        assert {Zone.ATTACKER, Zone.ATTACKER_EXTRA, Zone.DEFENDER, Zone.DEFENDER_EXTRA} <= set(
            B.zones(layer)
        )
    assert Zone.OUT in B.zones(ATTACK_AND_DEFENSE_ZONES)


def test_the_castle() -> None:
    """RULES-NOTES' layout: the gate on the centre column between wall spaces, side
    walls to the far edge (open there), the door on the far edge behind its stairs."""
    assert B.space(9, 4).terrain is B.space(9, 6).terrain is Terrain.WALL
    for row in range(9, 16):
        assert B.space(row, 1).terrain is B.space(row, 9).terrain is Terrain.WALL
        assert B.space(row, 0).reinforcement and B.space(row, 10).reinforcement
    assert DOOR.row == B.rows - 1
    assert all(B.space(15, c).terrain is not Terrain.WALL for c in range(2, 9)), "open far edge"
    inside = {s.coord for s in B if s.inside}
    assert inside == {Coord(r, c) for r in range(10, 16) for c in range(2, 9)}
    assert all(B.space(*c).terrain is Terrain.STAIRS for c in B.around(DOOR))


def test_the_road() -> None:
    """KK-61, KK-62: the centre column from the attacker's edge through the gate to the
    King's stairs; never on the gate or stairs."""
    assert B.road == tuple(Coord(r, 5) for r in range(13) if r != 9)
    assert not any(B.space(*c).road for c in B.stairs)
    assert not B.space(*GATE).road
    assert B.space(13, 5).terrain is Terrain.STAIRS, "the road ends at the King's stairs"


def test_reinforcement_edges() -> None:
    """KK-40: the side edges of the castle half."""
    edge = B.reinforcement_edge()
    assert {c.col for c in edge} == {0, 10}
    assert {c.row for c in edge} == set(range(9, 16))
    assert all(B.space(*c).terrain is Terrain.GRASS for c in edge)


def test_levels_of_each_space_type() -> None:
    """KK-4: ground, wall, both (stairs), the gate's two levels, none on the door."""
    assert B.space(0, 0).levels == (GROUND,)
    assert B.space(12, 3).levels == (GROUND,)
    assert B.space(9, 1).levels == (WALL,)
    assert B.space(*GATE).levels == (GROUND, WALL)
    assert B.space(10, 2).levels == (STAIRS,)
    assert B.space(*DOOR).levels == ()
    assert B.level_of(GATE) is WALL, "at rest on the gate's space: above it"
    with pytest.raises(KeyError):
        B.level_of(DOOR)
    with pytest.raises(KeyError):
        B.space(16, 0)


def targets(coord: Coord, level: Level) -> set[Position]:
    return {p for _, p in B.steps(Position(coord, level))}


def test_adjacency_is_orthogonal_and_symmetric() -> None:
    """KK-5: steps go to orthogonal neighbours only, in both directions alike."""
    for here in B.positions():
        for direction, there in B.steps(here):
            assert there.coord == here.coord.step(direction)
            assert here in {p for _, p in B.steps(there)}, f"{here} -> {there} is one-way"
    assert len(B.steps(Position(Coord(4, 4), GROUND))) == 4
    assert len(B.steps(Position(Coord(0, 0), GROUND))) == 2, "a corner of the field"


def test_adjacency_never_between_ground_and_wall() -> None:
    """KK-5, KK-42: no step from a wall to the ground or up from the ground; the
    door takes no unit."""
    for here in B.positions():
        for _, there in B.steps(here):
            assert {here.level, there.level} != {GROUND, WALL}
            assert there.coord != DOOR
    assert targets(Coord(8, 3), GROUND) == {
        Position(Coord(7, 3), GROUND),
        Position(Coord(8, 2), GROUND),
        Position(Coord(8, 4), GROUND),
    }, "the wall in front of it is not a step"


def test_the_gate_space_joins_the_ground_below_and_the_wall_above() -> None:
    """KK-55..KK-57: the passage joins outside and inside; above it joins the walls."""
    assert targets(GATE, GROUND) == {
        Position(Coord(8, 5), GROUND),
        Position(Coord(10, 5), GROUND),
    }
    assert targets(GATE, WALL) == {Position(Coord(9, 4), WALL), Position(Coord(9, 6), WALL)}


def test_stairs_join_both_levels() -> None:
    """KK-60 (stairs on both levels); scenario S6: the walls are left only by the
    corner stairs."""
    assert targets(Coord(10, 2), STAIRS) == {
        Position(Coord(9, 2), WALL),
        Position(Coord(10, 1), WALL),
        Position(Coord(11, 2), GROUND),
        Position(Coord(10, 3), GROUND),
    }
    # From a wall position, the ground is reached only through the corner stairs.
    start = Position(Coord(9, 3), WALL)
    seen = {start}
    queue = deque([start])
    via: set[Coord] = set()
    while queue:
        here = queue.popleft()
        for _, there in B.steps(here):
            if there.level is GROUND:
                via.add(here.coord)
                continue
            if there not in seen:
                seen.add(there)
                queue.append(there)
    assert via == set(B.corner_stairs())
    assert {p.coord for p in seen if p.level is WALL} == set(B.walls) | {GATE}
    king = B.king_stairs(DOOR)
    assert all(p.level is not WALL for c in king for p in targets(c, STAIRS))


def test_climbs() -> None:
    """KK-44: from the ground next to a wall (either side), never from stairs or the
    gate's passage."""
    assert B.climbs(Coord(8, 3)) == ((Direction.NORTH, Coord(9, 3)),)
    assert B.climbs(Coord(8, 5)) == ((Direction.NORTH, GATE),), "above the gate"
    assert B.climbs(Coord(12, 0)) == ((Direction.EAST, Coord(12, 1)),), "a side wall"
    assert B.climbs(Coord(11, 2)) == ((Direction.WEST, Coord(11, 1)),), "from inside"
    assert B.climbs(Coord(10, 2)) == (), "stairs need no climbing"
    assert B.climbs(GATE) == ()
    assert B.climbs(Coord(5, 5)) == ()


def test_lines_of_attack() -> None:
    """KK-64 (straight ahead), KK-49/KK-50 (over a wall), KK-67 (the cross)."""
    assert B.line(Coord(6, 5), Direction.NORTH, range(3, 7)) == (
        (3, GATE),
        (4, Coord(10, 5)),
        (5, Coord(11, 5)),
        (6, Coord(12, 5)),
    )
    assert B.line(Coord(1, 1), Direction.WEST, (1, 2, 3)) == ((1, Coord(1, 0)),), "the edge"
    assert B.between(Coord(6, 5), Coord(10, 5)) == (Coord(7, 5), Coord(8, 5), GATE)
    assert B.between(Coord(4, 8), Coord(4, 5)) == (Coord(4, 7), Coord(4, 6))
    assert B.between(Coord(4, 4), Coord(4, 5)) == ()
    with pytest.raises(ValueError, match="not on one row or column"):
        B.between(Coord(0, 0), Coord(1, 1))
    assert B.walls_between(Coord(7, 3), Coord(11, 3)), "over the front wall"
    assert not B.walls_between(Coord(7, 3), Coord(9, 3)), "at the wall itself"
    assert not B.walls_between(Coord(2, 3), Coord(6, 3))
    assert B.walls_between(Coord(12, 0), Coord(12, 4)), "over a side wall"
    assert not B.ruined([(9, 3)]).walls_between(Coord(7, 3), Coord(11, 3))
    assert B.cross(Coord(5, 5)) == (
        Coord(5, 5),
        Coord(6, 5),
        Coord(5, 6),
        Coord(4, 5),
        Coord(5, 4),
    ), "centre, then North, East, South, West"
    assert B.cross(Coord(0, 0)) == (Coord(0, 0), Coord(1, 0), Coord(0, 1))


def test_image_10_the_catapult_cross_geometry() -> None:
    """Scenario S15 (Image 10): a Catapult with 3 spaces between it and the centre
    covers the centre at 5 and its four neighbours at 4."""
    catapult = UNITS[UnitType.CATAPULT].attack
    here = Coord(2, 5)
    ((distance, centre),) = B.line(here, Direction.NORTH, (4,))
    assert len(B.between(here, centre)) == 3
    values = {c: catapult.value_at(distance) for c in B.cross(centre)[:1]}
    values |= {c: catapult.neighbour_value for c in B.cross(centre)[1:]}
    assert values == {
        Coord(6, 5): 5,
        Coord(7, 5): 4,
        Coord(6, 6): 4,
        Coord(5, 5): 4,
        Coord(6, 4): 4,
    }
    assert B.line(here, Direction.NORTH, catapult.distances)[0][1] == Coord(5, 5)
    assert catapult.value_at(2) is None, "at least 2 spaces between"
    assert catapult.value_at(7) is None, "at most 5 spaces between"


def test_zones_per_mode() -> None:
    """KK-2, KK-23, KK-24: each mode's zone layer."""
    ktk = KILL_THE_KING_ZONES
    cols = range(B.cols)
    assert B.zone_squares(ktk, Zone.ATTACKER) == {Coord(r, c) for r in range(3) for c in cols}
    assert B.zone_squares(ktk, Zone.ATTACKER_EXTRA) == {Coord(3, c) for c in cols}
    castle = {s.coord for s in B if (s.inside or s.is_wall) and s.terrain is not Terrain.DOOR}
    assert B.zone_squares(ktk, Zone.DEFENDER) == castle
    outside_walls = {
        s.coord
        for s in B
        if not s.inside and not s.is_wall and any(B.space(*n).is_wall for n in B.around(s.coord))
    }
    assert B.zone_squares(ktk, Zone.DEFENDER_EXTRA) == outside_walls
    assert B.in_play(ktk) == {s.coord for s in B}
    ad = ATTACK_AND_DEFENSE_ZONES
    assert B.zone_squares(ad, Zone.ATTACKER) == {Coord(r, c) for r in range(3) for c in cols}
    assert B.zone_squares(ad, Zone.ATTACKER_EXTRA) == {Coord(3, c) for c in cols}
    assert B.zone_squares(ad, Zone.DEFENDER) == {Coord(r, c) for r in (6, 7, 8) for c in cols}
    assert B.zone_squares(ad, Zone.DEFENDER_EXTRA) == {Coord(5, c) for c in cols}
    with pytest.raises(KeyError, match="no zone layer"):
        B.zones("giga")


def test_attack_and_defense_uses_the_green_rows_only() -> None:
    """KK-8: 'only uses the green spaces on the battlefield, and the castle is not used'."""
    used = B.in_play(ATTACK_AND_DEFENSE_ZONES)
    assert used == {Coord(r, c) for r in range(9) for c in range(B.cols)}
    assert all(B.space(*c).terrain is Terrain.GRASS for c in used)
    corner = Position(Coord(8, 0), GROUND)
    assert Position(Coord(9, 0), GROUND) in targets(corner.coord, GROUND)
    assert {p for _, p in B.steps(corner, within=used)} == {
        Position(Coord(7, 0), GROUND),
        Position(Coord(8, 1), GROUND),
    }, "the castle half's grass is out of play"


def test_ruined_walls_become_grass() -> None:
    """KK-6, KK-52: a destroyed wall or gate is grass any unit may cross."""
    ruined = B.ruined([(9, 3), GATE])
    assert ruined.space(9, 3).terrain is Terrain.GRASS and ruined.space(9, 3).rubble
    assert ruined.space(*GATE).levels == (GROUND,)
    assert Position(Coord(9, 3), GROUND) in {
        p for _, p in ruined.steps(Position(Coord(8, 3), GROUND))
    }
    assert Position(Coord(10, 3), GROUND) in {
        p for _, p in ruined.steps(Position(Coord(9, 3), GROUND))
    }
    assert ruined.climbs(Coord(8, 3)) == ()
    assert ruined.render().splitlines()[6] == ":##*#*####:"
    assert B.space(9, 3).terrain is Terrain.WALL, "the board itself is unchanged"
    assert B.ruined([]) is B
    with pytest.raises(ValueError, match="no wall or gate"):
        B.ruined([(5, 5)])
    with pytest.raises(ValueError, match="no wall or gate"):
        B.ruined([DOOR])


def test_render_round_trips() -> None:
    """KK-7: the whole map renders and loads back equal; the terrain rendering is the
    map's terrain layer."""
    assert load_board(B.render_map()) == B
    assert load_board(STANDARD_MAP) == B
    terrain = STANDARD_MAP.split("[terrain]\n", 1)[1].split("\n\n", 1)[0] + "\n"
    assert B.render() == terrain


def test_render_overlay() -> None:
    """KK-7: one character per unit over the terrain (attacker upper, defender lower)."""
    text = B.render({(0, 5): "K", (9, 5): "a", (15, 4): "n"})
    lines = text.splitlines()
    assert lines[-1] == ".....K....."
    assert lines[6] == ":####a####:"
    assert lines[0] == ":#__n@/__#:"
    with pytest.raises(ValueError, match="one character"):
        B.render({(0, 0): "Ab"})


def test_board_is_immutable_and_hashable() -> None:
    with pytest.raises(AttributeError):
        B.rows = 3  # type: ignore[misc]
    assert hash(B) == hash(load_board(STANDARD_MAP))


# -- the loader's refusals ------------------------------------------------------------------


def _map(terrain_rows: list[str], ktk: list[str] | None = None, ad: list[str] | None = None) -> str:
    rows = len(terrain_rows)
    width = len(terrain_rows[0])
    ktk = ktk if ktk is not None else ["." * width] * rows
    ad = ad if ad is not None else ["." * width] * rows
    return (
        "[terrain]\n"
        + "\n".join(terrain_rows)
        + "\n\n[zones kill_the_king]\n"
        + "\n".join(ktk)
        + "\n\n[zones attack_and_defense]\n"
        + "\n".join(ad)
        + "\n"
    )


SMALL_CASTLE = ["#/@", "#_/", "#^#", "..."]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "no \\[terrain\\] section"),
        ("....\n[terrain]\n....\n", "line 1: map text before the first"),
        ("[terrain\n...\n", "line 1: a section header"),
        ("[walls]\n...\n", "line 1: unknown section \\[walls\\]"),
        ("[terrain]\n...\n[terrain]\n...\n", "line 3: section \\[terrain\\] appears twice"),
        ("[terrain]\n\n[zones kill_the_king]\n.\n", "section \\[terrain\\] has no rows"),
        ("[terrain]\n...\n....\n", "line 3: .* has 4 spaces, expected 3"),
        ("[terrain]\n.x.\n", "line 2: unknown terrain 'x' at row 0, col 1"),
        (_map(["..."], ["...", "..."]), "has 2 rows, the terrain has 1"),
        (_map(["..."], [".."]), "row has 2 spaces, expected 3"),
        (_map(["..."], [".Q."]), "unknown zone 'Q' at row 0, col 1"),
        ("[terrain]\n...\n\n[zones kill_the_king]\n...\n", "no \\[zones attack_and_defense\\]"),
        (_map([".:."]), "reinforcement edge at row 0, col 1"),
        (_map(["#^.", "..."]), "the gate at row 1, col 1 must stand between two wall spaces"),
        (_map(["/@_", "..."]), "needs an outer gate"),
        (_map(["_@_", "#^#"]), "King's Door at row 1, col 1 has no stairs"),
        (_map(["_#_", "..."]), "no stairs next to the walls"),
        (_map(SMALL_CASTLE, ["..D", "...", "...", "..."]), "no unit can be placed on the King"),
        (_map(SMALL_CASTLE, ad=["...", "...", "A..", "..."]), "the attacker sets up outside"),
        (_map(SMALL_CASTLE, ["...", ".a.", "...", "..."]), "the attacker sets up outside"),
    ],
)
def test_loader_rejects_malformed_maps(text: str, message: str) -> None:
    """KK-3: every malformed map is refused with a message saying where and why."""
    with pytest.raises(MapError, match=message):
        load_board(text)


def test_a_small_castle_loads() -> None:
    """The smallest map with every castle feature is accepted (the refusals above are
    each about one fault)."""
    board = load_board(_map(SMALL_CASTLE))
    assert board.doors == (Coord(3, 2),) and board.gates == (Coord(1, 1),)
    assert board.corner_stairs() == (Coord(2, 2), Coord(3, 1))


def test_map_error_is_a_value_error() -> None:
    assert issubclass(MapError, ValueError)


# -- round trip over generated maps ------------------------------------------------------------

_FREE_TERRAIN = "._=+/"
_ZONE = "AaDd.x"


@st.composite
def plain_maps(draw: st.DrawFn) -> str:
    """Castle-less maps of plain terrain with reinforcement edges and any zones (the
    attacker's zones only on grass)."""
    rows = draw(st.integers(1, 6))
    cols = draw(st.integers(2, 7))
    terrain = [[draw(st.sampled_from(_FREE_TERRAIN)) for _ in range(cols)] for _ in range(rows)]
    for line in terrain:
        for col in (0, cols - 1):
            if line[col] == "." and draw(st.booleans()):
                line[col] = ":"
    layers = []
    for _ in range(2):
        layer = []
        for line in terrain:
            zones = ""
            for char in line:
                allowed = _ZONE if char in ".=:" else "Dd.x"
                zones += draw(st.sampled_from(allowed))
            layer.append(zones)
        layers.append(layer)
    return _map(["".join(line) for line in terrain], layers[0], layers[1])


@settings(max_examples=60, deadline=None)
@given(plain_maps())
def test_render_round_trips_generated_maps(text: str) -> None:
    """KK-7: any valid map renders back to a map that loads equal."""
    board = load_board(text)
    assert load_board(board.render_map()) == board
    assert isinstance(board, Board)
