"""Translation units of Markdown prose, read from markdown-it-py's tokens (the same parse that renders it).

Each paragraph, heading, list item and table cell is one unit, wherever it sits: nested lists, block
quotes and list items with several paragraphs come out as the parser sees them, and code is never a unit.
"""

from __future__ import annotations

from dataclasses import dataclass

from markdown_it import MarkdownIt
from markdown_it.token import Token

# "js-default" is CommonMark plus tables with raw HTML switched off: prose can never inject markup.
MD = MarkdownIt("js-default", {"typographer": False, "linkify": False})
MD.disable("image")


@dataclass(frozen=True)
class Unit:
    """One translatable piece of a Markdown body."""

    #: The msgid: the block's inline Markdown, its lines joined by single spaces.
    text: str
    #: Index of its `inline` token in `parse(body)`.
    index: int
    #: First line of the block within the body, counted from 0.
    line: int | None


def parse(body: str, env: dict | None = None) -> list[Token]:
    """Block tokens of a body; `env` collects link reference definitions for later inline parses."""
    return MD.parse(body, env if env is not None else {})


def unit_text(content: str) -> str:
    """A block's inline source as one line: the msgid does not depend on where the source wrapped."""
    return " ".join(line.strip() for line in content.splitlines() if line.strip())


def units_of(tokens: list[Token]) -> list[Unit]:
    return [Unit(unit_text(t.content), i, t.map[0] if t.map else None)
            for i, t in enumerate(tokens) if t.type == "inline" and t.content.strip()]


def split_units(body: str) -> list[Unit]:
    """Every unit of a body, in reading order."""
    return units_of(parse(body))


def block_of(tokens: list[Token], index: int) -> Token:
    """The element a unit's text sits in: its paragraph or heading, or the list item of a tight list
    (whose paragraphs markdown-it hides)."""
    opener = tokens[index - 1]
    if opener.type == "paragraph_open" and opener.hidden:
        for tok in reversed(tokens[: index - 1]):
            if tok.type == "list_item_open" and tok.level == opener.level - 1:
                return tok
    return opener
