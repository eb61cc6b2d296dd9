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
    # Open elements, innermost last: (tag, kind, parts). A text block ("block") collects its own
    # content as parts: the index of each of its text tokens, or a marker for what sits among them:
    # an inline block (OPAQUE) or a nested block (NESTED).
    stack: list[tuple[str, str, list | None]] = []
    skipping = None
    parts = None  # the innermost open text block's parts, while text goes there
    # _TOKEN.split alternates: text at even indexes, a tag (or comment) at odd ones.
    for i in range(0, len(tokens), 2):
        if parts is not None and tokens[i]:
            parts.append(i)
        if i + 1 == len(tokens):
            break
        m = _TAG.match(tokens[i + 1])
        if m is None:  # a comment, or a lone "<"
            continue
        closing, name, attrs, selfclosing = m.group(1), m.group(2).lower(), m.group(3), m.group(4)
        if skipping is not None:
            if closing and name == skipping:
                skipping = None
                parts = _own_parts(stack)
            continue
        if not closing:
            if name in _SKIP:
                skipping, parts = name, None
                continue
            opaque = name in _OPAQUE_TAGS or ("class" in attrs and bool(set(_class_of(attrs).split()) & _OPAQUE_CLASSES))
            nested = name in blocks or name in _NESTED
            if parts is not None and (opaque or nested):
                parts.append(OPAQUE if opaque else NESTED)
            if name in _VOID or selfclosing:
                continue
            kind = "block" if name in blocks else "opaque" if opaque else "nested" if nested else "inline"
            stack.append((name, kind, [] if kind == "block" else None))
            if kind != "inline":
                parts = stack[-1][2]
            continue
        # A closing tag closes the nearest open element of its name (and whatever was left open inside it).
        for depth in range(len(stack) - 1, -1, -1):
            if stack[depth][0] == name:
                closed = stack[depth]
                del stack[depth:]
                if closed[1] == "block":
                    _tie(tokens, closed[2], limit)
                parts = _own_parts(stack)
                break
    return head + sep + "".join(tokens)


#: Markers among a block's units: an inline block (a drawn card) and a block nested in it.
OPAQUE, NESTED = "\x00opaque", "\x00nested"


def _own_parts(stack) -> list | None:
    """The parts list text goes to: the innermost text block's, unless an inline block or a nested
    block opened inside it (their text is not the block's own words)."""
    for _name, kind, parts in reversed(stack):
        if kind == "block":
            return parts
        if kind in ("opaque", "nested"):
            return None
    return None


def _class_of(attrs: str) -> str:
    m = _CLASS.search(attrs)
    return next((g for g in m.groups() if g is not None), "") if m else ""


def _units_backwards(tokens: list[str], parts: list):
    """A block's units, last first: (token index, offset, text) for each character or entity of its
    text, or a marker. Made as they are asked for: most blocks are decided by their last few words."""
    for part in reversed(parts):
        if isinstance(part, str):
            yield (None, 0, part)
            continue
        for m in reversed(list(_ENTITY_OR_CHAR.finditer(tokens[part]))):
            yield (part, m.start(), m.group(0))


def _tie(tokens: list[str], parts: list, limit: int) -> None:
    """Tie the last two words of a block, if the last is short and the block can still break elsewhere."""
    units = _units_backwards(tokens, parts)
    unit = next(units, None)
    while unit is not None and (unit[2] in _BREAKING or unit[2] == NESTED):
        unit = next(units, None)  # spaces after the last word; a nested list after the block's own text
    length = 0
    while unit is not None and unit[2] not in _BREAKING:
        if unit[2] in (OPAQUE, NESTED):
            return  # a drawn card in the last word: it is not text to tie
        length += word_length(unit[2])
        if length >= limit:
            return
        unit = next(units, None)
    if unit is None or not length:
        return
    run = []  # the spaces between the two words, last first
    while unit is not None and unit[2] in _BREAKING:
        run.append(unit)
        unit = next(units, None)
    if unit is None or unit[2] in (OPAQUE, NESTED):
        return  # nothing before, or a drawn card: never tie text to a card face
    # The block must still break somewhere: further back, past the rest of the word before, a space
    # with something before it.
    in_word = True
    for unit in units:
        if unit[2] in _BREAKING:
            in_word = False
        elif not in_word:
            break
    else:
        return
    # The run of spaces becomes one no-break space: edited first to last of the text (the run is
    # held last first), so the offsets of the earlier ones still hold.
    for n, (token, offset, _) in enumerate(run):
        text = tokens[token]
        tokens[token] = text[:offset] + (NO_BREAK if n == len(run) - 1 else "") + text[offset + 1:]
