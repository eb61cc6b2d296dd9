"""The `rulesheets` command's entry point: signal handlers first, then the (slower) imports of the CLI.

A Ctrl-C, SIGTERM or SIGHUP while Python imports the command line (a third of a second, more on a
busy machine) ends the run with the same one line and exit code as later on, not a traceback or a
silent death; nothing has been written yet. From `generator.cli.main` on, `core.lifecycle` handles them.
"""

from __future__ import annotations

import signal
import sys


class _Early(KeyboardInterrupt):
    def __init__(self, signum: int):
        super().__init__(signum)
        self.signum = signum


def _early(signum, frame) -> None:
    raise _Early(signum)


#: lifecycle.SIGNALS, before that module (and what it imports) is loaded.
SIGNALS = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)


def main() -> int:
    for signum in SIGNALS:
        signal.signal(signum, _early)
    try:
        from generator.cli import main as run
    except _Early as exc:
        signal.pthread_sigmask(signal.SIG_BLOCK, SIGNALS)  # the line's own import is not to be cut short
        from generator.core.lifecycle import stopped_line

        print(stopped_line(exc.signum), file=sys.stderr)
        return 128 + exc.signum
    return run()


if __name__ == "__main__":
    sys.exit(main())
