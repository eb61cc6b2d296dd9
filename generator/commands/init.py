"""`rulesheets init`: write a commented project file (generator/commands/project.py)."""

from __future__ import annotations

from pathlib import Path

HELP = "write a commented project file, rulesheets.toml, in the working folder"


def add_arguments(n) -> None:
    n.add_argument("--config", type=Path, metavar="FILE",
                   help="where to write it (default: rulesheets.toml); an existing file is never replaced")


def run(args) -> int:
    from generator.commands import project

    return project.init(args.config)
