"""Shared fixtures: a throw-away copy of the project to break, and a way to run the CLI in it."""

from __future__ import annotations

import compileall
import hashlib
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from filelock import FileLock
from hypothesis import settings as hypothesis_settings

from generator.dev.bench import copy_project

ROOT = Path(__file__).resolve().parent.parent
#: What `pip install` / `python -m build` reads: the package, the data folders it copies in, and the build configuration.
SOURCES = ("generator", "templates", "locales", "pyproject.toml", "setup.py", "MANIFEST.in", "README.md")


def copy_sources(dest: Path) -> Path:
    """A copy of the distributable sources, for pip to build in (it writes build/ and *.egg-info where it builds)."""
    for name in SOURCES:
        path = ROOT / name
        if path.is_dir():
            shutil.copytree(path, dest / name, ignore=shutil.ignore_patterns("__pycache__", "*.mo"))
        else:
            dest.mkdir(parents=True, exist_ok=True)
            shutil.copy2(path, dest / name)
    return dest


def pytest_sessionstart(session) -> None:
    """The package's bytecode, once: project copies carry it (`copy_project`), so the hundreds of CLI runs
    in copies do not each compile sixty modules again (PYTHONDONTWRITEBYTECODE=1 keeps them from saving it)."""
    compileall.compile_dir(ROOT / "generator", quiet=1)


#: Property tests: `make test` runs the costly ones (each example a build, a CLI run or a large document)
#: at a fifth of their examples; `make test-full` sets HYPOTHESIS_PROFILE=full and runs them again, marked
#: `hypothesis`, at full strength. The "full" profile also gives the other property tests more examples.
FULL_STRENGTH = os.environ.get("HYPOTHESIS_PROFILE") == "full"
hypothesis_settings.register_profile("make-test", max_examples=100)
hypothesis_settings.register_profile("full", max_examples=300)
hypothesis_settings.load_profile("full" if FULL_STRENGTH else "make-test")


