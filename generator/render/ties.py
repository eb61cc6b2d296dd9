"""No paragraph ends with a short word alone on its last line: a no-break space ties it to the word before.

One text filter over the body of every document (templates/base.html.j2: rulebooks, sheets, cards,
kits; so a document's HTML, its PDFs and its booklets agree). In each text block (p, li, dd, dt,
figcaption; td and th where the document asks) the space before the last word becomes U+00A0 when
that word is shorter than the script's limit and the block has at least three words, so a break is
left elsewhere. Only a space between two runs of text is changed: never one inside a tag, and never
where a drawn card, a die or a picture (inline blocks) sits between the space and the block's end.
A no-break space the text already has (French U+202F before `?`, `:`) is part of the word it joins.

Table cells are tied only in the rulebook, whose example tables size their columns to their content;
a sheet's grid has columns of set widths, where two tied words could run past a narrow column.
"""

from __future__ import annotations

import re

#: The space written between the last two words.
NO_BREAK = "\u00a0"
#: Text blocks whose last two words are tied; CELLS too when the document asks.
BLOCKS = frozenset(("p", "li", "dd", "dt", "figcaption"))
CELLS = frozenset(("td", "th"))
#: A word is short below this length (word_length). Per script: a Latin word of up to 6 letters with
#: its punctuation ("pass.", "cards."); a Korean word (eojeol) of up to 3 syllables and a stop, a
#: syllable counting two ("돼요.", "21점."); a Devanagari or Bengali word of up to 6 code points, vowel
#: signs and viramas included ("है।" is 3, "देखिए।" 6).
SHORT_WORD = {"latn": 7, "hang": 8, "deva": 7, "beng": 7}
_SCRIPT_OF_LANG = {"ko": "hang", "hi": "deva", "ne": "deva", "bn": "beng"}
#: Spaces a line may break at; U+00A0, U+202F and U+2007 are not among them.
_BREAKING = frozenset(" \t\n\r")
#: Elements whose content is not text of the page.
_SKIP = frozenset(("style", "script", "title", "svg", "template"))
#: Inline content the tie may not reach across: drawn cards and dice (inline blocks), pictures, breaks.
_OPAQUE_TAGS = frozenset(("img", "svg", "br", "input", "button", "select", "textarea"))
_OPAQUE_CLASSES = frozenset(("card", "hand", "dice", "die"))
_VOID = frozenset(("area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source",
                   "track", "wbr"))
_TOKEN = re.compile(r"(<!--.*?-->|<[^>]*>)", re.S)
_TAG = re.compile(r"<\s*(/?)\s*([A-Za-z][\w:-]*)([^>]*?)(/?)\s*>", re.S)
_CLASS = re.compile(r"""\bclass\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+))""")
_ENTITY = re.compile(r"&#?\w+;")
_ENTITY_OR_CHAR = re.compile(r"&#?\w+;|.", re.S)
_BREAKS = re.compile(r"[ \t\n\r]+")
#: Block elements that may sit inside a text block (a list in a list item).
_NESTED = frozenset(("ul", "ol", "dl", "div", "table", "figure", "section", "blockquote"))


def word_length(word: str) -> int:
    """A word's length for SHORT_WORD: code points, a wide one (a Hangul syllable) counting two, an
    entity (`&amp;`) one, format characters (U+2060 joiners put in for print) none."""
    import unicodedata

    word = _ENTITY.sub("&", word)
    return sum(0 if unicodedata.category(ch) == "Cf" else 2 if unicodedata.east_asian_width(ch) in "WF" else 1
               for ch in word)


def short_word_limit(lang: str) -> int:
    """The length below which a word of the language's script is short."""
    return SHORT_WORD[_SCRIPT_OF_LANG.get(lang.split("-")[0].lower(), "latn")]


