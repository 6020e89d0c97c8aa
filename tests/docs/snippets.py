"""The code blocks of README.md and docs/: found, run, and their shown output checked.

Which blocks run, by the fence's language:

* ``python``: run in order in one interpreter per file (a block may use what
  an earlier block of the same file defined), each in a fresh subprocess
  session of that file;
* ``sh``: run in order in one ``bash`` per file (variables carry over), each
  block with ``set -eo pipefail``: any failing command fails the test;
* ``console``: transcripts. Lines starting with ``$ `` are commands (a
  trailing ``\\`` continues one), run in the same ``bash`` as the file's
  ``sh`` blocks; the lines after a command are its expected output
  (stdout and stderr), compared after normalising (below).

Other fences (``json``, ``js``, ``proto``, plain ``text`` or none) show data
or other languages and are not run. A block that is meant to run but cannot
in the test suite (it installs packages, starts the service that the suite
already runs, or needs a tool that is not a dependency) is preceded by an
HTML comment ``<!-- doc-test: skip: <why> -->``; a skip without a reason is
an error.

The blocks run against a throwaway server (``throneroom-server`` on free
ports, fixture games on, in-memory store): the documented addresses
``127.0.0.1:50051`` (gRPC) and ``127.0.0.1:8080`` (REST) are rewritten to
its addresses in the code and back in the output, ``$THRONEROOM_SERVER``
points at it, and the venv's ``bin`` is first on ``PATH``, as after
``source .venv/bin/activate``.

Normalising shown and real output: game ids (16 hex digits), seat tokens
and 32-hex request ids are replaced by placeholders, trailing spaces and
blank lines are dropped, and ``...`` in the shown output matches anything
(also several lines).
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import textwrap
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DOCS = (ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md")))
RUN = ("python", "sh", "console")
SKIP = re.compile(r"^<!-- doc-test: skip(?::\s*(?P<why>.*?))?\s*-->$")
FENCE = re.compile(r"^(?P<indent>\s*)```(?P<lang>[\w+-]*)\s*$")
GRPC, HTTP = "127.0.0.1:50051", "127.0.0.1:8080"
MARK = "@@doc-test@@"
EXEMPT: dict[tuple[str, str], str] = {}
"""Blocks excused by (file, code) where a marker cannot be written; none now."""


@dataclass(frozen=True)
class Block:
    path: Path
    line: int  # of the opening fence, 1-based
    lang: str
    code: str
    skip: str | None  # the reason, when marked

    @property
    def where(self) -> str:
        return f"{self.path.relative_to(ROOT)}:{self.line}"


def blocks(path: Path) -> list[Block]:
    """Every fenced block of a Markdown file, with the skip marker before it."""
    found: list[Block] = []
    lines = path.read_text().splitlines()
    i = 0
    while i < len(lines):
        match = FENCE.match(lines[i])
        if match is None:
            i += 1
            continue
        indent, lang, start = match["indent"], match["lang"], i
        body: list[str] = []
        i += 1
        while i < len(lines) and lines[i].strip() != "```":
            body.append(lines[i][len(indent) :] if lines[i].startswith(indent) else lines[i])
            i += 1
        previous = next(
            (lines[j].strip() for j in range(start - 1, -1, -1) if lines[j].strip()), ""
        )
        marker = SKIP.match(previous)
        skip = None if marker is None else (marker["why"] or "")
        code = "\n".join(body) + "\n"
        skip = EXEMPT.get((str(path.relative_to(ROOT)), code.strip()), skip)
        found.append(Block(path, start + 1, lang, code, skip))
        i += 1
    return found


def runnable(path: Path) -> list[Block]:
    return [b for b in blocks(path) if b.lang in RUN and b.skip is None]


# -- the environment -----------------------------------------------------------------


@dataclass(frozen=True)
class Server:
    grpc: str
    http: str

    def code(self, text: str) -> str:
        return text.replace(GRPC, self.grpc).replace(HTTP, self.http)

    def output(self, text: str) -> str:
        return text.replace(self.grpc, GRPC).replace(self.http, HTTP)

    def env(self) -> dict[str, str]:
        venv_bin = str(Path(sys.executable).parent)
        env = {k: v for k, v in os.environ.items() if not k.startswith("THRONEROOM_")}
        env.update(
            THRONEROOM_SERVER=self.grpc,
            PATH=f"{venv_bin}{os.pathsep}{env.get('PATH', '')}",
            COLUMNS="100",
            PYTHONUNBUFFERED="1",
        )
        return env


# -- python --------------------------------------------------------------------------


def run_python(session: list[Block], server: Server, cwd: Path) -> None:
    """Run a file's python blocks in order in one interpreter; raise on the first failure."""
    script = ["import sys", "namespace = {'__name__': '__main__'}"]
    for block in session:
        source = server.code(block.code)
        script.append(
            f"print({MARK!r} + {block.where!r}, flush=True)\n"
            f"exec(compile({source!r}, {block.where!r}, 'exec'), namespace)"
        )
    done = subprocess.run(
        [sys.executable, "-c", "\n".join(script)],
        capture_output=True,
        text=True,
        cwd=cwd,
        env=server.env(),
        timeout=300,
        check=False,
    )
    if done.returncode != 0:
        last = done.stdout.rsplit(MARK, 1)[-1].split("\n", 1)[0] if MARK in done.stdout else "?"
        raise AssertionError(
            f"python block at {last} failed:\n{done.stderr[-4000:]}\n{done.stdout[-2000:]}"
        )


