"""Script-specific fixes for print: Korean words must not break inside (WeasyPrint ignores keep-all)."""

from __future__ import annotations

import re

_HANGUL = re.compile(r"[\u1100-\u11ff\u3130-\u318f\uac00-\ud7af]")
#: U+2060 WORD JOINER: no line break between its neighbours; drawn as nothing, not copied out of the PDF.
WORD_JOINER = "\u2060"
_TEXT = re.compile(r">([^<]+)<")
_SKIP = re.compile(r"<(style|script|title|svg)\b.*?</\1>", re.S)
# One unit of text: an entity (never split) or a single character.
_UNIT = re.compile(r"&#?\w+;|.", re.S)
_WORD = re.compile(r"[^\s<>]+")


def join_korean_words(html: str) -> str:
    """Put a word joiner between the letters of every word containing Hangul (text of <body> only).

    The browser honours `word-break: keep-all`; WeasyPrint does not and would break Korean words
    anywhere. Joiners keep each word whole and cost nothing at layout time (a no-wrap span around
    every word doubled the time to lay out a Korean rulebook).
    """
    head, sep, body = html.partition("<body")
    if not sep:
        head, body = "", html
    out, pos = [], 0
    for skip in _SKIP.finditer(body):
        out.append(_join_text(body[pos:skip.start()]))
        out.append(skip.group(0))
        pos = skip.end()
    out.append(_join_text(body[pos:]))
    return head + sep + "".join(out)


def _join_word(match: re.Match) -> str:
    word = match.group(0)
    return WORD_JOINER.join(_UNIT.findall(word)) if _HANGUL.search(word) else word


def _join_text(fragment: str) -> str:
    return _TEXT.sub(lambda m: ">" + _WORD.sub(_join_word, m.group(1)) + "<", fragment)


def for_print(html: str, lang: str) -> str:
    """The HTML WeasyPrint gets: the document itself, plus what print needs for the script."""
    return join_korean_words(html) if lang == "ko" else html
