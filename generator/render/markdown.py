"""Translated Markdown prose to HTML, with raw HTML disabled and English fallbacks marked."""

from __future__ import annotations

import re

from markdown_it import MarkdownIt
from markupsafe import Markup

from ..errors import InputError, Problem
from ..i18n import Translator
from ..textunits import join_units, split_units

# "js-default" is CommonMark plus tables with raw HTML switched off: prose can never inject markup.
_MD = MarkdownIt("js-default", {"typographer": False, "linkify": False})
_MD.disable("image")
#: A private-use character put before a unit shown in English, turned into a class after rendering.
_FALLBACK = "\ue000"
_MARKED = re.compile(r"<(p|li|h[1-6])>" + _FALLBACK)


def render_prose(body: str, domain: str, tr: Translator, values: dict) -> Markup:
    """Translate a Markdown body unit by unit, fill its placeholders, render it to HTML."""
    units = split_units(body)
    texts = []
    for unit in units:
        text, fallback = tr.lookup(domain, unit.text, values)
        text = tr.fill(text, values)
        texts.append(_FALLBACK + text if fallback else text)
    joined = join_units(units, texts)
    # The whole section is checked, not each unit alone: a reference link can be split across two
    # units (`[text][r]` in one, `[r]: https://...` in the next) and only resolves in the joined text.
    for href in _links(joined):
        # Blame the unit that holds the target (the definition of a split reference link).
        unit, text = next(((u, t) for u, t in zip(units, texts) if href in t or href in _links(t)),
                          (units[0], texts[0]))
        where = (f"generator/games/{domain}.yaml" if tr.code == "en" or text.startswith(_FALLBACK)
                 else f"locales/{tr.code}/LC_MESSAGES/{domain}.po")
        raise InputError(Problem(where, None, f"link to '{href}' in {unit.text[:40]!r}: "
                                              "rule prose may only link inside the document"))
    html = _MD.render(joined)
    html = _MARKED.sub(r'<\1 class="untranslated" lang="en">', html)
    return Markup(html.replace(_FALLBACK, ""))


def _links(source: str) -> list[str]:
    """Every link target in a Markdown text: rule prose may only point inside the document."""
    found = []
    for block in _MD.parse(source):
        for tok in block.children or ():
            href = tok.attrGet("href") if tok.type == "link_open" else None
            if href is not None and not re.fullmatch(r"#[\w-]*", str(href)):
                found.append(str(href))
    return found


def render_inline(text: str) -> Markup:
    """A single line of Markdown (emphasis, code) without the paragraph around it."""
    return Markup(_MD.renderInline(text))
