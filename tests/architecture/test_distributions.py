"""The two distributions and the lock: what each wheel declares and contains,
the versions and ranges of pyproject.toml and sdk/pyproject.toml, and
constraints.txt pinning every dependency exactly.

The wheels are built from a copy of the sources (``pip wheel --no-deps
--no-build-isolation``: offline, with the pinned setuptools of the venv).
"""

from __future__ import annotations

import ast
import re
import shutil
import subprocess
import sys
import tomllib
import zipfile
from collections.abc import Iterator
from email.parser import Parser
from importlib import metadata
from pathlib import Path

import pytest
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name
from packaging.version import Version
from throneroom.games.messages import game_types_of
from throneroom.v1 import game_pb2

ROOT = Path(__file__).resolve().parents[2]
SDK_ALLOWED = {"grpcio", "protobuf", "googleapis-common-protos"}
# The optional extras: `throneroom[cli]` adds the terminal library of the
# interactive commands, `throneroom[tournament]` the ratings of tournaments
# (openskill) and their table (rich), `throneroom[websocket]` play sessions on a
# WebSocket (aiohttp); imported lazily, the SDK never needs them.
SDK_EXTRAS = {"cli": {"rich"}, "tournament": {"openskill", "rich"}, "websocket": {"aiohttp"}}
# The server's one extra: `throneroom-server[rl]`, what throneroom_rl needs
# (the PettingZoo and OpenSpiel adapters; rich for their ansi boards).
SERVER_EXTRAS = {"rl": {"numpy", "gymnasium", "pettingzoo", "open-spiel", "rich"}}
IGNORE = shutil.ignore_patterns("__pycache__", "*.pyc", "*.egg-info", "build", "dist")


def _project(path: Path) -> dict[str, object]:
    project: dict[str, object] = tomllib.loads(path.read_text())["project"]
    return project


SDK = _project(ROOT / "sdk" / "pyproject.toml")
SERVER = _project(ROOT / "pyproject.toml")


def _requirements(
    project: dict[str, object], *, dev: bool = False, extras: bool = False
) -> list[Requirement]:
    deps = list(project["dependencies"])  # type: ignore[call-overload]
    if extras:
        for extra in project.get("optional-dependencies", {}).values():  # type: ignore[attr-defined]
            deps += extra
    if dev:
        groups = tomllib.loads((ROOT / "pyproject.toml").read_text())["dependency-groups"]
        deps += groups["dev"]
    return [Requirement(dep) for dep in deps]


def _version_in_source(path: Path) -> str:
    for node in ast.parse(path.read_text()).body:
        if isinstance(node, ast.Assign) and any(
            isinstance(t, ast.Name) and t.id == "__version__" for t in node.targets
        ):
            assert isinstance(node.value, ast.Constant)
            return str(node.value.value)
    raise AssertionError(f"no __version__ in {path}")


def _locked() -> dict[str, Version]:
    pins: dict[str, Version] = {}
    for line in (ROOT / "constraints.txt").read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            name, sep, version = line.partition("==")
            assert sep and re.fullmatch(r"[A-Za-z0-9._-]+", name), f"not an exact pin: {line!r}"
            pins[canonicalize_name(name)] = Version(version)
    return pins


# -- the wheels -------------------------------------------------------------------------


class Wheel:
    def __init__(self, path: Path) -> None:
        self.path = path
        with zipfile.ZipFile(path) as archive:
            self.files = archive.namelist()
            info = next(n for n in self.files if n.endswith(".dist-info/METADATA"))
            self.metadata = Parser().parsestr(archive.read(info).decode())
            points = next(n for n in self.files if n.endswith(".dist-info/entry_points.txt"))
            self.entry_points = archive.read(points).decode()

    @property
    def requires(self) -> list[Requirement]:
        return [Requirement(r) for r in self.metadata.get_all("Requires-Dist") or []]

    @property
    def top_level(self) -> set[str]:
        return {name.split("/")[0] for name in self.files if ".dist-info/" not in name}


