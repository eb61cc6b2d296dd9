"""The players of a game night (`rulesheets kit --players`): read, checked, one line per problem."""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass

from generator.core.errors import InputError, Problem
from generator.core.inputfile import existing, from_argv, read_text
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


#: Characters that reorder the text around them (bidi embeddings, overrides, isolates and marks): in a
#: name they would reorder the contents page and the sheets ("AnnXboB · exe.png"), so they are refused.
_BIDI = frozenset("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


def read_players(value: str) -> list[Player]:
    """`--players "Asha,Ben"` or `--players FILE` (one name a line, blank lines skipped)."""
    found = existing(value) if value.strip() and "," not in value else None
    if found is None and _looks_like_a_file(value):  # not a name: a file that is not there
        read_text(value, "--players", "the player list")  # says which: missing, unreadable
    if found is not None:  # a file (anything else there is refused: a pipe, a folder, a device)
        text = read_text(value, "--players", "the player list")
        players = [Player(_clean(line), value, i) for i, line in enumerate(text.split("\n"), 1) if line.strip()]
        where = printable(value)
    else:
        players = [Player(_clean(from_argv(name)), "--players") for name in value.split(",") if name.strip()]
        where = "--players"
    if not players:
        raise InputError(Problem(where, None, "the player list is empty"))
    if len(players) > MAX_PLAYERS:
        raise InputError(Problem(where, None, f"{len(players)} players is more than a kit holds (at most {MAX_PLAYERS})"))
    seen: dict[str, Player] = {}
    for p in players:
        _check_characters(p)
        if len(p.name) > MAX_NAME:
            raise InputError(p.problem(f"the name '{p.name}' is longer than {MAX_NAME} characters"))
        key = _visible(p.name).casefold()
        if key in seen:
            first = seen[key]
            if first.name == p.name or first.name.casefold() == p.name.casefold():
                raise InputError(p.problem(f"'{p.name}' is listed twice"))
            raise InputError(p.problem(f"'{_shown(p.name)}' is listed twice: it differs from '{_shown(first.name)}' "
                                       f"only by invisible characters"))
        seen[key] = p
    return players


def _check_characters(p: Player) -> None:
    """No control or bidi character in a name, and at least one visible one."""
    for char in p.name:
        if unicodedata.category(char) == "Cs":  # bytes that are not UTF-8, kept by Python as U+DC80..U+DCFF
            raise InputError(p.problem(f"the name '{printable(p.name)}' is not valid UTF-8 text"))
        if unicodedata.category(char) == "Cc":
            raise InputError(p.problem(f"the name '{printable(p.name)}' holds a control character (U+{ord(char):04X})"))
        if char in _BIDI:
            raise InputError(p.problem(f"the name '{printable(p.name)}' holds a bidi control (U+{ord(char):04X}), "
                                       f"which would reorder the text around it; remove it"))
    if not _visible(p.name).strip():
        raise InputError(p.problem(f"the name '{_shown(p.name)}' has no visible character"))


def _visible(name: str) -> str:
    """The name without invisible format characters (zero-width space and joiners, soft hyphen, BOM): what a
    reader sees, so `Ann` and `A\u200bnn` are one player. The name itself keeps them (joiners shape Indic text)."""
    return "".join(c for c in name if unicodedata.category(c) != "Cf")


def _shown(name: str) -> str:
    """The name with its invisible characters written out (`A\\u200bnn`), so a message shows the difference."""
    return "".join(f"\\u{ord(c):04x}" if unicodedata.category(c) == "Cf" else c for c in printable(name))


def _looks_like_a_file(value: str) -> bool:
    """A value with a folder separator or a file name's ending is a file, never a name."""
    return "," not in value and ("/" in value or value.strip().lower().endswith((".txt", ".csv", ".text", ".list")))


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