def tie_last_words(html: str, lang: str, cells: bool = False) -> str:
    """`html` with the last two words of each text block of its <body> tied where the last one is short
    (a fragment without <body> is all body); `cells`: table cells too."""
    limit = short_word_limit(lang)
    blocks = BLOCKS | CELLS if cells else BLOCKS
    head, sep, body = html.partition("<body")
    if not sep:
        head, body = "", html
    tokens = _TOKEN.split(body)
    # Open elements, innermost last: (tag, kind, units). A text block ("block") collects its own
    # content as units: (token index, offset, text) for each character or entity of its text, or a
    # marker for what sits among them: an inline block (OPAQUE) or a nested block (NESTED).
    stack: list[tuple[str, str, list | None]] = []
    skipping = None
    for i, tok in enumerate(tokens):
        if not tok.startswith("<"):
            if skipping is None and tok:
                units = _own_units(stack)
                if units is not None:
                    for m in _ENTITY_OR_CHAR.finditer(tok):
                        units.append((i, m.start(), m.group(0)))
            continue
        m = _TAG.match(tok)
        if m is None or tok.startswith("<!--"):
            continue
        closing, name, attrs, selfclosing = m.group(1), m.group(2).lower(), m.group(3), m.group(4)
        if skipping is not None:
            if closing and name == skipping:
                skipping = None
            continue
        if not closing:
            if name in _SKIP:
                skipping = name
                continue
            opaque = name in _OPAQUE_TAGS or bool(set(_class_of(attrs).split()) & _OPAQUE_CLASSES)
            nested = name in blocks or name in _NESTED
            units = _own_units(stack)
            if units is not None and (opaque or nested):
                units.append((i, 0, OPAQUE if opaque else NESTED))
            if name in _VOID or selfclosing:
                continue
            kind = "block" if name in blocks else "opaque" if opaque else "nested" if nested else "inline"
            stack.append((name, kind, [] if kind == "block" else None))
            continue
        # A closing tag closes the nearest open element of its name (and whatever was left open inside it).
        for depth in range(len(stack) - 1, -1, -1):
            if stack[depth][0] == name:
                closed = stack[depth]
                del stack[depth:]
                if closed[1] == "block":
                    _tie(tokens, closed[2], limit)
                break
    return head + sep + "".join(tokens)


#: Markers among a block's units: an inline block (a drawn card) and a block nested in it.
OPAQUE, NESTED = "\x00opaque", "\x00nested"


def _own_units(stack) -> list | None:
    """The units list text goes to: the innermost text block's, unless an inline block or a nested
    block opened inside it (their text is not the block's own words)."""
    for _name, kind, units in reversed(stack):
        if kind == "block":
            return units
        if kind in ("opaque", "nested"):
            return None
    return None


def _class_of(attrs: str) -> str:
    m = _CLASS.search(attrs)
    return next((g for g in m.groups() if g is not None), "") if m else ""


def _tie(tokens: list[str], units: list, limit: int) -> None:
    """Tie the last two words of a block (its units), if the last is short and the block can still break."""
    end = len(units)
    while end and (units[end - 1][2] in _BREAKING or units[end - 1][2] == NESTED):
        end -= 1  # spaces after the last word; a nested list after the block's own text
    length, k = 0, end - 1
    while k >= 0 and units[k][2] not in _BREAKING:
        if units[k][2] in (OPAQUE, NESTED):
            return  # a drawn card in the last word: it is not text to tie
        length += word_length(units[k][2])
        k -= 1
    if k < 0 or not length or length >= limit:
        return
    space = k
    while k >= 0 and units[k][2] in _BREAKING:
        k -= 1
    if k < 0 or units[k][2] in (OPAQUE, NESTED):
        return  # nothing before, or a drawn card: never tie text to a card face
    first = next(n for n, u in enumerate(units) if u[2] not in _BREAKING)
    if not any(u[2] in _BREAKING for u in units[first:k]):
        return  # the block could not break anywhere else
    # The run of spaces between the two words becomes one no-break space (edited last to first,
    # so the offsets of the earlier ones still hold).
    for n in range(space, k, -1):
        token, offset, _ = units[n]
        text = tokens[token]
        tokens[token] = text[:offset] + (NO_BREAK if n == k + 1 else "") + text[offset + 1:]
