"""How one run of rulesheets begins and ends: signals, worker processes and the run's temporary folder.

- SIGTERM and SIGHUP end a run as Ctrl-C does: the signal becomes `Stopped` (a KeyboardInterrupt)
  in the main thread, so every `finally` and `except BaseException` that protects the output
  runs; the command line prints one line and exits 128 + the signal's number.
- Worker processes (PDF rendering, the site's fonts) die with their parent whatever ends it: each
  asks the kernel for SIGKILL when its parent goes (Linux `prctl(PR_SET_PDEATHSIG)`), ignores
  the signals its parent handles, and the parent kills its pools when it stops.
- A forked child never keeps a file descriptor registered with `keep_from_children` (the output
  lock), so a worker can never hold the lock of the build that started it.
- A signal that comes while a worker is forked is recorded, not raised: raised there, logging's
  at-fork hook would print it as "Exception ignored" and drop it. Recorded signals (and any whose
  exception another callback dropped) are raised by `stop_if_signalled` where the run moves forward.
- A signal that comes once the command has returned (while `finish` cleans up, or at interpreter
  exit) is recorded and no longer raised: the work is done, and an exception raised there would be
  printed as "Exception ignored" by whatever callback it lands in (a weakref's, a finalizer's).
- Each run has its own temporary folder (`rulesheets-PID-*` in the system's); everything the
  libraries write there (WeasyPrint's fonts) goes when the run ends, and a later run removes the
  folders of runs that were killed outright.
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import re
import shutil
import signal
import sys
import tempfile
import weakref
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

#: The signals that end a run cleanly.
SIGNALS = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)
_PR_SET_PDEATHSIG = 1
_RUN_FOLDER = re.compile(r"rulesheets-(\d+)-[a-z0-9_]+")


class Stopped(KeyboardInterrupt):
    """The run was asked to stop by a signal (Ctrl-C is SIGINT)."""

    def __init__(self, signum: int):
        super().__init__(signum)
        self.signum = signum


#: The pid of the process that called `start`: a forked child that inherited the handlers is not it.
_main_pid: int | None = None
#: The last signal received; libraries that turn a signal into a plain KeyboardInterrupt lose it.
received: int | None = None
_children_close: set[int] = set()
_pools: weakref.WeakSet = weakref.WeakSet()
_run_folder: Path | None = None
_folder_owner: int | None = None
#: True from the moment `finish` begins: see the module's docstring.
_late = False
#: True while this process forks a worker: its at-fork hooks (logging's) would drop an exception.
_forking = False


def signal_name(signum: int) -> str:
    return signal.Signals(signum).name


def stopped_line(signum: int) -> str:
    """The one line a build, kit or check ends with when a signal stops it."""
    how = "interrupted" if signum == signal.SIGINT else f"stopped by {signal_name(signum)}"
    return f"rulesheets: {how}; nothing was left half-written"


def exit_code(exc: BaseException | None = None) -> int:
    """128 + the signal that stopped the run (SIGINT when none was recorded: a plain Ctrl-C)."""
    signum = getattr(exc, "signum", None) or received or signal.SIGINT
    return 128 + int(signum)


def _on_signal(signum, frame) -> None:
    global received
    if os.getpid() != _main_pid:  # a forked child before its initializer ran: just go
        os._exit(128 + signum)
    received = signum
    if not _late and not _forking:  # while forking: stop_if_signalled raises it once the fork is done
        raise Stopped(signum)


def stop_if_signalled() -> None:
    """Raise `Stopped` for a signal received earlier whose exception never reached the run: raised inside
    a callback that reports and drops exceptions (seen in logging's at-fork hook, as a worker was forked),
    it was printed as "Exception ignored" and the build went on. Called where a run moves forward: as
    each PDF comes back (`checked`), and before the output is swapped in."""
    if received is not None and not _late:
        raise Stopped(received)


def checked(results):
    """Each of `results` (a pool's map), after `stop_if_signalled`: the step forward of a run that waits
    on its workers, where a signal that came while one of them was forked is raised."""
    for result in results:
        stop_if_signalled()
        yield result


def start() -> None:
    """Called once by the command line before any work: handlers, and the run's temporary folder."""
    global _main_pid, _late, received
    _main_pid = os.getpid()
    _late, received = False, None
    for signum in SIGNALS:
        with contextlib.suppress(ValueError, OSError):  # not the main thread (tests calling main())
            signal.signal(signum, _on_signal)
    _sweep_dead_runs()
    with contextlib.suppress(OSError):
        tempfile.tempdir = str(run_folder())  # forked workers inherit it


#: The system's temporary folder, before `start` points `tempfile` at the run's own.
SYSTEM_TMP = tempfile.gettempdir()


def is_run_folder(path: Path) -> bool:
    """Whether `path` lies in this run's temporary folder (the cache's fallback)."""
    return _run_folder is not None and Path(path).is_relative_to(_run_folder)


def shared_lock_folder() -> Path:
    """Where output locks go when the cache cannot hold them: one folder per user in the system's temp."""
    folder = Path(SYSTEM_TMP) / f"rulesheets-locks-{os.getuid()}"
    folder.mkdir(mode=0o700, exist_ok=True)
    st = folder.lstat()
    if not os.path.isdir(folder) or folder.is_symlink() or st.st_uid != os.getuid():
        raise OSError(13, "Permission denied (not this user's own folder)", str(folder))
    return folder


def run_folder() -> Path:
    """This run's own temporary folder (made on first use; removed by `finish`)."""
    global _run_folder
    if _run_folder is None:
        global _folder_owner
        _run_folder = Path(tempfile.mkdtemp(prefix=f"rulesheets-{os.getpid()}-"))
        _folder_owner = os.getpid()
    return _run_folder


def finish() -> None:
    """Called when the run ends, however: kill pools still running, remove the temporary folder."""
    global _run_folder, _late
    _late = True
    for pool in list(_pools):
        kill_pool(pool)
    if _run_folder is not None and os.getpid() in (_main_pid, _folder_owner):
        if tempfile.tempdir == str(_run_folder):
            tempfile.tempdir = None
        shutil.rmtree(_run_folder, ignore_errors=True)
        _run_folder = None


def _sweep_dead_runs() -> None:
    """Remove the temporary folders of earlier runs that were killed (their process is gone)."""
    root = Path(tempfile.gettempdir())
    try:
        entries = list(os.scandir(root))
    except OSError:
        return
    for entry in entries:
        m = _RUN_FOLDER.fullmatch(entry.name)
        if not m or not entry.is_dir(follow_symlinks=False):
            continue
        try:
            if entry.stat(follow_symlinks=False).st_uid != os.getuid():
                continue
            os.kill(int(m.group(1)), 0)
        except ProcessLookupError:
            shutil.rmtree(entry.path, ignore_errors=True)
        except OSError:
            continue


# --- file descriptors a child must not keep -------------------------------------------------------

def keep_from_children(fd: int) -> None:
    """Close `fd` in every process forked from now on (until `release`)."""
    _children_close.add(fd)


def release(fd: int) -> None:
    _children_close.discard(fd)


def _close_in_child() -> None:
    for fd in list(_children_close):
        with contextlib.suppress(OSError):
            os.close(fd)
    _children_close.clear()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_close_in_child)


# --- worker processes ----------------------------------------------------------------------------

def _die_with_parent(parent: int) -> None:
    """A worker's first act: SIGKILL when the parent goes; its signals are the parent's to handle."""
    if sys.platform.startswith("linux"):
        with contextlib.suppress(OSError, AttributeError):
            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    if os.getppid() != parent:  # the parent died before prctl took effect
        os._exit(1)
    for signum in SIGNALS:
        signal.signal(signum, signal.SIG_IGN)


def _worker_init(parent: int, then=None) -> None:
    _die_with_parent(parent)
    if then is not None:
        then()


def _fork_begins() -> None:
    global _forking
    _forking = True


def _fork_ends() -> None:
    global _forking
    _forking = False


_fork_hooks = False


def _watch_forks() -> None:
    """Mark the time a fork takes (see `_on_signal`). Registered once, when the first pool is made: hooks
    registered earlier (logging's) then run inside ours, before runs first and after-in-parent last."""
    global _fork_hooks
    if not _fork_hooks and hasattr(os, "register_at_fork"):
        os.register_at_fork(before=_fork_begins, after_in_parent=_fork_ends, after_in_child=_fork_ends)
        _fork_hooks = True


def pool(workers: int, initializer=None) -> ProcessPoolExecutor:
    """A process pool whose workers die with this process; `kill_pool` ends it at once."""
    _watch_forks()
    made = ProcessPoolExecutor(max_workers=workers, initializer=_worker_init, initargs=(os.getpid(), initializer))
    _pools.add(made)
    return made


def kill_pool(made: ProcessPoolExecutor) -> None:
    """End a pool now: its workers are killed (their temporary files are in the run's folder)."""
    processes = list((getattr(made, "_processes", None) or {}).values())
    for process in processes:
        with contextlib.suppress(Exception):
            process.kill()
    # The thread that feeds jobs to the workers may be blocked writing a large one into the pipe no
    # dead worker will read: exit must not wait for it.
    queue = getattr(made, "_call_queue", None)
    if queue is not None:
        with contextlib.suppress(Exception):
            queue.cancel_join_thread()
    with contextlib.suppress(Exception):
        made.shutdown(wait=False, cancel_futures=True)
    for process in processes:
        with contextlib.suppress(Exception):
            process.join(timeout=5)
    _pools.discard(made)


@contextlib.contextmanager
def worker_pool(workers: int, initializer=None):
    """`with worker_pool(n) as p:` a pool that is shut down normally, or killed when the block fails or stops."""
    made = pool(workers, initializer)
    try:
        yield made
    except BaseException:
        kill_pool(made)
        raise
    made.shutdown(wait=True)
    _pools.discard(made)


# --- text from outside, shown on a terminal --------------------------------------------------------

_UNSAFE = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069\ud800-\udfff]")
_NEWLINE = re.compile(r"\n")


def printable(text: str) -> str:
    """Text from a user or a file, safe to echo: control and bidi-override characters written as \\uXXXX."""
    return _UNSAFE.sub(_escape, text)


def one_line(text: str) -> str:
    """`printable`, with the newline escaped too: one error stays one line, whatever it quotes."""
    return _NEWLINE.sub(_escape, printable(text))


def _escape(m: re.Match) -> str:
    return f"\\u{ord(m.group()):04x}"


def say(line: str, file=None) -> None:
    """One line to the terminal, with control and bidi characters from input shown escaped."""
    print(printable(line), file=file or sys.stdout)
