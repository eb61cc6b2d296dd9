"""Translated Markdown prose to HTML, with raw HTML disabled and English fallbacks marked."""

from __future__ import annotations

import re

from markupsafe import Markup

from generator.core.errors import InputError, Problem
from generator.i18n.translate import Translator
from generator.model.textunits import MD, block_of, parse, units_of

#: Rule prose may link only inside the document.
_IN_DOCUMENT = re.compile(r"#[\w-]*")


def render_prose(body: str, domain: str, tr: Translator, values: dict) -> Markup:
    """Translate a Markdown body unit by unit, fill its placeholders, render it to HTML.

    The body is parsed once; each unit's inline content is replaced by its translation and parsed
    inline again, so the block structure (lists, quotes, code) is the source's in every language.
    """
    env: dict = {}
    tokens = parse(body, env)
    done = []
    for unit in units_of(tokens):
        text, fallback = tr.lookup(domain, unit.text, values)
        text = tr.fill(text, values)
        inline = tokens[unit.index]
        inline.content = text
        inline.children = MD.parseInline(text, env)[0].children or []
        done.append((unit, text, fallback))
        for href in _links(inline.children):
            _refuse(href, unit, fallback, domain, tr)
        if fallback:
            block = block_of(tokens, unit.index)
            block.attrSet("class", "untranslated")
            block.attrSet("lang", "en")
    # The whole section is checked too, not each unit alone: a reference link split across two units
    # (`[text][r]` in one, `[r]: https://...` in the next) would be a link if the text were joined.
    for block in MD.parse("\n\n".join(text for _, text, _ in done)):
        for href in _links(block.children or ()):
            unit, _, fallback = next(((u, t, f) for u, t, f in done if href in t), done[0])
            _refuse(href, unit, fallback, domain, tr)
    return Markup(MD.renderer.render(tokens, MD.options, env))


def _refuse(href: str, unit, fallback: bool, domain: str, tr: Translator) -> None:
    where = (f"generator/games/{domain.replace('-', '_')}/model.yaml" if tr.code == "en" or fallback
             else f"locales/{tr.code}/LC_MESSAGES/{domain}.po")
    raise InputError(Problem(where, None, f"link to '{href}' in {unit.text[:40]!r}: "
                                          "rule prose may only link inside the document"))


def _links(children) -> list[str]:
    """Every link target among inline tokens that points outside the document."""
    return [str(tok.attrGet("href")) for tok in children
            if tok.type == "link_open" and not _IN_DOCUMENT.fullmatch(str(tok.attrGet("href")))]


def render_inline(text: str) -> Markup:
    """A single line of Markdown (emphasis, code) without the paragraph around it."""
    return Markup(MD.renderInline(text))
