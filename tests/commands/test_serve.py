"""`rulesheets serve`: serves a build, rebuilds on save, shows a broken template as a banner and recovers."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

from generator.commands.serve import STATE_URL


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _get(url: str) -> str:
    with urllib.request.urlopen(url, timeout=10) as r:
        return r.read().decode("utf-8")


def _wait(what: str, test, timeout: float = 60.0):
    """Poll until test() returns something true; fail naming what never happened."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            value = test()
        except OSError:  # the server is not listening yet
            value = None
        if value:
            return value
        time.sleep(0.1)
    raise AssertionError(f"gave up waiting: {what}")


def _set_translation(po: Path, msgid: str, msgstr: str) -> None:
    text = po.read_text(encoding="utf-8")
    start = text.index(f'msgid "{msgid}"\nmsgstr "')
    value = text.index('msgstr "', start)
    end = text.index('"\n', value + len('msgstr "'))
    po.write_text(text[:value] + f'msgstr "{msgstr}"' + text[end + 1:], encoding="utf-8")


def test_serve_rebuilds_reloads_and_recovers(project):
    port = _free_port()
    base = f"http://127.0.0.1:{port}"
    env = {**os.environ, "PYTHONPATH": str(project)}
    proc = subprocess.Popen([sys.executable, "-m", "generator.cli", "serve", "--port", str(port), "--games", "bunco",
                             "--locales", "fr", "--kinds", "rulebook", "--papers", "a4"],
                            cwd=project, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        state = lambda: json.loads(_get(base + STATE_URL))  # noqa: E731
        _wait("the first build", lambda: state()["generation"] >= 1)
        assert state()["error"] is None
        page = _get(f"{base}/fr/bunco/rulebook.html")
        assert "Des stylos pour tout le\u00a0monde." in page  # the short last word tied (render/ties.py)
        assert STATE_URL in page  # the reload script is in the served page ...
        on_disk = project / ".cache/serve/fr/bunco/rulebook.html"
        assert STATE_URL not in on_disk.read_text(encoding="utf-8")  # ... and not in the built file
        pdf_before = (project / ".cache/serve/fr/bunco/rulebook-a4.pdf").read_bytes()

        # A translator saves a changed string: the page, the site and the PDF follow within seconds.
        generation = state()["generation"]
        _set_translation(project / "locales/fr/LC_MESSAGES/bunco.po", "Pens for everyone.", "Un stylo par personne.")
        _wait("the rebuild", lambda: state()["generation"] > generation, 20)
        assert "Un stylo par personne." in _get(f"{base}/fr/bunco/rulebook.html")
        assert "Un stylo par personne." in _get(f"{base}/site/fr/bunco/")
        assert (project / ".cache/serve/fr/bunco/rulebook-a4.pdf").read_bytes() != pdf_before

        # A broken template: the last good page stays, with a banner naming the file and line.
        template = project / "templates/rulebook.html.j2"
        good = template.read_text(encoding="utf-8")
        template.write_text(good + "{% if %}\n", encoding="utf-8")
        error = _wait("the error", lambda: state()["error"], 20)
        assert error.startswith("templates/rulebook.html.j2:"), error
        page = _get(f"{base}/fr/bunco/rulebook.html")
        assert 'id="rulesheets-error"' in page and "templates/rulebook.html.j2:" in page
        assert "Un stylo par personne." in page

        # Fixed: the banner goes, and a change made meanwhile is there too.
        _set_translation(project / "locales/fr/LC_MESSAGES/bunco.po", "Pens for everyone.", "Un stylo chacun.")
        template.write_text(good, encoding="utf-8")
        _wait("the recovery", lambda: state()["error"] is None, 20)
        page = _wait("the fixed page", lambda: (p := _get(f"{base}/fr/bunco/rulebook.html")) and "Un stylo chacun." in p and p, 20)
        assert 'id="rulesheets-error"' not in page
    finally:
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=30)
    assert proc.returncode == 0, err
    assert "error: templates/rulebook.html.j2:" in err  # the terminal shows the error too
    assert "Traceback" not in err
    assert err.rstrip().endswith("stopped")


def test_serve_refuses_a_port_in_use(project):
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        s.listen()
        port = s.getsockname()[1]
        env = {**os.environ, "PYTHONPATH": str(project)}
        r = subprocess.run([sys.executable, "-m", "generator.cli", "serve", "--port", str(port)], cwd=project, env=env,
                           capture_output=True, text=True, timeout=60)
    assert r.returncode == 2
    assert r.stderr.startswith(f"rulesheets: command line: --port {port}: ")
    assert len(r.stderr.splitlines()) == 1
