"""Fault injection: TERM, HUP, KILL and INT at several points of `build`, `kit` and `serve` (issue 27).

After each: no process of the run is alive (its process group, read from /proc), the port is free,
the output's lock is free, the run's temporary folder is gone (a run killed outright leaves it to the
next run, which removes it), and a build stopped before its swap left the previous output as it was.
The module is one of conftest's HEAVY_MODULES: it runs in `make test-full`, which CI runs after `make test`.
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
import uuid
from pathlib import Path

import pytest

from tests.conftest import ROOT

#: Runs the CLI with the swap's checkpoint replaced: at STEP the process stops itself (SIGSTOP),
#: so a signal sent then arrives exactly there once it is continued. A STEP "module:function" stops
#: the process on its first call of that function instead (one the code imports when it calls it).
STOPPER = """
import functools, importlib, os, signal, sys
from generator.output import folder as output
step = sys.argv[1]
def stop():
    os.kill(os.getpid(), signal.SIGSTOP)
def checkpoint(name):
    if name == step:
        stop()
output._checkpoint = checkpoint
if ":" in step:
    module, name = step.split(":")
    module = importlib.import_module(module)
    wrapped = getattr(module, name)
    @functools.wraps(wrapped)
    def stopping(*args, **kwargs):
        stop()
        return wrapped(*args, **kwargs)
    setattr(module, name, stopping)
from generator.cli import main
sys.exit(main(sys.argv[2:]))
"""

#: The `rulesheets` command (generator.launch) stopping itself just before it imports the command line.
IMPORTING = """
import os, signal, sys
class StopBeforeTheCli:
    def find_spec(self, name, path=None, target=None):
        if name == "generator.cli":
            os.kill(os.getpid(), signal.SIGSTOP)
        return None
sys.meta_path.insert(0, StopBeforeTheCli())
from generator.launch import main
sys.exit(main())
"""

SIGNALS = {"TERM": signal.SIGTERM, "HUP": signal.SIGHUP, "KILL": signal.SIGKILL, "INT": signal.SIGINT}


def _group(leader: int) -> list[int]:
    """Live processes (not zombies) of the process group `leader` started."""
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            fields = Path(f"/proc/{entry}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[2]) == leader and fields[0] != "Z":
            found.append(int(entry))
    return found


def _wait(what: str, test, timeout: float = 90.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            value = test()
        except OSError:
            value = None
        if value:
            return value
        time.sleep(0.05)
    raise AssertionError(f"gave up waiting: {what}")


def _tree(out: Path) -> dict[str, str]:
    return {str(p.relative_to(out)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(out.rglob("*")) if p.is_file()}


class Run:
    """One `rulesheets` process in its own session, with a temporary folder of its own (TMPDIR)."""

    def __init__(self, tmp: Path, *args: str, step: str = "none", script: str | None = None):
        self.tmp = tmp / "tmp"
        self.tmp.mkdir(exist_ok=True)
        self.env = {**os.environ, "PYTHONPATH": str(ROOT), "TMPDIR": str(self.tmp)}
        code = (STOPPER, step) if script is None else (script,)
        self.proc = subprocess.Popen([sys.executable, "-c", *code, *args], cwd=ROOT, env=self.env,
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                     start_new_session=True)

    def processes(self) -> list[int]:
        return _group(self.proc.pid)

    def workers_running(self) -> bool:
        return len(self.processes()) >= 2

    def started(self) -> bool:
        """Whether the run has its temporary folder: its signal handlers are in place (lifecycle.start)."""
        return any(self.tmp.glob("rulesheets-*"))

    def stopped_itself(self) -> bool:
        return Path(f"/proc/{self.proc.pid}/stat").read_text().rsplit(")", 1)[1].split()[0] == "T"

    def signal(self, signum: int) -> tuple[int, str]:
        os.kill(self.proc.pid, signum)
        os.kill(self.proc.pid, signal.SIGCONT)  # in case it stopped itself at a checkpoint
        _, err = self.proc.communicate(timeout=120)
        return self.proc.returncode, err

    def __enter__(self) -> "Run":
        return self

    def __exit__(self, *exc) -> None:
        self.kill()

    def kill(self) -> None:
        """Whatever happened (a wait that gave up too): no process of the run outlives the test."""
        if self.proc.poll() is None:
            for pid in self.processes():
                with contextlib.suppress(ProcessLookupError):
                    os.kill(pid, signal.SIGKILL)
            self.proc.communicate(timeout=30)


def _lock_free(out: Path) -> bool:
    from generator.output.folder import lock_path

    lock = lock_path(out)
    if not lock.exists():
        return True
    fd = os.open(lock, os.O_RDWR)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        return True
    except BlockingIOError:
        return False
    finally:
        os.close(fd)


def _port_free(port: int) -> bool:
    with socket.socket() as s:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # a closed connection's TIME_WAIT is no listener
        try:
            s.bind(("127.0.0.1", port))
            s.listen()
        except OSError:
            return False
    return True


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _after(run: Run, signum: int, code: int, err: str, out: Path | None = None, port: int | None = None) -> None:
    """What every stopped run must leave: see the module's docstring. A build or kit (no port) ends with
    its one line; serve's last line is checked by its test."""
    assert "Traceback" not in err, err
    if port is None and signum != signal.SIGKILL:
        assert err.splitlines()[-1:] == [_message(signum)], err
    if signum == signal.SIGKILL:
        assert code == -signal.SIGKILL
    elif not (port and signum == signal.SIGINT):  # Ctrl-C is how serve is stopped: exit 0
        assert code == 128 + signum, (code, err)
    _wait("every process of the run to end", lambda: not run.processes(), 10)
    if out is not None:
        assert _lock_free(out), "the output's lock is still held"
        if signum != signal.SIGKILL:  # after KILL, the next build into `out` removes it (_next_build_sweeps)
            assert not list(out.parent.glob(f".{out.name}.new-*")), "a half-written output was left"
    if port is not None:
        assert _wait("the port to be free", lambda: _port_free(port), 10)
    if signum == signal.SIGKILL:  # nothing could clean up: the next run removes the dead run's folder
        r = subprocess.run([sys.executable, "-m", "generator.cli", "rules", "bunco"], cwd=ROOT, env=run.env,
                           capture_output=True, text=True, timeout=120)
        assert r.returncode == 0, r.stderr
    assert os.listdir(run.tmp) == [], "a temporary folder was left"


