"""generator.core.lifecycle: what a signal does at each moment of a run (the processes are test_signals')."""

from __future__ import annotations

import os
import signal

import pytest

from generator.core import lifecycle


def _a_few_bytecodes() -> None:
    """Python runs a signal's handler between bytecodes, just after the signal came."""
    for _ in range(100):
        pass


@pytest.fixture
def own_handlers():
    """lifecycle.start() installs its handlers in this process: put the test runner's back afterwards."""
    saved = {s: signal.getsignal(s) for s in lifecycle.SIGNALS}
    yield
    for signum, handler in saved.items():
        signal.signal(signum, handler)


@pytest.mark.parametrize("signum", lifecycle.SIGNALS, ids=lambda s: signal.Signals(s).name)
def test_a_signal_during_the_run_stops_it(own_handlers, signum):
    lifecycle.start()
    try:
        with pytest.raises(lifecycle.Stopped) as stopped:
            os.kill(os.getpid(), signum)
            _a_few_bytecodes()
        assert lifecycle.exit_code(stopped.value) == 128 + signum
    finally:
        lifecycle.finish()


@pytest.mark.parametrize("signum", lifecycle.SIGNALS, ids=lambda s: signal.Signals(s).name)
def test_a_signal_once_the_command_returned_is_recorded_not_raised(own_handlers, monkeypatch, signum):
    """Cleaning up, the work is done: raised there, the signal would surface as "Exception ignored in ..."
    from whatever callback it landed in (seen from a kit stopped as it exited), with exit 0."""
    lifecycle.start()
    folder = lifecycle.run_folder()
    real = lifecycle.shutil.rmtree

    def signalled_rmtree(path, *args, **kwargs):
        os.kill(os.getpid(), signum)
        return real(path, *args, **kwargs)

    monkeypatch.setattr(lifecycle.shutil, "rmtree", signalled_rmtree)
    lifecycle.finish()  # must not raise
    assert lifecycle.received == signum
    assert not folder.exists()
    os.kill(os.getpid(), signum)  # and after it, until the process exits: still recorded only
    assert lifecycle.received == signum


def test_the_next_run_starts_afresh(own_handlers):
    lifecycle.start()
    lifecycle.finish()
    os.kill(os.getpid(), signal.SIGHUP)
    lifecycle.start()
    try:
        assert lifecycle.received is None
        with pytest.raises(lifecycle.Stopped):
            os.kill(os.getpid(), signal.SIGTERM)
            _a_few_bytecodes()
    finally:
        lifecycle.finish()


@pytest.mark.filterwarnings("ignore::pytest.PytestUnraisableExceptionWarning")  # the dropped Stopped, as intended
def test_a_signal_a_callback_swallowed_still_stops_the_run(own_handlers):
    """Raised inside a callback that drops exceptions (here a weakref's; in a build, logging's at-fork hook
    as a worker was forked), Stopped never reaches the run: the next step forward raises it again."""
    import weakref

    class Thing:
        pass

    lifecycle.start()
    try:
        thing = Thing()
        ref = weakref.ref(thing, lambda _: (os.kill(os.getpid(), signal.SIGTERM), _a_few_bytecodes()))
        del thing  # the callback runs (ref stays alive for it), the signal's Stopped is printed as "Exception ignored" and dropped
        _a_few_bytecodes()
        assert ref() is None
        with pytest.raises(lifecycle.Stopped) as stopped:
            lifecycle.stop_if_signalled()
        assert stopped.value.signum == signal.SIGTERM
    finally:
        lifecycle.finish()
    lifecycle.stop_if_signalled()  # once the run has ended, nothing to stop
