"""Font checks: every family a locale asks for must be installed (fontconfig)."""

from __future__ import annotations

import shutil
import subprocess

from .errors import Problem
from .i18n import LOCALES_DIR
from .yamlsource import display_path


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
