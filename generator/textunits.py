"""Split Markdown prose into translation units (paragraphs, list items, headings) and join them back."""

from __future__ import annotations

import re
from dataclasses import dataclass

_ITEM = re.compile(r"^(\s*(?:[-*+]|\d+[.)])\s+)(.*)$")
_HEADING = re.compile(r"^(#{1,6} )(.*)$", re.S)


@dataclass(frozen=True)
class Unit:
    """One translatable piece of a Markdown body, with the Markdown that goes before it."""

    prefix: str  # list marker ("- ", "1. "), heading marker ("### ") or "" for a paragraph
    text: str
    #: A unit that starts a new block (blank line before it) rather than continuing a list.
    new_block: bool


def split_units(body: str) -> list[Unit]:
    """Paragraphs become one unit each; each list item becomes its own unit (lines re-joined)."""
    units: list[Unit] = []
    for block in re.split(r"\n\s*\n", body.strip()):
        if not block.strip():
            continue
        lines = block.splitlines()
        heading = _HEADING.match(block)
        if heading:
            units.append(Unit(heading.group(1), heading.group(2).strip(), True))
        elif _ITEM.match(lines[0]):
            first = True
            current: list[str] = []
            prefix = ""
            for line in lines:
                m = _ITEM.match(line)
                if m:
                    if current:
                        units.append(Unit(prefix, " ".join(current), first))
                        first = False
                    prefix, current = m.group(1).strip() + " ", [m.group(2).strip()]
                else:
                    current.append(line.strip())
            units.append(Unit(prefix, " ".join(current), first))
        else:
            units.append(Unit("", " ".join(line.strip() for line in lines), True))
    return units


def join_units(units: list[Unit], texts: list[str]) -> str:
    """Markdown again, from units and their (translated) texts, in the same order."""
    out: list[str] = []
    for unit, text in zip(units, texts, strict=True):
        if unit.new_block and out:
            out.append("\n")
        out.append(f"{unit.prefix}{text}\n")
    return "".join(out)
