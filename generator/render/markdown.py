"""Translated Markdown prose to HTML, with raw HTML disabled and English fallbacks marked."""

from __future__ import annotations

import re

from markdown_it import MarkdownIt
from markupsafe import Markup

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
        text, fallback = tr.lookup(domain, unit.text)
        text = tr.fill(text, values)
        texts.append(_FALLBACK + text if fallback else text)
    html = _MD.render(join_units(units, texts))
    html = _MARKED.sub(r'<\1 class="untranslated" lang="en">', html)
    return Markup(html.replace(_FALLBACK, ""))


def render_inline(text: str) -> Markup:
    """A single line of Markdown (emphasis, code) without the paragraph around it."""
    return Markup(_MD.renderInline(text))