def _message(signum: int) -> str:
    if signum == signal.SIGINT:
        return "rulesheets: interrupted; nothing was left half-written"
    return f"rulesheets: stopped by {signal.Signals(signum).name}; nothing was left half-written"


def _pdf_build_args(out: Path) -> list[str]:
    # A new group name each time, printed on every tally sheet: none of the six PDFs is in the cache, so
    # the workers render them (a build with two or fewer to render does it in its own process).
    return ["build", "--games", "bunco", "--locales", "en", "fr", "hi", "--kinds", "tally-sheet", "--formats", "pdf",
            "--papers", "a4", "letter", "--jobs", "2", "--group", f"g{uuid.uuid4().hex[:8]}", "--out", str(out)]


# --- build --------------------------------------------------------------------------------------

def _build_case(tmp_path: Path, name: str, point: str) -> None:
    signum = SIGNALS[name]
    out = tmp_path / "out"
    before = None
    if point == "swap":  # a previous output, then a build stopped just before its swap
        _html_build(out, {**os.environ, "PYTHONPATH": str(ROOT)})
        before = _tree(out)
        args, step = ("build", "--games", "bunco", "--locales", "en", "--formats", "html",
                      "--group", "another", "--out", str(out)), "marked"
    elif point == "starting":  # the handlers are in place; the run's temporary folder is not made yet
        args, step = _pdf_build_args(out), "generator.core.lifecycle:_sweep_dead_runs"
    else:
        args, step = _pdf_build_args(out), "none"
    with Run(tmp_path, *args, step=step) as run:
        if point in ("swap", "starting"):
            _wait(f"the build to reach its {point} point", run.stopped_itself, 300)
        elif point == "planning":  # reading the models and planning the work
            _wait("the build to start", run.started)
        else:
            _wait("the PDF workers", run.workers_running)
        code, err = run.signal(signum)
    _after(run, signum, code, err, out=out)
    if before is not None:
        assert _tree(out) == before  # the previous output, untouched
    if signum == signal.SIGKILL:
        _next_build_sweeps(run, out)


