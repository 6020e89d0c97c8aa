"""Every code block of README.md and docs/ that is meant to run is run, and
every transcript's output is what the documentation shows (tests/docs/snippets.py
says how). The runner's own checks are proven by planted defects below."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.docs.snippets import (
    DOCS,
    ROOT,
    RUN,
    Block,
    Server,
    blocks,
    check_transcripts,
    matches,
    run_python,
    run_shell,
    runnable,
)

WITH_PYTHON = [p for p in DOCS if any(b.lang == "python" for b in runnable(p))]
WITH_SHELL = [p for p in DOCS if any(b.lang in ("sh", "console") for b in runnable(p))]


def _id(path: Path) -> str:
    return str(path.relative_to(ROOT))


@pytest.mark.parametrize("path", WITH_PYTHON, ids=_id)
def test_python_blocks_run(path: Path, doc_server: Server, workdir: Path) -> None:
    run_python([b for b in runnable(path) if b.lang == "python"], doc_server, workdir)


@pytest.mark.parametrize("path", WITH_SHELL, ids=_id)
def test_shell_blocks_run_and_transcripts_match(path: Path, doc_server: Server) -> None:
    session = [b for b in runnable(path) if b.lang in ("sh", "console")]
    check_transcripts(run_shell(session, doc_server))


def test_every_block_not_run_says_why() -> None:
    for path in DOCS:
        for block in blocks(path):
            if block.lang in RUN and block.skip is not None:
                assert len(block.skip) > 10, f"{block.where}: a skip marker needs a reason"
            assert block.lang in (*RUN, "json", "js", "proto", "text", ""), (
                f"{block.where}: fence language {block.lang!r} is neither run nor data; "
                "use sh for shell commands"
            )


def test_the_readme_and_the_guides_are_covered() -> None:
    covered = {_id(p) for p in WITH_PYTHON + WITH_SHELL}
    assert {"README.md", "docs/sdk.md", "docs/bots.md", "docs/rest.md"} <= covered


# -- the runner, proven by planted defects ------------------------------------------------


def _block(tmp_path: Path, lang: str, code: str) -> Block:
    path = ROOT / "docs" / "planted.md"  # only named; never written
    return Block(path, 1, lang, code, None)


def test_a_transcript_with_stale_output_fails(doc_server: Server, workdir: Path) -> None:
    good = _block(
        workdir,
        "console",
        "$ echo game 0123456789abcdef at 127.0.0.1:50051\ngame ... at 127.0.0.1:50051\n",
    )
    check_transcripts(run_shell([good], doc_server, workdir))
    stale = _block(workdir, "console", "$ echo nextFromVersion 0\nnextFromVersion 1\n")
    with pytest.raises(AssertionError, match="but the documentation shows"):
        check_transcripts(run_shell([stale], doc_server, workdir))


def test_a_failing_shell_command_fails(doc_server: Server, workdir: Path) -> None:
    broken = _block(workdir, "sh", "true\nfalse\necho never\n")
    with pytest.raises(AssertionError, match=r"shell block at docs/planted\.md:1 failed"):
        run_shell([broken], doc_server, workdir)


def test_a_failing_python_block_fails(doc_server: Server, workdir: Path) -> None:
    first = _block(workdir, "python", "x = 1\n")
    broken = _block(workdir, "python", "from throneroom import Client\nClient().nope()\n")
    run_python([first], doc_server, workdir)
    with pytest.raises(AssertionError, match="AttributeError"):
        run_python([first, broken], doc_server, workdir)


def test_output_is_compared_after_normalising() -> None:
    token = "0." + "A" * 43
    assert matches(f"seat 0 token {token}", "seat 0 token 1." + "b" * 43)
    assert matches("game 180d27e260fb2057 (nim)", "game 0123456789abcdef (nim)")
    assert matches("a\n...\nz", "a\nb\nc\nz\n\n")
    assert not matches("a\nz", "a\nb\nz")
    assert not matches("version 1", "version 0")
