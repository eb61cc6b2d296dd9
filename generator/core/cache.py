"""Content keys and the PDF cache: only artifacts whose inputs changed are rendered again."""

from __future__ import annotations

import hashlib
import json
import os
from functools import lru_cache
from importlib import metadata
from pathlib import Path

from generator.core.files import atomic_write
from generator.core.paths import CACHE_DIR, LOCALES_DIR, PACKAGE_DIR, TEMPLATES_DIR

#: Libraries whose version can change the bytes of an artifact.
_LIBRARIES = ("weasyprint", "pydyf", "fonttools", "babel", "jinja2", "markdown-it-py", "tinycss2", "cssselect2",
              "pikepdf")
_FONT_DIRS = (Path("/usr/share/fonts"), Path("/usr/local/share/fonts"))


@lru_cache(maxsize=1)
def environment_key() -> str:
    """Library versions, the HarfBuzz subsetter and the installed font files (name, size, mtime)."""
    h = hashlib.sha256()
    for lib in _LIBRARIES:
        try:
            h.update(f"{lib}={metadata.version(lib)}\n".encode())
        except metadata.PackageNotFoundError:
            h.update(f"{lib}=none\n".encode())
    for d in _FONT_DIRS:
        if d.is_dir():
            for root, dirs, files in os.walk(d):
                dirs.sort()
                for name in sorted(files):
                    st = os.stat(os.path.join(root, name))
                    h.update(f"{root}/{name}:{st.st_size}:{int(st.st_mtime)}\n".encode())
    h.update(str(any(Path(p).exists() for p in ("/usr/lib/x86_64-linux-gnu/libharfbuzz-subset.so.0",
                                               "/usr/lib/aarch64-linux-gnu/libharfbuzz-subset.so.0"))).encode())
    return h.hexdigest()


def _tree_files(root: Path, patterns: tuple[str, ...]) -> list[Path]:
    out: list[Path] = []
    for pattern in patterns:
        out += [p for p in root.glob(pattern) if p.is_file() and "__pycache__" not in p.parts]
    return sorted(set(out))


def input_key(options: dict, games_dir: Path | None = None, locales_dir: Path | None = None) -> str:
    """One key for everything a build reads: sources, models, catalogs, templates, options, environment."""
    h = hashlib.sha256(environment_key().encode())
    h.update(json.dumps(options, sort_keys=True, default=str).encode())
    roots = [(PACKAGE_DIR, ("**/*.py", "games/*/*.yaml", "games/*/templates/**/*")), (TEMPLATES_DIR, ("**/*",)),
             (locales_dir or LOCALES_DIR, ("*/*.toml", "*/LC_MESSAGES/*.po"))]
    if games_dir:
        roots.append((games_dir, ("*/*.yaml",)))
    from generator.core.registry import GAMES

    # A game from another distribution: its code, model, templates and the catalogs it ships.
    roots += [(g.folder, ("**/*.py", "*.yaml", "templates/**/*", "locales/*/LC_MESSAGES/*.po"))
              for g in GAMES.values() if g.folder is not None and not g.folder.is_relative_to(PACKAGE_DIR)]
    for root, patterns in roots:
        for path in _tree_files(root, patterns):
            h.update(str(path.relative_to(root)).encode())
            h.update(hashlib.sha256(path.read_bytes()).digest())
    return h.hexdigest()


#: Our own code that changes a PDF's bytes for the same HTML (WeasyPrint patches, render options).
_PDF_CODE = ("render/pdf.py", "render/imposition.py", "render/gate.py", "render/fit.py", "patches/actualtext.py",
             "patches/pdftags.py")


@lru_cache(maxsize=1)
def _pdf_code_key() -> str:
    h = hashlib.sha256()
    for rel in _PDF_CODE:
        h.update(hashlib.sha256((PACKAGE_DIR / rel).read_bytes()).digest())
    return h.hexdigest()


def pdf_key(html: str, paper: str) -> str:
    return hashlib.sha256(f"{environment_key()}\n{_pdf_code_key()}\n{paper}\n".encode() + html.encode("utf-8")).hexdigest()


