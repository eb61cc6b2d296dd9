"""Every document's render has a budget of time and memory: over it, that artifact fails in one line.

The layout searches are bounded by their own budgets (render/fit.py); these are the last line, for
whatever else could run away: a document that takes longer than SECONDS of CPU to render, or a worker
whose heap passes MEGABYTES, fails with its name (exit 1, nothing published) instead of hanging or
taking the machine's memory. The slowest document of a full build (a 48-player kit) takes about
10 s and 270 MB: the budgets leave room for a machine several times slower.
"""

from __future__ import annotations

import contextlib
import os
import signal
import threading

from generator.core.errors import RulesheetsError

#: CPU seconds one document may take to render (its fitting and gate included).
SECONDS = 120
#: The heap one rendering worker process may reach (RLIMIT_DATA), in MB.
MEGABYTES = 2048


class OverBudget(RulesheetsError):
    """A document took more time or memory than its budget allows."""

    exit_code = 1


class _Expired(BaseException):
    """Raised by the timer inside the render; a BaseException so that no `except Exception` swallows it."""


_main_pid = os.getpid()
_limited: set[int] = set()


def _on_timer(signum, frame):
    raise _Expired()


def _limit_memory() -> None:
    """Cap this process's heap, once, in a worker process only (the main process keeps the user's limits)."""
    pid = os.getpid()
    if pid == _main_pid or pid in _limited:
        return
    _limited.add(pid)
    with contextlib.suppress(ImportError, ValueError, OSError):
        import resource

        soft, hard = resource.getrlimit(resource.RLIMIT_DATA)
        want = MEGABYTES * 1024 * 1024
        if hard == resource.RLIM_INFINITY or hard >= want:
            resource.setrlimit(resource.RLIMIT_DATA, (want, hard))


@contextlib.contextmanager
def limits(name: str, seconds: float = SECONDS):
    """Render `name` within the budgets: OverBudget (one line naming it) past either of them.

    The CPU timer needs the main thread (signals); elsewhere (serve's preview threads) only the
    layout searches' own bounds apply.
    """
    _limit_memory()
    timed = threading.current_thread() is threading.main_thread() and hasattr(signal, "setitimer")
    if timed:
        old = signal.signal(signal.SIGPROF, _on_timer)
        signal.setitimer(signal.ITIMER_PROF, seconds)
    try:
        yield
    except _Expired:
        raise OverBudget(f"{name}: rendering took more than its budget of {seconds:g} s of CPU") from None
    except MemoryError:
        raise OverBudget(f"{name}: rendering needed more than its budget of {MEGABYTES} MB of memory") from None
    finally:
        if timed:
            signal.setitimer(signal.ITIMER_PROF, 0)
            signal.signal(signal.SIGPROF, old)
