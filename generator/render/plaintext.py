"""Text without tags that keeps its no-break spaces (French "Tonk : aide-mémoire" in a <title>)."""

from __future__ import annotations

from typing import Any

from markupsafe import Markup

#: markupsafe's striptags collapses whitespace with str.split(), which also splits at U+00A0 and U+202F:
#: they stand in for these private-use characters while it runs.
_NO_BREAK = {"\u00a0": "\ue000", "\u202f": "\ue001"}


def striptags(value: Any) -> str:
    """The jinja filter and Markup.striptags(), but a no-break space stays one."""
    html = value.__html__() if hasattr(value, "__html__") else str(value)
    for space, stand_in in _NO_BREAK.items():
        html = html.replace(space, stand_in)
    text = Markup.striptags(Markup(html))
    for space, stand_in in _NO_BREAK.items():
        text = text.replace(stand_in, space)
    return text


class Text(Markup):
    """Translated markup whose striptags() keeps no-break spaces."""

    __slots__ = ()

    def striptags(self) -> str:
        return striptags(self)
