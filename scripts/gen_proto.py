"""Regenerate game.proto's per-game lines from its games block, then the Python
modules of the contract from proto/ into sdk/throneroom/v1/.

Usage: python scripts/gen_proto.py [--check]

game.proto names each game on one line of its games block; its imports and
envelope entries are written from that block (throneroom_dev/game_proto.py
says how). --check changes nothing: it fails when game.proto's generated lines
differ from its block, or when the committed modules differ from what protoc
writes into a temporary folder (make lint and CI use it so stale generated
code cannot land).
"""

from __future__ import annotations

import argparse
import filecmp
import shutil
import sys
import tempfile
from pathlib import Path

from grpc_tools import protoc  # type: ignore[import-untyped]

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # run as a script from a checkout: throneroom_dev is there

from throneroom_dev.game_proto import GameProtoError, render, stale  # noqa: E402

PROTO_ROOT = ROOT / "proto"
GAME_PROTO = PROTO_ROOT / "throneroom" / "v1" / "game.proto"
OUT_PACKAGE = ROOT / "sdk"
GENERATED = OUT_PACKAGE / "throneroom" / "v1"


def _generate(out: Path) -> None:
    protos = sorted(
        str(p.relative_to(PROTO_ROOT)) for p in (PROTO_ROOT / "throneroom" / "v1").glob("*.proto")
    )
    include = Path(protoc.__file__).resolve().parent / "_proto"
    bindir = Path(sys.executable).parent
    args = [
        "protoc",
        f"--plugin=protoc-gen-mypy={bindir / 'protoc-gen-mypy'}",
        f"--plugin=protoc-gen-mypy_grpc={bindir / 'protoc-gen-mypy_grpc'}",
        f"-I{PROTO_ROOT}",
        f"-I{include}",
        f"--python_out={out}",
        f"--mypy_out={out}",
        f"--grpc_python_out={out}",
        f"--mypy_grpc_out={out}",
        *protos,
    ]
    code = protoc.main(args)
    if code != 0:
        raise SystemExit(f"protoc failed with exit code {code}")
    # Only service.proto declares a service: drop the empty gRPC modules.
    for path in (out / "throneroom" / "v1").glob("*_pb2_grpc.py*"):
        if not path.name.startswith("service_"):
            path.unlink()
    (out / "throneroom" / "v1" / "__init__.py").write_text(
        '"""Generated protobuf and gRPC modules of the throneroom.v1 contract."""\n'
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--check", action="store_true", help="fail if generated files are stale")
    ns = parser.parse_args()
    text = GAME_PROTO.read_text()
    try:
        if ns.check:
            problems = stale(text)
            if problems:
                print(*problems, "run `make proto` and commit", sep="\n", file=sys.stderr)
                return 1
        elif (fresh_text := render(text)) != text:
            GAME_PROTO.write_text(fresh_text)
    except GameProtoError as e:
        print(f"{GAME_PROTO.relative_to(ROOT)}: {e}", file=sys.stderr)
        return 1
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp)
        _generate(out)
        fresh = out / "throneroom" / "v1"
        if ns.check:
            names = sorted(p.name for p in fresh.iterdir())
            committed = sorted(p.name for p in GENERATED.iterdir() if p.is_file())
            _, mismatch, errors = filecmp.cmpfiles(fresh, GENERATED, names, shallow=False)
            if mismatch or errors or names != committed:
                print(
                    "generated code is stale; run `make proto` and commit:",
                    mismatch + errors + sorted(set(names) ^ set(committed)),
                    file=sys.stderr,
                )
                return 1
            return 0
        # Replace file by file (no window without the package for a concurrent import).
        GENERATED.mkdir(parents=True, exist_ok=True)
        for path in GENERATED.iterdir():
            if path.is_file() and not (fresh / path.name).exists():
                path.unlink()
        for path in fresh.iterdir():
            shutil.copy2(path, GENERATED / path.name)
    return 0


if __name__ == "__main__":
    sys.exit(main())