class PdfCache:
    """Rendered PDFs by content key, with their page counts, under <cache>/pdf/.

    Each PDF's size and sha256 are recorded beside it and checked on every read: a truncated or
    corrupted entry is thrown away and rendered again, never published.
    """

    def __init__(self, root: Path = CACHE_DIR / "pdf"):
        self.root = root
        #: PDFs that could not be written to the cache: kept for this build.
        self.memory: dict[str, tuple[bytes, int]] = {}

    def get(self, key: str) -> tuple[bytes, int] | None:
        if key in self.memory:
            return self.memory[key]
        pdf, meta = self.root / f"{key}.pdf", self.root / f"{key}.json"
        try:
            info = json.loads(meta.read_text())
            pages, size, digest = info["pages"], info["size"], info["sha256"]
            data = pdf.read_bytes()
        except (OSError, ValueError, KeyError, TypeError):
            return None
        if len(data) != size or hashlib.sha256(data).hexdigest() != digest or not isinstance(pages, int):
            pdf.unlink(missing_ok=True)
            meta.unlink(missing_ok=True)
            return None
        return data, pages

    def put(self, key: str, data: bytes, pages: int) -> None:
        info = {"pages": pages, "size": len(data), "sha256": hashlib.sha256(data).hexdigest()}
        try:
            self.root.mkdir(parents=True, exist_ok=True)
            # The PDF first: a build killed in between leaves an entry without its record, which reads as missing.
            atomic_write(self.root / f"{key}.pdf", data)
            atomic_write(self.root / f"{key}.json", json.dumps(info).encode())
        except OSError as exc:  # the disk filled up during the build: go on without keeping it
            cache_unwritable(self.root, exc)
            self.memory[key] = (data, pages)

    def prune(self, keep: set[str]) -> None:
        """Forget PDFs the latest build did not use, so the cache does not grow without bound."""
        if not self.root.is_dir():
            return
        for path in self.root.iterdir():
            if path.name.split(".")[0] not in keep:
                path.unlink(missing_ok=True)


class FitHints:
    """What each PDF took last time, by path: a fitted card's type size (the next search's start) and
    the CPU seconds of its render (the order of the next build's jobs). Hints only: a wrong or missing
    one costs time, never changes a byte. Kept in <cache>/hints.json; an unreadable file is ignored."""

    def __init__(self, root: Path = CACHE_DIR):
        self.path = root / "hints.json"
        try:
            data = json.loads(self.path.read_text())
            self.data = {k: v for k, v in data.items() if isinstance(v, dict)} if isinstance(data, dict) else {}
        except (OSError, ValueError):
            self.data = {}
        self.changed = False

    def _number(self, path: str, what: str) -> float | None:
        value = self.data.get(path, {}).get(what)
        return float(value) if isinstance(value, (int, float)) and not isinstance(value, bool) and value > 0 else None

    def size(self, path: str) -> float | None:
        return self._number(path, "size")

    def seconds(self, path: str) -> float | None:
        return self._number(path, "seconds")

    def record(self, path: str, size: float | None, seconds: float) -> None:
        entry = {"seconds": round(seconds, 3)} | ({"size": size} if size is not None else {})
        if self.data.get(path) != entry:
            self.data[path] = entry
            self.changed = True

    def save(self) -> None:
        if not self.changed:
            return
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            atomic_write(self.path, json.dumps(self.data, sort_keys=True).encode())
        except OSError as exc:
            cache_unwritable(self.path.parent, exc)


_warned: set[str] = set()


def cache_unwritable(folder: Path, exc: OSError) -> None:
    """One warning per run when the cache stops taking files (a full disk); the build goes on."""
    if "cache" in _warned:
        return
    _warned.add("cache")
    import sys

    from generator.core.lifecycle import printable

    print(f"rulesheets: warning: cannot write to the cache in {printable(str(folder))} ({exc.strerror or exc}); "
          f"going on without it", file=sys.stderr)


def _digest_path(path: Path) -> Path:
    return path.with_name(path.name + ".sha256")


def write_checked(path: Path, data: bytes) -> None:
    """Store a cache file with its sha256 beside it (`name.sha256`), for read_checked."""
    path.parent.mkdir(parents=True, exist_ok=True)
    atomic_write(path, data)
    atomic_write(_digest_path(path), hashlib.sha256(data).hexdigest().encode())


def read_checked(path: Path) -> bytes | None:
    """A cache file's bytes if they still match their recorded sha256; a damaged entry is removed (None)."""
    try:
        data = path.read_bytes()
        digest = _digest_path(path).read_text().strip()
    except (OSError, ValueError):
        return None
    if hashlib.sha256(data).hexdigest() != digest:
        path.unlink(missing_ok=True)
        _digest_path(path).unlink(missing_ok=True)
        return None
    return data
