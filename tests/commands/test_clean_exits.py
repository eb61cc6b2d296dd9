"""Issue 27, item by item: each bad input, environment or request gets its exact one line and exit code."""

from __future__ import annotations

import http.client
import json
import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from generator.core import expr
from generator.core.lifecycle import printable
from generator.model.houserules import read_house_rules
from generator.core.errors import InputError
from tests.conftest import ROOT, run_main


def cli(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess:
    """In this process: what these checks look at does not depend on a fresh interpreter."""
    return run_main(*args, cwd=cwd)


def fresh_cli(*args: str, cwd: Path = ROOT, env: dict | None = None, timeout: int = 120) -> subprocess.CompletedProcess:
    """A process of its own: for an environment variable, or input that could block a read (a timeout)."""
    return subprocess.run([sys.executable, "-m", "generator.cli", *args], cwd=cwd, capture_output=True, text=True,
                          env={**os.environ, "PYTHONPATH": str(ROOT), **(env or {})}, timeout=timeout)


def one_line(r: subprocess.CompletedProcess, code: int = 2) -> str:
    assert r.returncode == code, r.stderr
    assert "Traceback" not in r.stderr
    lines = r.stderr.splitlines()
    assert len(lines) == 1, r.stderr
    return lines[0]


# --- 3 and 4: names and files --------------------------------------------------------------------

def test_a_500_character_name_is_one_line(tmp_path):
    r = cli("kit", "tonk", "--players", "A" * 500 + ",Bob", "--out", str(tmp_path / "k"))
    assert one_line(r) == f"--players: the name '{'A' * 500}' is longer than 24 characters"


def test_400_names_are_one_line(tmp_path):
    r = cli("kit", "tonk", "--players", ",".join(str(i) for i in range(400)), "--out", str(tmp_path / "k"))
    assert one_line(r) == "--players: 400 players is more than a kit holds (at most 48)"


@pytest.mark.full  # a whole 24-player kit rendered to PDF
def test_long_hindi_names_make_a_kit(tmp_path):
    hindi = ",".join(f"खिलाड़ी{chr(0x966 + i % 10)}{i}" for i in range(24))  # 24 names, far beyond 255 bytes
    assert len(hindi.encode()) > 255
    r = cli("kit", "tonk", "--players", hindi, "--locale", "hi", "--out", str(tmp_path / "k"))
    assert "File name too long" not in r.stderr and "Traceback" not in r.stderr


@pytest.mark.parametrize("kind", ["fifo", "folder", "device"])
@pytest.mark.parametrize("option", ["--players", "--house-rules"])
def test_only_regular_files(tmp_path, kind, option):
    path = {"fifo": tmp_path / "pipe", "folder": tmp_path, "device": Path("/dev/zero")}[kind]
    if kind == "fifo":
        os.mkfifo(path)
    what = {"fifo": "a named pipe", "folder": "a folder", "device": "a device"}[kind]
    # A pipe or a device that were read would block or never end: those run in a process with a timeout.
    run = cli if kind == "folder" else lambda *args: fresh_cli(*args, timeout=30)
    if option == "--players":
        r = run("kit", "tonk", "--players", str(path), "--out", str(tmp_path / "k"))
        assert one_line(r) == f"rulesheets: --players {path}: is {what}, not a regular file (the player list)"
    else:
        r = run("build", "--house-rules", str(path), "--out", str(tmp_path / "o"))
        assert one_line(r) == f"rulesheets: --house-rules {path}: is {what}, not a regular file (the house rules)"


# --- 5: nesting and expressions ------------------------------------------------------------------

def test_deeply_nested_toml_is_one_line(tmp_path):
    path = tmp_path / "deep.toml"
    path.write_text("[bunco]\nwipeout = " + "[" * 100_000 + "]" * 100_000 + "\n", encoding="utf-8")
    with pytest.raises(InputError) as caught:
        read_house_rules(path)
    assert str(caught.value) == f"{path}:2: invalid TOML: nested more than 8 levels deep"
    r = cli("build", "--house-rules", str(path), "--out", str(tmp_path / "o"))
    assert one_line(r) == f"{path}:2: invalid TOML: nested more than 8 levels deep"


@pytest.mark.parametrize("text, message", [
    ("rounds_per_set // 0 > 1", "'rounds_per_set // 0 > 1' cannot be computed: integer division or modulo by zero"),
    ("wipeout in 5", "'wipeout in 5' cannot be computed: argument of type 'int' is not iterable"),
    ("(0,)*1000000*1000", "a tuple of more than 1000 items is not allowed in an expression"),
    ("999999*999999*999999*999999", "a number beyond 1e+18 is not allowed in an expression"),
])
def test_expressions_are_bounded(text, message):
    start = time.perf_counter()
    with pytest.raises(expr.ExprError) as caught:
        expr.evaluate(text, {"rounds_per_set": 6, "wipeout": False})
    assert str(caught.value) == message
    assert time.perf_counter() - start < 0.5


def _model_problem(tmp_path: Path, old: str, new: str) -> str:
    from generator.pipeline.build import Options, prepare

    games = tmp_path / "games"
    import shutil

    shutil.copytree(ROOT / "generator/games", games)
    model = games / "bunco/model.yaml"
    text = model.read_text(encoding="utf-8")
    assert old in text
    model.write_text(text.replace(old, new, 1), encoding="utf-8")
    with pytest.raises(InputError) as caught:
        prepare(Options(games=("bunco",), locales=("en",), formats=("html",), games_dir=games))
    return str(caught.value)


def test_when_that_cannot_be_computed_is_a_model_line(tmp_path):
    message = _model_problem(tmp_path, "- when: point_per_die == 1", '- when: "rounds_per_set // 0 > 1"')
    assert message.startswith(str(tmp_path / "games/bunco/model.yaml") + ":")
    assert message.endswith(": when: 'rounds_per_set // 0 > 1' cannot be computed: integer division or modulo by zero")


def test_refused_operator_is_quoted_once(tmp_path):
    message = _model_problem(tmp_path, '"=2 * point_per_die"', '"=9**9**9"')
    assert message.endswith(": example 'throw-two-hits' has a bad expression: '9**9**9': pow is not allowed in an expression")


# --- 6: the environment --------------------------------------------------------------------------

@pytest.mark.parametrize("args", [("rules",), ("i18n", "status")])
def test_broken_pipe_is_quiet(args):
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    p = subprocess.Popen([sys.executable, "-m", "generator.cli", *args], cwd=ROOT, env=env,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    p.stdout.readline()
    p.stdout.close()  # `| head -1`
    err = p.stderr.read().decode()
    assert p.wait(timeout=60) == 0
    assert err == ""


def test_ascii_terminal(tmp_path):
    r = fresh_cli("kit", "bunco", "--players", "आशा,बेन,क्लोए,देव", "--locale", "hi", "--out", str(tmp_path / "k"),
                  env={"PYTHONIOENCODING": "ascii"})
    assert r.returncode == 0, r.stderr
    # The summary is in the kit's language: Hindi, escaped, on a terminal that cannot show it.
    assert "4 खिलाड़ी".encode("ascii", "backslashreplace").decode() in r.stdout and r.stdout.isascii()


def test_c_locale_without_utf8_mode(tmp_path):
    """Under LC_ALL=C with UTF-8 mode off, Python keeps argv's non-ASCII bytes as surrogate escapes: a Hindi group
    and site name are the UTF-8 typed (issue 44: "no font can draw U+DCE0"), and the kit's names too (in-process:
    tests/kit/test_kit.py::test_names_typed_under_a_c_locale_are_the_utf8_typed)."""
    out = tmp_path / "o"
    r = fresh_cli("build", "--games", "bunco", "--locales", "hi", "--formats", "html", "--kinds", "tally-sheet",
                  "--group", "शुक्रवार क्लब", "--out", str(out),
                  env={"LC_ALL": "C", "LANG": "C", "PYTHONUTF8": "0", "PYTHONCOERCECLOCALE": "0"})
    assert r.returncode == 0, r.stderr
    assert "शुक्रवार क्लब" in (out / "hi/bunco/tally-sheet.html").read_text(encoding="utf-8")


def test_cache_folder_that_is_a_file(project, tmp_path):
    (project / ".cache").write_text("not a folder", encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": str(project)}
    r = subprocess.run([sys.executable, "-m", "generator.cli", "build", "--games", "bunco", "--locales", "en",
                        "--formats", "html", "--kinds", "tally-sheet", "--out", str(tmp_path / "o")],
                       cwd=project, env=env, capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    assert r.stderr.splitlines()[0] == (f"rulesheets: warning: cache folder {project / '.cache'} cannot be written "
                                        f"(not a folder); working without a cache")
    assert (tmp_path / "o/en/bunco/tally-sheet.html").is_file()


def test_kit_into_a_folder_it_cannot_write(tmp_path):
    (tmp_path / "file").write_text("x", encoding="utf-8")
    r = cli("kit", "tonk", "--players", "Asha,Ben", "--out", str(tmp_path / "file/kit"))
    # A file where the folder's parent should be: refused in one line, whichever step finds it.
    assert one_line(r) in (f"rulesheets: command line: --out {tmp_path / 'file/kit'} cannot be written ({why})"
                           for why in ("File exists", "Not a directory"))


# --- 7: serve as a server ------------------------------------------------------------------------

def test_port_out_of_range():
    assert one_line(cli("serve", "--port", "99999")) == "rulesheets: argument --port: a port is 0 to 65535, got 99999"


def test_serve_out_obeys_builds_rule(tmp_path):
    mine = tmp_path / "mine"
    mine.mkdir()
    (mine / "manifest.json").write_text("[]", encoding="utf-8")
    r = cli("serve", "--port", "0", "--out", str(mine))
    assert one_line(r) == (f"rulesheets: command line: --out {mine} is not empty and holds no previous rulesheets "
                           f"output (no manifest.json and .rulesheets-state.json); choose a new or empty folder")
    assert (mine / "manifest.json").read_text() == "[]"
    for inside in (".", "docs", "templates", "generator/games"):
        r = cli("serve", "--port", "0", "--out", inside)
        assert r.returncode == 2 and len(r.stderr.splitlines()) == 1, (inside, r.stderr)
        assert r.stderr.startswith(f"rulesheets: command line: --out {inside} "), r.stderr


def _request(port: int, path: str, host: str) -> int:
    c = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    c.putrequest("GET", path, skip_host=True, skip_accept_encoding=True)
    c.putheader("Host", host)
    c.endheaders()
    return c.getresponse().status


def test_serve_checks_host_paths_and_links(tmp_path):
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    out = tmp_path / "preview"
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.Popen([sys.executable, "-m", "generator.cli", "serve", "--port", str(port), "--games", "bunco",
                             "--locales", "en", "--kinds", "tally-sheet", "--formats", "html", "--out", str(out)],
                            cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        here = f"127.0.0.1:{port}"
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            try:
                state = json.loads(urllib_get(port, "/__rulesheets__/state"))
                if state["generation"]:
                    break
            except OSError:
                pass
            time.sleep(0.2)
        (out / "passwd").symlink_to("/etc/passwd")
        assert _request(port, "/manifest.json", here) == 200
        assert _request(port, "/manifest.json", f"localhost:{port}") == 200
        assert _request(port, "/manifest.json", f"rebound.example:{port}") == 421
        assert _request(port, "/manifest.json", "127.0.0.1:1") == 421
        assert _request(port, "/x%00.txt", here) == 400
        assert _request(port, "/passwd", here) == 404
    finally:
        proc.send_signal(2)
        _, err = proc.communicate(timeout=60)
    assert "Traceback" not in err


def urllib_get(port: int, path: str) -> str:
    import urllib.request

    with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=5) as r:
        return r.read().decode()


# --- 8: values that passed the checks ------------------------------------------------------------

@pytest.mark.parametrize("url, why", [
    ("https://x/\x01/", "may hold only letters, digits and URL punctuation (no spaces, control characters, "
                        "quotes, <, > or &)"),
    ("https://x.org/#top", "must not have a query (?...) or fragment (#...)"),
    ("https://x.org/?a=1", "must not have a query (?...) or fragment (#...)"),
    ("ftp://x.org/", "must be an absolute http:// or https:// address"),
])
def test_base_url(tmp_path, url, why):
    r = cli("build", "--base-url", url, "--out", str(tmp_path / "o"))
    assert one_line(r) == f"rulesheets: command line: --base-url {why}, got '{printable(url)}'"


def test_jobs_capped(tmp_path):
    r = cli("build", "--games", "bunco", "--locales", "en", "--formats", "html", "--kinds", "tally-sheet",
            "--jobs", "400", "--out", str(tmp_path / "o"))
    assert r.returncode == 0, r.stderr
    cpus = len(os.sched_getaffinity(0))
    assert r.stderr.splitlines()[0] == f"rulesheets: --jobs 400 is more than the {cpus} CPUs here; using {cpus}"


def test_untrusted_text_is_escaped(tmp_path):
    r = cli("kit", "tonk", "--players", "Bob\x1b[31m,Al\u202eice", "--out", str(tmp_path / "k"))
    line = one_line(r)
    assert "\x1b" not in line and "\\u001b" in line
