"""The headless Chromium of the browser tests (Debian's, through Playwright), and the system fonts it may see."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
                 "--disable-sync", "--no-first-run"]


def fonts_only(folder: Path, patterns) -> dict[str, str]:
    """An environment in which Chromium sees only the system fonts `fc-match` finds for `patterns`:
    a fontconfig of their own in `folder` (copies of the font files, and its cache)."""
    (folder / "fonts").mkdir(parents=True)
    for pattern in patterns:
        found = subprocess.run(["fc-match", "-f", "%{file}", pattern], capture_output=True, text=True).stdout
        shutil.copy(found, folder / "fonts")
    (folder / "fonts.conf").write_text(
        f'<?xml version="1.0"?><!DOCTYPE fontconfig SYSTEM "fonts.dtd"><fontconfig>'
        f'<dir>{folder / "fonts"}</dir><cachedir>{folder / "cache"}</cachedir></fontconfig>', encoding="utf-8")
    return {**os.environ, "FONTCONFIG_FILE": str(folder / "fonts.conf")}
