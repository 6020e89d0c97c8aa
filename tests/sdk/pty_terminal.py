"""A child process on a pseudo-terminal of a given size, read and typed into
(the terminal tests' driver: no tmux needed, stdlib only)."""

from __future__ import annotations

import fcntl
import os
import re
import select
import struct
import subprocess
import termios
import time

ANSI = re.compile(r"\x1b(\[[0-9;?]*[A-Za-z]|[=>]|\][^\x07]*\x07)")


class Terminal:
    """``argv`` on a ``rows`` x ``cols`` pseudo-terminal."""

    def __init__(self, argv: list[str], *, rows: int = 50, cols: int = 140) -> None:
        self.master, slave = os.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, 0, 0))
        env = {**os.environ, "TERM": "xterm-256color", "COLUMNS": str(cols), "LINES": str(rows)}
        env.pop("THRONEROOM_SERVER", None)
        self.process = subprocess.Popen(
            argv, stdin=slave, stdout=slave, stderr=slave, env=env, close_fds=True
        )
        os.close(slave)
        self.raw = b""

    @property
    def screen(self) -> str:
        """Everything printed so far, without colours (escapes may span reads)."""
        return ANSI.sub("", self.raw.decode("utf-8", "replace")).replace("\r", "")

    def read_until(self, marker: str, *, patience: float = 60.0) -> str:
        """Everything printed until ``marker`` appears (or the child ends)."""
        start = len(self.screen)
        deadline = time.monotonic() + patience  # only against a hang; nothing asserts on time
        while marker not in self.screen[start:]:
            if time.monotonic() > deadline:
                raise AssertionError(f"no {marker!r} after:\n{self.screen[-3000:]}")
            ready, _, _ = select.select([self.master], [], [], 0.5)
            if not ready:
                if self.process.poll() is not None:
                    break
                continue
            try:
                chunk = os.read(self.master, 65536)
            except OSError:  # the child closed the terminal
                break
            if not chunk:
                break
            self.raw += chunk
        return self.screen[start:]

    def type(self, line: str) -> None:
        """``line`` and Enter."""
        self.keys(line + "\r")

    def keys(self, keys: str) -> None:
        """Keys as they are (escape sequences for the arrows: ``\\x1b[D`` is Left)."""
        os.write(self.master, keys.encode())

    def close(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
        self.process.wait(30)
        os.close(self.master)
