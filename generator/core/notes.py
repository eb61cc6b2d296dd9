"""Notes for the user that are not errors (a sheet printed fewer to a page than asked): one line each.

Renderers call `note()`; the command line prints what was noted once the command is done. Notes
are kept per process, in order, each once.
"""

from __future__ import annotations

_notes: dict[str, None] = {}


def note(message: str) -> None:
    _notes[message] = None


def take() -> list[str]:
    """The notes so far, in order; the list is emptied."""
    out = list(_notes)
    _notes.clear()
    return out