def _build(source: Path, out: Path) -> Wheel:
    pip_wheel = [sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps"]
    subprocess.run(
        [*pip_wheel, "--no-build-isolation", "--wheel-dir", str(out), str(source)],
        check=True,
        capture_output=True,
    )
    (wheel,) = out.glob("*.whl")
    return Wheel(wheel)


@pytest.fixture(scope="module")
def wheels(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Wheel, Wheel]]:
    tmp = tmp_path_factory.mktemp("wheels")
    sdk_src, server_src = tmp / "src-sdk", tmp / "src-server"
    shutil.copytree(ROOT / "sdk", sdk_src, ignore=IGNORE)
    server_src.mkdir()
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(ROOT / name, server_src / name)
    shutil.copytree(ROOT / "service", server_src / "service", ignore=IGNORE)
    yield _build(sdk_src, tmp / "sdk"), _build(server_src, tmp / "server")


def test_sdk_wheel_requires_only_grpcio_protobuf_and_googleapis(
    wheels: tuple[Wheel, Wheel],
) -> None:
    sdk, _ = wheels
    assert sdk.metadata["Name"] == "throneroom"
    base = [r for r in sdk.requires if r.marker is None]
    assert {canonicalize_name(r.name) for r in base} == SDK_ALLOWED
    assert all(not r.extras for r in sdk.requires)
    assert sdk.metadata.get_all("Provides-Extra") == list(SDK_EXTRAS)
    for extra, allowed in SDK_EXTRAS.items():
        only = [
            r for r in sdk.requires if r.marker is not None and r.marker.evaluate({"extra": extra})
        ]
        assert {canonicalize_name(r.name) for r in only} == allowed
    marked = [r for r in sdk.requires if r.marker is not None]
    assert all(any(r.marker.evaluate({"extra": e}) for e in SDK_EXTRAS) for r in marked)  # type: ignore[union-attr]


def test_sdk_wheel_holds_the_sdk_and_nothing_of_the_server(wheels: tuple[Wheel, Wheel]) -> None:
    sdk, _ = wheels
    assert sdk.top_level == {"throneroom"}
    assert not any("throneroom_server" in name for name in sdk.files)
    for needed in ("throneroom/py.typed", "throneroom/cli.py", "throneroom/v1/game_pb2.pyi"):
        assert needed in sdk.files
    assert "throneroom = throneroom.cli:main" in sdk.entry_points
    assert "throneroom-server" not in sdk.entry_points


def test_server_wheel_depends_on_this_sdk_and_holds_only_the_server(
    wheels: tuple[Wheel, Wheel],
) -> None:
    sdk, server = wheels
    assert server.metadata["Name"] == "throneroom-server"
    pins = {canonicalize_name(r.name): r for r in server.requires}
    assert str(pins["throneroom"].specifier) == f"=={sdk.metadata['Version']}"
    assert {"redis", "structlog", "aiohttp", "grpcio-status"} <= pins.keys()
    # The SDK's files come from its own wheel; throneroom_rl is the server's rl adapters.
    assert server.top_level == {"throneroom_server", "throneroom_rl"}
    assert "throneroom_rl/py.typed" in server.files
    assert server.metadata.get_all("Provides-Extra") == list(SERVER_EXTRAS)
    for extra, allowed in SERVER_EXTRAS.items():
        only = [
            r
            for r in server.requires
            if r.marker is not None and r.marker.evaluate({"extra": extra})
        ]
        assert {canonicalize_name(r.name) for r in only} == allowed
    assert "throneroom_server/store/lua/commit.lua" in server.files
    assert "throneroom_server/py.typed" in server.files
    # Each game's web board ships in its package (served as /web/js/boards/<game>.js).
    boards = {n for n in server.files if re.fullmatch(r"throneroom_server/games/\w+/board\.js", n)}
    assert {
        f"throneroom_server/games/{g}/board.js" for g in game_types_of(game_pb2.GameState)
    } <= boards
    assert "throneroom-server = throneroom_server.main:main" in server.entry_points
    assert "throneroom = " not in server.entry_points
    # Only what serves: no test, benchmark or development helper (throneroom_dev).
    helpers = [n for n in server.files if re.search(r"devtools|golden|conftest|/tests?/|bench", n)]
    assert helpers == []


# -- versions and ranges ----------------------------------------------------------------


