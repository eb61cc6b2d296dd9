"""A fast reader of the HTML this project writes, for the site's text passes (web-font plans, search index).

`html.parser.HTMLParser` is written for any HTML and reads it one construct at a time in Python;
on the site's pages it took about a third of the site stage's main process. Our pages come from our
own templates (autoescaped, every attribute value quoted), so one regular expression splits them
into tags and text. `FastHTMLParser` keeps HTMLParser's interface (`handle_starttag`,
`handle_endtag`, `handle_data`, `feed`, `close`) with `convert_charrefs=True` semantics: text and
attribute values come unescaped, and the text of one run between tags arrives in one call.
Comments and the doctype are skipped; the text of <script> and <style> is given as it stands.
A test compares what both parsers report on every page of a built site.
"""

from __future__ import annotations

import re
from html import unescape

_TOKEN = re.compile(
    r"<!--.*?-->"                                   # a comment
    r"|<![^>]*>"                                    # the doctype
    r"|<(script|style)\b[^>]*>.*?</\1\s*>"          # raw text: no words of the page
    r"|<(/?)([a-zA-Z][\w:-]*)((?:[^>\"']|\"[^\"]*\"|'[^']*')*)>",  # a start or end tag with its attributes
    re.S | re.I)
_ATTR = re.compile(r"""([^\s"'>/=]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+)))?""")


def attributes(text: str) -> list[tuple[str, str | None]]:
    """A tag's attributes as HTMLParser gives them: lower-case names, unescaped values, None for a bare name."""
    out = []
    for m in _ATTR.finditer(text):
        value = next((v for v in m.groups()[1:] if v is not None), None)
        out.append((m.group(1).lower(), None if value is None else unescape(value)))
    return out


class FastHTMLParser:
    """Subclass and define handle_starttag(tag, attrs), handle_endtag(tag) and handle_data(text)."""

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        pass

    def handle_endtag(self, tag: str) -> None:
        pass

    def handle_data(self, data: str) -> None:
        pass

    def feed(self, html: str) -> None:
        pos = 0
        for m in _TOKEN.finditer(html):
            if m.start() > pos:
                self.handle_data(unescape(html[pos:m.start()]))
            pos = m.end()
            raw, slash, tag = m.group(1), m.group(2), m.group(3)
            if raw:  # <script> or <style>: its text as it is (HTMLParser's CDATA content), never unescaped
                whole = m.group(0)
                opened = whole.index(">") + 1
                self.handle_starttag(raw.lower(), attributes(whole[len(raw) + 1:opened - 1]))
                content = whole[opened:whole.lower().rindex("</")]
                if content:
                    self.handle_data(content)
                self.handle_endtag(raw.lower())
            elif tag is None:
                continue
            elif slash:
                self.handle_endtag(tag.lower())
            else:
                attrs = m.group(4)
                self.handle_starttag(tag.lower(), attributes(attrs.rstrip("/")))
                if attrs.endswith("/"):
                    self.handle_endtag(tag.lower())
        if pos < len(html):
            self.handle_data(unescape(html[pos:]))

    def close(self) -> None:
        pass
