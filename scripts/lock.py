"""The dependency lock: constraints.txt, exact versions of everything pip installs.

Usage:
  python scripts/lock.py write VENV_PYTHON   # rewrite constraints.txt from that venv
  python scripts/lock.py drift VENV_PYTHON   # print how that venv differs from the lock

`make lock` writes the lock from .venv-latest (the newest versions the ranges
of pyproject.toml and sdk/pyproject.toml allow, installed by `make test-latest`);
`make test-latest` prints the drift before it runs the tests there. The venv's
own editable projects (throneroom, throneroom-server) are left out: they are
this repository, not dependencies.
"""

from __future__ import annotations

import argparse
import datetime
import re
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LOCK = ROOT / "constraints.txt"
PIN = re.compile(r"^([A-Za-z0-9][A-Za-z0-9._-]*)==(\S+)$")

HEADER = """\
# Exact versions of every runtime and development dependency of the two
# distributions of this repository, throneroom (sdk/pyproject.toml) and
# throneroom-server (pyproject.toml), and of pip and setuptools: what pip
# resolved from their ranges on {date} with Python {python}.
# Used as pip constraints (-c constraints.txt) by make install/test (hence CI,
# .ci/run) and by deploy/Dockerfile. To move on: `make test-latest` (the newest
# versions the ranges allow, in .venv-latest, with the drift printed), then
# `make lock` (rewrites this file from .venv-latest). Do not edit by hand.
"""


def normalize(name: str) -> str:
    """A distribution name as PEP 503 compares them."""
    return re.sub(r"[-_.]+", "-", name).lower()


def installed(python: str) -> dict[str, tuple[str, str]]:
    """normalized name -> (name, version) of every non-editable distribution in a venv."""
    out = subprocess.run(
        [python, "-m", "pip", "freeze", "--all", "--exclude-editable"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    pins: dict[str, tuple[str, str]] = {}
    for line in out.splitlines():
        match = PIN.match(line.strip())
        if match is not None:
            pins[normalize(match[1])] = (match[1], match[2])
        elif line.strip() and not line.startswith("#"):
            raise SystemExit(f"cannot lock {line!r}: not a released version")
    return pins


def locked() -> dict[str, tuple[str, str]]:
    """normalized name -> (name, version) of constraints.txt."""
    pins: dict[str, tuple[str, str]] = {}
    for line in LOCK.read_text().splitlines():
        match = PIN.match(line.strip())
        if match is not None:
            pins[normalize(match[1])] = (match[1], match[2])
    return pins


def write(python: str) -> None:
    pins = installed(python)
    version = subprocess.run(
        [python, "-c", "import platform; print(platform.python_version())"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout.strip()
    today = datetime.datetime.now(datetime.UTC).date().isoformat()
    lines = [f"{name}=={ver}" for _, (name, ver) in sorted(pins.items())]
    LOCK.write_text(HEADER.format(date=today, python=version) + "\n".join(lines) + "\n")
    print(f"wrote {LOCK.relative_to(ROOT)}: {len(lines)} pins")


def drift(python: str) -> None:
    have, pinned = installed(python), locked()
    changes = []
    for key in sorted(have.keys() | pinned.keys()):
        old = pinned[key][1] if key in pinned else "(not locked)"
        new = have[key][1] if key in have else "(not installed)"
        if old != new:
            changes.append(f"  {(have.get(key) or pinned[key])[0]}: {old} -> {new}")
    if changes:
        print("newest allowed versions differ from constraints.txt:")
        print("\n".join(changes))
    else:
        print("constraints.txt is up to date with the newest allowed versions")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("action", choices=["write", "drift"])
    parser.add_argument("python", help="the python of the virtual environment to read")
    args = parser.parse_args()
    if args.action == "write":
        write(args.python)
    else:
        drift(args.python)


if __name__ == "__main__":
    main()
