"""Build progress: a rich progress bar on a terminal, plain lines elsewhere (CI, pipes)."""

from __future__ import annotations

import sys


class Progress:
    def __init__(self, stream=None):
        self.stream = stream = stream if stream is not None else sys.stderr  # the stream of now, not of import time
        self.tty = stream.isatty()
        self._bar = None
        self._task = None
        self.done = 0
        self.total = 0

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        if self._bar is not None:
            self._bar.stop()
        return False

    def start(self, total: int) -> None:
        self.total = total
        if self.tty and total:
            from rich.progress import BarColumn, MofNCompleteColumn, Progress as Bar, TextColumn, TimeElapsedColumn

            self._bar = Bar(TextColumn("rendering"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                            TextColumn("{task.description}"), transient=True)
            self._bar.start()
            self._task = self._bar.add_task("", total=total)

    def advance(self, name: str) -> None:
        self.done += 1
        if self._bar is not None:
            self._bar.update(self._task, advance=1, description=name)
        else:
            print(f"[{self.done}/{self.total}] {name}", file=self.stream, flush=True)
