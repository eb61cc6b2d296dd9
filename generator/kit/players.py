"""The players of a game night (`rulesheets kit --players`): read, checked, one line per problem."""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass

from generator.core.errors import InputError, Problem
from generator.core.inputfile import existing, read_text
from generator.core.lifecycle import printable

#: A kit holds at most twelve Bunco tables of four (`--tables` allows twelve too).
MAX_PLAYERS = 48
#: A name must fit on a seat slip, a ledger column and the name line of a tally sheet.
MAX_NAME = 24


@dataclass(frozen=True)
class Player:
    name: str
    #: Where the name was read: "--players", or the file it came from and its line.
    path: str
    line: int | None = None

    def problem(self, message: str) -> Problem:
        return Problem(self.path, self.line, message)


def read_players(value: str) -> list[Player]:
    """`--players "Asha,Ben"` or `--players FILE` (one name a line, blank lines skipped)."""
    found = existing(value) if value.strip() and "," not in value else None
    if found is not None:  # a file (anything else there is refused: a pipe, a folder, a device)
        text = read_text(value, "--players", "the player list")
        players = [Player(_clean(line), value, i) for i, line in enumerate(text.splitlines(), 1) if line.strip()]
        where = printable(value)
    else:
        players = [Player(_clean(name), "--players") for name in value.split(",") if name.strip()]
        where = "--players"
    if not players:
        raise InputError(Problem(where, None, "the player list is empty"))
    if len(players) > MAX_PLAYERS:
        raise InputError(Problem(where, None, f"{len(players)} players is more than a kit holds (at most {MAX_PLAYERS})"))
    seen: dict[str, Player] = {}
    for p in players:
        if len(p.name) > MAX_NAME:
            raise InputError(p.problem(f"the name '{p.name}' is longer than {MAX_NAME} characters"))
        key = p.name.casefold()
        if key in seen:
            raise InputError(p.problem(f"'{p.name}' is listed twice"))
        seen[key] = p
    return players


def _clean(name: str) -> str:
    # One form per name (NFC), single spaces: "Chloé" typed two ways is the same player.
    return " ".join(unicodedata.normalize("NFC", name).split())


def check_glyphs(players: list[Player], code: str, fonts: tuple[str, ...]) -> None:
    """Every character of every name must be drawn by one of the locale's fonts (else a box prints)."""
    coverage = _coverage(fonts)
    for p in players:
        for char in p.name:
            if not char.isspace() and not any(char in c for c in coverage):
                raise InputError(p.problem(f"no font of locale {code} can draw '{char}' (U+{ord(char):04X}) "
                                           f"in '{p.name}' (fonts: {', '.join(fonts)})"))


def _coverage(fonts: tuple[str, ...]) -> list[frozenset[str]]:
    """The characters of each installed font of the locale (fonts are found as the PDFs find them)."""
    from generator.fonts.choice import cmap, find_font

    faces = [find_font(family, 400) for family in fonts]
    return [cmap(face) for face in faces if face is not None]