def test_one_version_everywhere() -> None:
    sdk_version = _version_in_source(ROOT / "sdk" / "throneroom" / "__init__.py")
    server_version = _version_in_source(ROOT / "service" / "throneroom_server" / "__init__.py")
    pin = next(r for r in _requirements(SERVER) if r.name == "throneroom")
    assert SDK["version"] == sdk_version == SERVER["version"] == server_version
    assert str(pin.specifier) == f"=={sdk_version}"


@pytest.mark.parametrize("project", [SDK, SERVER], ids=["sdk", "server"])
def test_runtime_ranges_end_before_the_next_major_of_the_locked_version(
    project: dict[str, object],
) -> None:
    locked = _locked()
    for req in _requirements(project, extras=True):
        if req.name == "throneroom":
            continue  # the SDK of the same release, pinned exactly
        version = locked[canonicalize_name(req.name)]
        assert version in req.specifier, f"{req}: the locked {version} is outside the range"
        uppers = [s.version for s in req.specifier if s.operator == "<"]
        assert uppers == [str(version.major + 1)], f"{req}: no upper bound at the next major"


def test_lower_bounds_admit_no_runtime_the_generated_code_refuses() -> None:
    v1 = ROOT / "sdk" / "throneroom" / "v1"
    match = re.search(r"^# Protobuf Python Version: (\S+)$", (v1 / "game_pb2.py").read_text(), re.M)
    grpc_match = re.search(
        r"^GRPC_GENERATED_VERSION = '(\S+)'$", (v1 / "service_pb2_grpc.py").read_text(), re.M
    )
    assert match is not None and grpc_match is not None
    generated = {"protobuf": Version(match[1]), "grpcio": Version(grpc_match[1])}
    for project in (SDK, SERVER):
        for req in _requirements(project):
            if req.name in generated:
                lowers = [Version(s.version) for s in req.specifier if s.operator == ">="]
                assert lowers and min(lowers) >= generated[req.name], (
                    f"{req} admits versions older than the generated code's {generated[req.name]}"
                )


# -- the lock ---------------------------------------------------------------------------


def _closure(requirements: list[Requirement]) -> set[str]:
    """Every distribution the requirements pull in, read from the installed metadata."""
    seen: set[str] = set()
    todo = [req for req in requirements if req.marker is None or req.marker.evaluate()]
    while todo:
        req = todo.pop()
        name = canonicalize_name(req.name)
        if name in seen:
            continue
        seen.add(name)
        for raw in metadata.distribution(req.name).requires or []:
            dep = Requirement(raw)
            wanted = ("", *req.extras)  # the extras asked for, as in redis[hiredis]
            if dep.marker is None or any(dep.marker.evaluate({"extra": e}) for e in wanted):
                todo.append(dep)
    return seen


def test_the_lock_pins_every_dependency_of_both_distributions_exactly() -> None:
    ours = {"throneroom", "throneroom-server"}
    everything = _requirements(SDK, extras=True) + _requirements(SERVER, dev=True, extras=True)
    needed = _closure(everything) - ours
    needed |= {"pip", "setuptools"}  # the installers themselves (make install, Dockerfile)
    locked = set(_locked())
    assert sorted(needed - locked) == [], "not pinned: run make lock"
    assert sorted(locked - needed) == [], "pinned but no longer needed: run make lock"


def test_make_ci_and_the_image_install_with_the_lock() -> None:
    makefile = (ROOT / "Makefile").read_text()
    assert "CONSTRAINTS := constraints.txt" in makefile
    assert (
        "pip install --quiet -c $(CONSTRAINTS)"
        " -e './sdk[cli,tournament,websocket]' -e '.[rl]' --group dev" in makefile
    )
    ci = (ROOT / ".ci" / "run").read_text().splitlines()
    assert "make lint" in ci and "make test" in ci
    dockerfile = re.sub(r"\\\n\s*", " ", (ROOT / "deploy" / "Dockerfile").read_text())
    commands = [c.strip() for line in dockerfile.splitlines() for c in line.split("&&")]
    pip_commands = [c for c in commands if re.match(r"(RUN )?pip (install|wheel) ", c)]
    assert len(pip_commands) == 3  # the installers, the wheels, the image's install
    assert all(re.search(r" -c \S*constraints\.txt ", c) for c in pip_commands), pip_commands
