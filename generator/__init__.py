"""rulesheets: compile structured rule models into localised rulebooks and score sheets."""

from pathlib import Path

PACKAGE_DIR = Path(__file__).resolve().parent
#: The project checkout (templates/ and locales/ live beside the package).
PROJECT_DIR = PACKAGE_DIR.parent
GAMES = ("bunco", "stop-the-bus", "tonk")
LOCALES = ("en", "fr", "hi", "ko", "bn", "ne")
