"""The site's fast HTML reader reports what html.parser reports, on every page of a built site."""

from __future__ import annotations

from html.parser import HTMLParser
from pathlib import Path

import pytest
from hypothesis import given, settings

from tests.conftest import examples
from hypothesis import strategies as st

from generator.fonts import web
from generator.core.htmlscan import FastHTMLParser
from generator.site import search as site_search


def _events(base: type):
    class Recorder(base):
        def __init__(self):
            if base is HTMLParser:
                super().__init__(convert_charrefs=True)
            self.events = []

        def handle_starttag(self, tag, attrs):
            self.events.append(("start", tag, tuple(attrs)))

        def handle_endtag(self, tag):
            self.events.append(("end", tag))

        def handle_data(self, data):
            # HTMLParser may hand one run of text over in pieces; only the text itself counts.
            if self.events and self.events[-1][0] == "data":
                self.events[-1] = ("data", self.events[-1][1] + data)
            else:
                self.events.append(("data", data))

    return Recorder


def events(html: str, base: type) -> list:
    parser = _events(base)()
    parser.feed(html)
    parser.close()
    return parser.events


def test_same_events_on_every_page_of_the_site(full_build: Path):
    pages = sorted((full_build / "site").rglob("*.html"))
    assert len(pages) >= 20
    for page in pages:
        html = page.read_text(encoding="utf-8")
        assert events(html, FastHTMLParser) == events(html, HTMLParser), page


def test_same_events_on_the_print_documents(full_build: Path):
    for page in sorted(full_build.glob("*/*/*.html")):
        html = page.read_text(encoding="utf-8")
        assert events(html, FastHTMLParser) == events(html, HTMLParser), page


PIECES = list("ab &;=#x1é한ক'\"") + ["&amp;", "&lt;", "&gt;", "&#2453;", "&nbsp;", "&quot;", "\n"]
text = st.lists(st.sampled_from(PIECES), max_size=8).map("".join)
names = st.sampled_from(["p", "span", "a", "td", "section", "h2", "img", "br"])
values = st.lists(st.sampled_from([p for p in PIECES if p != '"'] + [">", "<"]), max_size=6).map("".join)


@st.composite
def documents(draw):
    """Well-formed markup as the templates write it: quoted attributes, escaped text, nested elements."""
    def element(depth):
        tag = draw(names)
        attrs = draw(st.lists(st.tuples(st.sampled_from(["class", "lang", "id", "data-x", "hidden"]), values),
                              max_size=3, unique_by=lambda a: a[0]))
        attrs = "".join(f" {n}" if n == "hidden" else f' {n}="{v}"' for n, v in attrs)
        if tag in ("img", "br"):
            return f"<{tag}{attrs}>"
        kids = draw(st.lists(st.booleans(), max_size=3))
        inner = "".join(element(depth + 1) if kid and depth < 3 else draw(text) for kid in kids)
        return f"<{tag}{attrs}>{inner}</{tag}>"

    body = element(0)
    head = draw(st.sampled_from(["", "<style>a > b { x: '&amp;' }</style>", "<script>if (a < b) { c(); }</script>",
                                 "<!-- a comment with <p> inside -->"]))
    return f"<!DOCTYPE html><html><head>{head}</head><body>{body}</body></html>"


@pytest.mark.hypothesis
@settings(max_examples=examples(300), deadline=None)
@given(documents())
def test_same_events_on_generated_markup(html):
    assert events(html, FastHTMLParser) == events(html, HTMLParser)


@pytest.mark.parametrize("parser", [web._TextByStack, site_search._Sections])
def test_the_site_passes_use_the_fast_reader(parser):
    assert issubclass(parser, FastHTMLParser)