# -- shell and transcripts -----------------------------------------------------------


@dataclass(frozen=True)
class Command:
    block: Block
    text: str
    expected: str | None  # None: a sh block, whose output is not compared


def commands(session: list[Block]) -> list[Command]:
    """The shell blocks as commands: a whole sh block is one; a transcript has several."""
    found: list[Command] = []
    for block in session:
        if block.lang == "sh":
            found.append(Command(block, block.code, None))
            continue
        lines = block.code.splitlines()
        i = 0
        while i < len(lines):
            if not lines[i].startswith("$ "):
                raise ValueError(
                    f"{block.where}: transcript line {lines[i]!r} before any $ command"
                )
            text = lines[i][2:]
            while text.endswith("\\") and i + 1 < len(lines):
                i += 1
                text = text + "\n" + lines[i]
            i += 1
            output = []
            while i < len(lines) and not lines[i].startswith("$ "):
                output.append(lines[i])
                i += 1
            found.append(Command(block, text, "\n".join(output)))
    return found


def run_shell(session: list[Block], server: Server, cwd: Path = ROOT) -> list[tuple[Command, str]]:
    """Run the commands in one bash (in the repository, as a reader would);
    each with its real output (stdout and stderr)."""
    steps = commands(session)
    script = []
    for i, step in enumerate(steps):
        body = server.code(step.text)
        if step.expected is None:
            script.append(f"set -eo pipefail\n{body}\nset +eo pipefail")
        else:
            script.append(body)
        script.append(f"printf '\\n{MARK}{i}\\n'")  # on its own line, whatever came before
    done = subprocess.run(
        ["bash", "-c", "exec 2>&1\n" + "\n".join(script)],
        capture_output=True,
        text=True,
        cwd=cwd,
        env=server.env(),
        timeout=300,
        check=False,
    )
    parts = re.split(rf"^{re.escape(MARK)}(\d+)\n", done.stdout, flags=re.M)
    outputs: dict[int, str] = {int(parts[k + 1]): parts[k] for k in range(0, len(parts) - 1, 2)}
    results = []
    for i, step in enumerate(steps):
        if i not in outputs:
            raise AssertionError(
                f"shell block at {step.block.where} failed at:\n{step.text}\n"
                f"output:\n{parts[-1][-4000:]}"
            )
        results.append((step, server.output(outputs[i])))
    return results


PLACEHOLDERS = (
    (re.compile(r"\b\d+\.[A-Za-z0-9_-]{43}\b"), "<seat-token>"),
    (re.compile(r"\b[0-9a-f]{32}\b"), "<id>"),
    (re.compile(r"\b[0-9a-f]{16}\b"), "<game-id>"),
)


def normalise(text: str) -> str:
    for pattern, placeholder in PLACEHOLDERS:
        text = pattern.sub(placeholder, text)
    lines = [line.rstrip() for line in text.splitlines()]
    while lines and not lines[-1]:
        lines.pop()
    return "\n".join(lines)


def matches(expected: str, actual: str) -> bool:
    """True if ``actual`` is what ``expected`` shows (``...`` matching anything)."""
    pattern = ".*?".join(re.escape(part) for part in normalise(expected).split("..."))
    return re.fullmatch(pattern, normalise(actual), re.S) is not None


def check_transcripts(results: list[tuple[Command, str]]) -> None:
    for step, actual in results:
        if step.expected is not None and not matches(step.expected, actual):
            raise AssertionError(
                f"{step.block.where}: `{step.text}` printed\n{textwrap.indent(actual, '    ')}\n"
                f"but the documentation shows\n{textwrap.indent(step.expected, '    ')}"
            )
