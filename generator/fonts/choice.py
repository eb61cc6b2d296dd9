"""Which installed face draws what: fontconfig's choice of a family's file, its characters, and the check
that every family a locale asks for is installed."""

from __future__ import annotations

import re
import shutil
import subprocess
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from generator.core.errors import Problem
from generator.i18n.translate import LOCALES_DIR
from generator.core.paths import display_path

WEIGHTS = {400: "", 700: ":bold"}


@dataclass(frozen=True)
class FontFile:
    """One installed face: the file fontconfig picks for a family and weight (index into a .ttc)."""

    family: str
    weight: int
    path: Path
    index: int


def installed_families() -> set[str]:
    if not shutil.which("fc-list"):
        return set()
    out = subprocess.run(["fc-list", ":", "family"], capture_output=True, text=True, check=False).stdout
    return {name.strip() for line in out.splitlines() for name in line.split(",")}


def font_problems(translators) -> list[Problem]:
    families = installed_families()
    problems = []
    for tr in translators:
        for font in tr.config.fonts:
            if font not in families:
                path = display_path(LOCALES_DIR / tr.code / "locale.toml")
                problems.append(Problem(path, None, f"font '{font}' is not installed (run make setup)"))
    return problems


@lru_cache(maxsize=None)
def find_font(family: str, weight: int = 400) -> FontFile | None:
    """The file fontconfig uses for family at weight, or None when it would substitute another family."""
    if not shutil.which("fc-match"):
        return None
    out = subprocess.run(["fc-match", "-f", "%{file}\n%{index}\n%{family}\n%{weight}",
                          f"{family}{WEIGHTS[weight]}"], capture_output=True, text=True, check=False).stdout
    lines = out.split("\n")
    if len(lines) < 4 or family not in [f.strip() for f in lines[2].split(",")]:
        return None
    # fontconfig weights: 80 regular, 200 bold. A family without a bold file answers with its regular one
    # (a variable font answers with a range such as "[0 210]": we cut static instances only).
    if weight == 700 and not re.fullmatch(r"\d+(\.\d+)?", lines[3]) or weight == 700 and float(lines[3]) < 200:
        return None
    return FontFile(family, weight, Path(lines[0]), int(lines[1] or 0))


@lru_cache(maxsize=None)
def cmap(font: FontFile) -> frozenset[str]:
    """Characters the face has glyphs for (cached: the CJK collection is large)."""
    import uharfbuzz as hb

    face = hb.Face(hb.Blob.from_file_path(str(font.path)), font.index)
    return frozenset(chr(c) for c in face.unicodes)
