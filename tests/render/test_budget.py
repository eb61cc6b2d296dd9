"""Every render within a budget of CPU time and memory (render/budget.py): past it, one line naming the artifact."""

from __future__ import annotations

import subprocess
import sys

import pytest

from generator.render import budget


def test_a_render_past_its_cpu_budget_fails_in_one_line_naming_it():
    with pytest.raises(budget.OverBudget, match=r"^fr/bunco/card-sheet-a4\.pdf: rendering took more than its "
                                                r"budget of 0\.05 s of CPU$"):
        with budget.limits("fr/bunco/card-sheet-a4.pdf", seconds=0.05):
            while True:  # a layout that never settles
                sum(range(10_000))


def test_the_timer_is_gone_after_a_render_within_budget():
    import signal

    before = signal.getsignal(signal.SIGPROF)
    with budget.limits("quick", seconds=5):
        pass
    assert signal.getitimer(signal.ITIMER_PROF) == (0.0, 0.0)
    assert signal.getsignal(signal.SIGPROF) == before


def test_a_worker_past_its_memory_budget_fails_in_one_line():
    """In a process of its own (the cap is on the whole process, as in a rendering worker)."""
    code = (
        "from generator.render import budget\n"
        "budget._main_pid = -1  # as in a worker\n"
        "budget.MEGABYTES = 300\n"
        "try:\n"
        "    with budget.limits('en/tonk/kit.pdf'):\n"
        "        hog = bytearray(600 * 1024 * 1024)\n"
        "except budget.OverBudget as exc:\n"
        "    print(exc)\n")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert result.stdout.strip() == "en/tonk/kit.pdf: rendering needed more than its budget of 300 MB of memory", result.stderr
