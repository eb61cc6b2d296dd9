"""Where things are: the sources (games, templates, locales) and where output and caches go.

Two layouts, decided once here. In a checkout (templates/ and locales/ beside the package) the
project's own folders are used, with output/ and .cache/ at its top, as always. Installed from a
wheel, the same folders travel inside the package; output goes to ./output and caches to the
user's cache folder ($XDG_CACHE_HOME/rulesheets, by default ~/.cache/rulesheets).
"""

from __future__ import annotations

import os
from importlib import resources
from pathlib import Path

from generator.core.errors import InputError, Problem, display_path  # noqa: F401  (where callers look for it)

#: The `generator` package (this module lives in generator/core/).
PACKAGE_DIR = Path(__file__).resolve().parent.parent


def _checkout() -> Path | None:
    root = PACKAGE_DIR.parent
    return root if (root / "templates").is_dir() and (root / "locales").is_dir() else None


#: The checkout this package runs from, or None when it is installed.
CHECKOUT = _checkout()
#: The folder that holds templates/ and locales/: the checkout, or the installed package itself.
PROJECT_DIR = CHECKOUT or Path(str(resources.files("generator")))
GAMES_DIR = PACKAGE_DIR / "games"
#: A game's model lives in its package folder: generator/games/<id with underscores>/model.yaml.
MODEL_FILE = "model.yaml"


def game_folder(game: str) -> str:
    """The folder (and Python package) name of a game id: `stop-the-bus` -> `stop_the_bus`."""
    return game.replace("-", "_")
TEMPLATES_DIR = PROJECT_DIR / "templates"
LOCALES_DIR = PROJECT_DIR / "locales"


def _cache_dir() -> Path:
    if CHECKOUT:
        return CHECKOUT / ".cache"
    xdg = os.environ.get("XDG_CACHE_HOME")
    return (Path(xdg) if xdg and Path(xdg).is_absolute() else Path.home() / ".cache") / "rulesheets"


def usable_cache(folder: Path) -> Path:
    """`folder` if files can be written there; otherwise one warning and a folder of this run's own
    (a read-only cache, a file in its place, a full disk: the build works, only slower)."""
    from generator.core import lifecycle

    probe = folder / f".probe-{os.getpid()}"
    try:
        folder.mkdir(parents=True, exist_ok=True)
        probe.write_bytes(b"rulesheets")
        probe.unlink()
        return folder
    except OSError as exc:
        reason = "not a folder" if isinstance(exc, FileExistsError) else (exc.strerror or type(exc).__name__)
    try:
        fallback = lifecycle.run_folder() / "cache"
    except OSError:
        fallback = folder
    import sys

    print(f"rulesheets: warning: cache folder {lifecycle.printable(str(folder))} cannot be written ({reason}); "
          f"working without a cache", file=sys.stderr)
    return fallback


#: Rendered PDFs, cut fonts and web font subsets of earlier builds (safe to delete).
CACHE_DIR = usable_cache(_cache_dir())


def default_output() -> Path:
    """output/ of the checkout, or ./output when installed (read when the command runs)."""
    return CHECKOUT / "output" if CHECKOUT else Path.cwd() / "output"


def require_checkout(what: str) -> Path:
    """Commands that write sources (catalogs, new locales) only work in a checkout, never in site-packages."""
    if CHECKOUT is None:
        raise InputError(Problem("command line", None, f"{what} writes into a project checkout; "
                                 f"this rulesheets is installed at {PACKAGE_DIR} (clone the project to translate)"))
    return CHECKOUT


#: The language the sources are written in.
SOURCE_LOCALE = "en"


def discover_locales(locales_dir: Path = LOCALES_DIR) -> tuple[str, ...]:
    """Every locale of the project: each folder of locales/ holding a locale.toml, English first."""
    found = sorted(p.parent.name for p in locales_dir.glob("*/locale.toml"))
    return tuple(sorted(found, key=lambda c: (c != SOURCE_LOCALE, c)))


def check_locales(requested: tuple[str, ...], locales_dir: Path = LOCALES_DIR) -> None:
    """Every requested locale is a folder of locales/ with a locale.toml (one line naming the first that is not)."""
    known = discover_locales(locales_dir)
    bad = [c for c in requested if c not in known]
    if bad:
        hint = f" (known: {', '.join(known)})" if known else f" (no locale.toml under {display_path(locales_dir)})"
        raise InputError(Problem("command line", None, f"unknown locale '{bad[0]}'{hint}"))