def _html_build(out: Path, env: dict) -> None:
    """A quick complete build into `out` (Bunco, English, HTML), which must succeed."""
    r = subprocess.run([sys.executable, "-m", "generator.cli", "build", "--games", "bunco", "--locales", "en",
                        "--formats", "html", "--out", str(out)], cwd=ROOT, env=env, capture_output=True, text=True,
                       timeout=300)
    assert r.returncode == 0, r.stderr


def _next_build_sweeps(run: Run, out: Path) -> None:
    """A build killed outright may leave its half-written `.out.new-PID` beside `out`: the next build into
    `out` removes it, and succeeds."""
    _html_build(out, run.env)
    assert not list(out.parent.glob(f".{out.name}.new-*")), "the next build left the killed build's folder"
    assert os.listdir(run.tmp) == []


BUILD_POINTS = ("starting", "planning", "rendering", "swap")


def _cases(command: str, points: tuple[str, ...]) -> list:
    return [pytest.param(name, point, id=f"{name}-{point}") for name in SIGNALS for point in points]


@pytest.mark.parametrize("name, point", _cases("build", BUILD_POINTS))
def test_build_stopped(tmp_path, name, point):
    _build_case(tmp_path, name, point)


@pytest.mark.parametrize("name", [n for n in SIGNALS if n != "KILL"])
def test_stopped_while_importing(tmp_path, name):
    """Before the command line is even imported, the same one line and exit code (generator.launch)."""
    signum = SIGNALS[name]
    out = tmp_path / "out"
    with Run(tmp_path, "build", "--games", "bunco", "--locales", "en", "--formats", "html", "--out", str(out),
             script=IMPORTING) as run:
        _wait("the command to reach its imports", run.stopped_itself, 120)
        code, err = run.signal(signum)
    assert err.splitlines() == [_message(signum)], err
    assert code == 128 + signum
    assert not out.exists()
    _after(run, signum, code, err)


# --- kit ------------------------------------------------------------------------------------------

@pytest.mark.parametrize("name, point", _cases("kit", ("planning", "rendering")))
def test_kit_stopped(tmp_path, name, point):
    signum = SIGNALS[name]
    out = tmp_path / "kit"
    # "rendering": the kit stops itself as it hands its document to WeasyPrint
    with Run(tmp_path, "kit", "bunco", "--players", "Asha,Ben,Chloé,Dev,Emre,Farah,Gita,Hiro", "--group",
             f"g{uuid.uuid4().hex[:8]}", "--out", str(out),
             step="generator.render.pdf:html_to_pdf" if point == "rendering" else "none") as run:
        _wait("the kit to start", run.started if point == "planning" else run.stopped_itself, 300)
        code, err = run.signal(signum)
    _after(run, signum, code, err, out=out)
    assert not out.exists() or sorted(p.name for p in out.iterdir() if not p.name.startswith(".")) in ([], [
        "bunco-en-letter.pdf", "bunco-en.html"])


# --- serve ----------------------------------------------------------------------------------------

@pytest.mark.parametrize("name, point", _cases("serve", ("idle", "rebuilding")))
def test_serve_stopped(tmp_path, name, point):
    signum = SIGNALS[name]
    port = _free_port()
    out = tmp_path / "preview"
    state = f"http://127.0.0.1:{port}/__rulesheets__/state"
    with Run(tmp_path, "serve", "--port", str(port), "--games", "bunco", "--locales", "en", "--kinds", "tally-sheet",
             "--papers", "a4", "letter", "--group", f"g{uuid.uuid4().hex[:8]}", "--out", str(out)) as run:
        if point == "idle":
            _wait("the first build", lambda: json.loads(urllib.request.urlopen(state, timeout=5).read())["generation"])
        else:
            _wait("the PDF workers", run.workers_running)
        code, err = run.signal(signum)
    if signum == signal.SIGINT:
        assert code == 0 and err.rstrip().endswith("stopped"), err
    elif signum != signal.SIGKILL:
        assert err.rstrip().endswith(f"stopped by {signal.Signals(signum).name}"), err
    _after(run, signum, code, err, out=out, port=port)