def examples(n: int) -> int:
    """A costly property test's number of examples: `n` in `make test-full`, a fifth (at least 10) in `make test`."""
    return n if FULL_STRENGTH else max(10, n // 5)


def run_cli(project: Path, *args: str, timeout: int = 600) -> subprocess.CompletedProcess:
    """Run `rulesheets ARGS` against a project copy (its own generator package, templates, locales)."""
    env = {**os.environ, "PYTHONPATH": str(project)}
    return subprocess.run([sys.executable, "-m", "generator.cli", *args], cwd=project, env=env,
                          capture_output=True, text=True, timeout=timeout)


def run_main(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess:
    """`rulesheets ARGS` in this process, on this checkout (generator.cli.main): its exit code, stdout and
    stderr, as `run_cli` gives them without a new interpreter's start-up. For whatever does not need a
    fresh process: not a project copy, an environment variable, a signal or a pipe."""
    import contextlib
    import io
    import signal

    from generator.cli import main

    handlers = {s: signal.getsignal(s) for s in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)}
    out, err, here = io.StringIO(), io.StringIO(), os.getcwd()
    try:
        if cwd is not None:
            os.chdir(cwd)
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                code = main(list(args))
            except SystemExit as exc:  # argparse: --help, --version, a bad option
                code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
                if isinstance(exc.code, str):
                    print(exc.code, file=sys.stderr)
    finally:
        os.chdir(here)
        for signum, handler in handlers.items():
            signal.signal(signum, handler)
    return subprocess.CompletedProcess(["rulesheets", *args], code, out.getvalue(), err.getvalue())


@pytest.fixture
def project(tmp_path: Path) -> Path:
    return copy_project(tmp_path / "proj")


def shared(tmp_path_factory, name: str, make) -> Path:
    """Run `make(folder)` once per test session, even when pytest-xdist splits the session into
    workers: the first worker builds under a lock, the others wait and read the same folder."""
    worker = os.environ.get("PYTEST_XDIST_WORKER")
    if worker is None:
        folder = tmp_path_factory.mktemp(name)
        make(folder)
        return folder
    root = tmp_path_factory.getbasetemp().parent  # shared by every worker of this session
    folder, done = root / name, root / f"{name}.done"
    with FileLock(str(root / f"{name}.lock")):
        if not done.exists():
            folder.mkdir()
            make(folder)
            done.write_text("ok", encoding="utf-8")
    return folder


#: The builds `copy_of_build` made in this process, by name.
_BUILDS: dict[str, Path] = {}


def copy_of_build(tmp_path_factory, dest: Path, *args: str) -> Path:
    """A project copy at `dest` with the output of `rulesheets build ARGS` in it, to break and to protect.

    The copy and its build are made once per session (`shared`); each test gets its own copy of both,
    copied rather than built again, its cache folder with it (entries keyed by a template's path, made
    for the first copy, go unused)."""
    def make(folder: Path) -> None:
        proj = copy_project(folder / "proj")
        result = run_cli(proj, "build", *args)
        assert result.returncode == 0, result.stderr
    name = "built-" + hashlib.sha256("\0".join(args).encode("utf-8")).hexdigest()[:12]
    if name not in _BUILDS:
        _BUILDS[name] = shared(tmp_path_factory, name, make) / "proj"
    shutil.copytree(_BUILDS[name], dest, symlinks=True)
    return dest


@pytest.fixture(scope="session")
def full_build(tmp_path_factory) -> Path:
    """One complete build of every artifact, shared by the tests that inspect output."""
    def make(folder: Path) -> None:
        proj = copy_project(folder / "proj")
        result = run_cli(proj, "build")
        assert result.returncode == 0, result.stderr
        (folder / "stdout.txt").write_text(result.stdout, encoding="utf-8")
    return shared(tmp_path_factory, "full", make) / "proj" / "output"


def build_stdout(full_build: Path) -> str:
    """What the `full_build` printed."""
    return (full_build.parent.parent / "stdout.txt").read_text(encoding="utf-8")


def manifest(out: Path) -> list[dict]:
    return json.loads((out / "manifest.json").read_text(encoding="utf-8"))


#: The kits the translation tests read: a Bunco night and a Tonk night in every language.
KIT_PLAYERS = {"bunco": "Asha,Ben,Chloé,Dev", "tonk": "Rina,Sam,Tariq"}


@pytest.fixture(scope="session")
def html_build(tmp_path_factory) -> Path:
    """Every artifact as HTML with the site (one CLI build), and a Bunco and a Tonk kit's HTML per locale (kit/).

    The kits are made in this process with `kit_document`, the HTML `rulesheets kit --strict` writes byte for
    byte, without rendering their PDFs (the tests that read kit PDFs use `kit_build`, in `make test-full`)."""
    def make(folder: Path) -> None:
        from generator.kit.assemble import KitOptions, kit_document
        from generator.kit.players import read_players
        from generator.output.folder import write_kit_files

        out = folder / "out"
        result = run_cli(ROOT, "build", "--formats", "html", "--strict", "--out", str(out))
        assert result.returncode == 0, result.stderr
        locales = sorted(p.parent.name for p in (ROOT / "locales").glob("*/locale.toml"))
        for code in locales:
            for game, players in KIT_PLAYERS.items():
                doc = kit_document(KitOptions(game, tuple(read_players(players)), code, strict=True,
                                              out=out / "kit"))
                write_kit_files(out / "kit", {f"{game}-{doc.locale}.html": doc.html.encode("utf-8")})
    return shared(tmp_path_factory, "html-build", make) / "out"


@pytest.fixture(scope="session")
def pdf_build(tmp_path_factory) -> Path:
    """Every artifact of the translated locales as an A4 PDF (one CLI build)."""
    def make(folder: Path) -> None:
        locales = sorted(p.parent.name for p in (ROOT / "locales").glob("*/glossary.toml"))
        result = run_cli(ROOT, "build", "--formats", "pdf", "--papers", "a4", "--locales", *locales,
                         "--strict", "--jobs", "2", "--out", str(folder / "out"))
        assert result.returncode == 0, result.stderr
    return shared(tmp_path_factory, "pdf-build", make) / "out"


@pytest.fixture(scope="session")
def kit_build(tmp_path_factory) -> Path:
    """A Bunco and a Tonk kit in every locale, A4 PDF and HTML, in OUT/kit/ (for `make test-full`)."""
    def make(folder: Path) -> None:
        locales = sorted(p.parent.name for p in (ROOT / "locales").glob("*/locale.toml"))
        for code in locales:
            for game, players in KIT_PLAYERS.items():
                result = run_cli(ROOT, "kit", game, "--players", players, "--locale", code, "--paper", "a4",
                                 "--out", str(folder / "out" / "kit"))
                assert result.returncode == 0, result.stderr
    return shared(tmp_path_factory, "kit-build", make) / "out"


@pytest.fixture(scope="session")
def imposed_build(tmp_path_factory) -> Path:
    """The print shop's command: booklets and card sheets of every game, locale and paper (for `make test-full`)."""
    def make(folder: Path) -> None:
        proj = copy_project(folder / "proj")
        result = run_cli(proj, "build", "--kinds", "booklet", "card-sheet", "--jobs", "2", "--out", str(folder / "out"))
        assert result.returncode == 0, result.stderr
    return shared(tmp_path_factory, "imposed-build", make) / "out"


#: The cells of games x locales x kinds x papers that hung or failed the gate on 5 December (issue 38),
#: built by `make test` (`print_shop_build`): card sheets that grew their type without end, and the
#: Letter Bunco booklets whose seating tables ran past the margin. Every other cell is `imposed_build`'s.
PRINT_SHOP_CELLS = (
    ("--kinds", "card-sheet", "--games", "bunco", "call-break", "tonk", "--locales", "en", "fr", "ko", "hi", "bn",
     "--papers", "a4"),
    ("--kinds", "booklet", "--games", "bunco", "--locales", "en", "fr", "--papers", "letter"),
)


@pytest.fixture(scope="session")
def print_shop_build(tmp_path_factory) -> list[Path]:
    """The cells of PRINT_SHOP_CELLS, one build each (PDF only, two workers, a project copy: no cached PDF); each must exit 0."""
    def make(folder: Path) -> None:
        proj = copy_project(folder / "proj")
        for i, cell in enumerate(PRINT_SHOP_CELLS):
            result = run_cli(proj, "build", *cell, "--formats", "pdf", "--jobs", "2", "--out", str(folder / f"out{i}"),
                             timeout=300)
            assert result.returncode == 0, result.stderr
    folder = shared(tmp_path_factory, "print-shop-build", make)
    return [folder / f"out{i}" for i in range(len(PRINT_SHOP_CELLS))]


#: House rules that change prose, examples and sheets of two games (the house-rules edition of `make test-full`).
HOUSE_RULES = ("bunco.wipeout=true", "tonk.hand_size=7")


@pytest.fixture(scope="session")
def house_rules_build(tmp_path_factory) -> Path:
    """Bunco and Tonk under house rules, every locale, A4 PDF and HTML (for `make test-full`)."""
    def make(folder: Path) -> None:
        rules = [arg for rule in HOUSE_RULES for arg in ("--rule", rule)]
        result = run_cli(ROOT, "build", "--games", "bunco", "tonk", "--papers", "a4", *rules, "--jobs", "2",
                         "--out", str(folder / "out"))
        assert result.returncode == 0, result.stderr
    return shared(tmp_path_factory, "house-rules-build", make) / "out"


def sheets_per_locale(tables: int = 3) -> int:
    """Printable sheets of one locale and paper in a default build, counted from the game registry:
    each game's sheets, a per-table sheet once per table (three tables by default)."""
    from generator.core.registry import GAMES
    return sum(tables if sheet.per_table else 1 for g in GAMES.values() for sheet in g.sheets)


def documents_per_locale(tables: int = 3) -> int:
    """Every document of one locale and paper: a rulebook per game and its sheets."""
    from generator.core.registry import GAMES
    return len(GAMES) + sheets_per_locale(tables)


#: Session builds that render every PDF: the tests that read them belong to `make test-full`.
HEAVY_FIXTURES = {"full_build", "pdf_build", "kit_build", "house_rules_build", "imposed_build"}
#: Test modules that take minutes: installs into a fresh virtual environment, and renders of many
#: PDFs twice over to compare their bytes.
#: Also the sweeps: signal injection at every point, output-folder fault matrices, the site cache
#: across rebuilds, booklet impositions of every rulebook, kit sizes, Call Break against its oracle.
HEAVY_MODULES = {"test_packaging.py", "test_game_plugins.py", "test_pdf_stylesheets.py", "test_signals.py",
                 "test_safe_builds.py", "test_output_safety.py", "test_sitecache.py", "test_booklets.py",
                 "test_kit_sizes.py", "test_call_break_tricks.py"}


def pytest_collection_modifyitems(config, items):
    """`make test` is the everyday loop (`-m "not full"`); the sweeps and every-PDF checks are marked
    `full` here, by what they need, and run in `make test-full` (CI runs both)."""
    for item in items:
        if HEAVY_FIXTURES & set(getattr(item, "fixturenames", ())) or item.path.name in HEAVY_MODULES:
            item.add_marker(pytest.mark.full)
