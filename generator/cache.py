"""Content keys and the PDF cache: only artifacts whose inputs changed are rendered again."""

from __future__ import annotations

import hashlib
import json
import os
from functools import lru_cache
from importlib import metadata
from pathlib import Path

from .paths import CACHE_DIR, LOCALES_DIR, PACKAGE_DIR, TEMPLATES_DIR

#: Libraries whose version can change the bytes of an artifact.
_LIBRARIES = ("weasyprint", "pydyf", "fonttools", "babel", "jinja2", "markdown-it-py", "tinycss2", "cssselect2")
_FONT_DIRS = (Path("/usr/share/fonts"), Path("/usr/local/share/fonts"))
STATE_FILE = ".rulesheets-state.json"


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
    roots = [(PACKAGE_DIR, ("**/*.py", "games/*.yaml")), (TEMPLATES_DIR, ("**/*",)),
             (locales_dir or LOCALES_DIR, ("*/*.toml", "*/LC_MESSAGES/*.po"))]
    if games_dir:
        roots.append((games_dir, ("*.yaml",)))
    for root, patterns in roots:
        for path in _tree_files(root, patterns):
            h.update(str(path.relative_to(root)).encode())
            h.update(hashlib.sha256(path.read_bytes()).digest())
    return h.hexdigest()


def pdf_key(html: str, paper: str) -> str:
    return hashlib.sha256(f"{environment_key()}\n{paper}\n".encode() + html.encode("utf-8")).hexdigest()


class PdfCache:
    """Rendered PDFs by content key, with their page counts, under <cache>/pdf/."""

    def __init__(self, root: Path = CACHE_DIR / "pdf"):
        self.root = root

    def get(self, key: str) -> tuple[bytes, int] | None:
        pdf, meta = self.root / f"{key}.pdf", self.root / f"{key}.json"
        try:
            pages = json.loads(meta.read_text())["pages"]
            return pdf.read_bytes(), pages
        except (OSError, ValueError, KeyError):
            return None

    def put(self, key: str, data: bytes, pages: int) -> None:
        self.root.mkdir(parents=True, exist_ok=True)
        for path, content in ((self.root / f"{key}.pdf", data), (self.root / f"{key}.json", json.dumps({"pages": pages}).encode())):
            tmp = path.with_suffix(path.suffix + f".{os.getpid()}.tmp")
            tmp.write_bytes(content)
            tmp.replace(path)

    def prune(self, keep: set[str]) -> None:
        """Forget PDFs the latest build did not use, so the cache does not grow without bound."""
        if not self.root.is_dir():
            return
        for path in self.root.iterdir():
            if path.name.split(".")[0] not in keep:
                path.unlink(missing_ok=True)


def read_state(out: Path) -> dict:
    try:
        return json.loads((out / STATE_FILE).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}


def output_intact(out: Path) -> bool:
    """Every file the manifest lists is there with its size unchanged (a cheap no-op check)."""
    try:
        entries = json.loads((out / "manifest.json").read_text(encoding="utf-8"))
        sizes = read_state(out).get("sizes", {})
        return all((out / e["path"]).stat().st_size == sizes.get(e["path"]) for e in entries)
    except (OSError, ValueError, KeyError, TypeError):
        return False
