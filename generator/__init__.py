"""rulesheets: compile structured rule models into localised rulebooks and score sheets."""

from pathlib import Path

PACKAGE_DIR = Path(__file__).resolve().parent
#: The project checkout (templates/ and locales/ live beside the package).
PROJECT_DIR = PACKAGE_DIR.parent
LOCALES = ("en", "fr", "hi", "ko", "bn", "ne")


def __getattr__(name: str):
    # The games are the registry's (generator.registry); this keeps `from generator import GAMES` working.
    if name == "GAMES":
        from .registry import GAMES

        return tuple(GAMES)
    raise AttributeError(name)
