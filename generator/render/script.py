"""Script-specific fixes applied to finished HTML (Korean words must not break inside)."""

from __future__ import annotations

import re

_HANGUL = r"\u1100-\u11ff\u3130-\u318f\uac00-\ud7af"
# A run of non-space characters that contains Hangul: one Korean word (with its particles).
_KO_WORD = re.compile(rf"[^\s<>]*[{_HANGUL}][^\s<>]*")
_TEXT = re.compile(r">([^<]+)<")
_SKIP = re.compile(r"<(style|script|title|svg)\b.*?</\1>", re.S)


def keep_korean_words(html: str) -> str:
    """Wrap every Korean word in a no-wrap span: WeasyPrint ignores `word-break: keep-all`."""
    head, sep, body = html.partition("<body")
    if not sep:
        head, body = "", html
    out, pos = [], 0
    for skip in _SKIP.finditer(body):
        out.append(_wrap(body[pos:skip.start()]))
        out.append(skip.group(0))
        pos = skip.end()
    out.append(_wrap(body[pos:]))
    return head + sep + "".join(out)


def _wrap(fragment: str) -> str:
    return _TEXT.sub(lambda m: ">" + _KO_WORD.sub(r'<span class="kw">\g<0></span>', m.group(1)) + "<", fragment)
