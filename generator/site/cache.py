"""The static site by content: a build whose inputs and PDFs did not change takes the last site as it was.

The site is a function of everything a build reads (cache.input_key: sources, templates, catalogs,
options, fonts, library versions) and of the PDFs it links (their bytes decide the sizes shown).
Its pages and web fonts are kept under .cache/site/<key>/, each with its sha256 (a damaged entry
is made again); the PDF copies are not (they are in the build's files already), only which site
path copies which PDF.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
from pathlib import Path

from generator.core.cache import read_checked, write_checked
from generator.core.paths import CACHE_DIR as _CACHE

CACHE_DIR = _CACHE / "site"
#: Sites kept: the latest few, so switching between two option sets stays fast without growing forever.
KEEP = 3
_COPIES = "copies.json"


def site_key(input_key: str, entries: list[dict]) -> str:
    h = hashlib.sha256(input_key.encode())
    h.update(json.dumps(sorted((e["path"], e["sha256"]) for e in entries)).encode())
    return h.hexdigest()


def get(key: str, files: dict[str, bytes], root: Path = CACHE_DIR) -> dict[str, bytes] | None:
    """The cached site's files (site/...), PDF copies taken from `files`; None when not cached."""
    folder = root / key
    try:
        copies = json.loads((folder / _COPIES).read_text(encoding="utf-8"))
        out = {}
        for path in (folder / "files").rglob("*"):
            if path.is_file() and not path.name.endswith(".sha256"):
                data = read_checked(path)
                if data is None:  # damaged: make the site again rather than publish it
                    shutil.rmtree(folder, ignore_errors=True)
                    return None
                out[path.relative_to(folder / "files").as_posix()] = data
        for site_path, source in copies.items():
            out[site_path] = files[source]
    except (OSError, ValueError, KeyError):
        return None
    os.utime(folder)  # recently used: pruned last
    return dict(sorted(out.items()))


def put(key: str, site: dict[str, bytes], files: dict[str, bytes], root: Path = CACHE_DIR) -> None:
    """Keep a freshly made site; files identical to a build file (the PDF copies) are only referenced."""
    try:
        _put(key, site, files, root)
    except OSError as exc:  # the disk filled up: the site is made, only not kept
        shutil.rmtree(root / f".{key}.{os.getpid()}.tmp", ignore_errors=True)
        from generator.core.cache import cache_unwritable

        cache_unwritable(root, exc)


def _put(key: str, site: dict[str, bytes], files: dict[str, bytes], root: Path) -> None:
    by_digest = {hashlib.sha256(data).digest(): path for path, data in files.items() if path.endswith(".pdf")}
    tmp = root / f".{key}.{os.getpid()}.tmp"
    shutil.rmtree(tmp, ignore_errors=True)
    copies = {}
    for path, data in site.items():
        source = by_digest.get(hashlib.sha256(data).digest()) if path.endswith(".pdf") else None
        if source:
            copies[path] = source
            continue
        write_checked(tmp / "files" / path, data)
    tmp.mkdir(parents=True, exist_ok=True)
    (tmp / _COPIES).write_text(json.dumps(copies, sort_keys=True), encoding="utf-8")
    shutil.rmtree(root / key, ignore_errors=True)
    tmp.rename(root / key)
    _prune(root)


def _prune(root: Path) -> None:
    sites = sorted((p for p in root.iterdir() if p.is_dir() and not p.name.startswith(".")),
                   key=lambda p: p.stat().st_mtime, reverse=True)
    for old in sites[KEEP:]:
        shutil.rmtree(old, ignore_errors=True)
