"""The layout gate: a laid-out WeasyPrint document is checked box by box before its PDF is written.

A document fails (LayoutFailed, one line naming the artifact, the page, the box and how far out)
when, on any page:

- a box ends outside the page's content area (the paper inside its margins: the printable area);
- content runs out of a box that clips it (`overflow` other than visible) or out of a box of
  fixed height (copies of a sheet printed several to a page would overlap the next one);
- the page holds nothing but a trailing note (the rulebook's closing note alone on the last page);
- the last page holds only the document's tail: under 15 % filled and no section heading on it (a closing
  question with the colophon, a kit's prize lines);
- a heading is the last thing on a page, its text on the page before the one it heads;
- a page is blank (nothing drawn on it);
- text is set under MIN_TYPE_PT (7 pt, a print shop's floor for type read at arm's length);
- a text box crosses the rule of the table cell that holds it (a column head wider than its column).

The walk reads WeasyPrint's boxes (`Document.pages[i]._page_box`), which it does not document but
has kept since version 53; the gate costs well under 1 % of a render (`make bench` prints it).
"""

from __future__ import annotations

import weakref
from dataclasses import dataclass

from generator.core.errors import RulesheetsError

#: Rounding slack, in CSS px (a border's half-width, subpixel text advances): 1.5 px is about 1.1 pt.
SLACK = 1.5
PT_PER_PX = 0.75
#: Elements that close a document: a page holding only these is a page wasted on a note.
TRAILING = ("colophon", "closing-note")
HEADINGS = ("h1", "h2", "h3", "h4")
#: The smallest type a page may hold, in pt.
MIN_TYPE_PT = 7.0
#: A last page filled less than this, with no heading on it, holds only a document's tail.
TAIL_FILL = 0.15


class LayoutFailed(RulesheetsError):
    """A document does not fit its paper (or leaves a page with only a note): it is not published."""

    exit_code = 1


@dataclass(frozen=True)
class Finding:
    page: int  # 1-based
    message: str
    #: The last page holds only the document's tail (a layout with tighter lines may pull it back).
    tail: bool = False

    def line(self, name: str) -> str:
        return f"{name}: page {self.page}: {self.message}"


def check(document, name: str) -> None:
    """Raise LayoutFailed for the first problem of `document` (a WeasyPrint Document), else nothing."""
    findings = findings_of(document)
    if findings:
        more = f" (and {len(findings) - 1} more)" if len(findings) > 1 else ""
        raise LayoutFailed(findings[0].line(name) + more)


#: Findings of documents already walked: a card's fitting walks its final layout, and the check before
#: writing would walk it again (a document is never changed after layout).
_walked: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()


def findings_of(document) -> list[Finding]:
    """Every problem of `document`, at most one of each kind per page, in page order."""
    try:
        return list(_walked[document])
    except (KeyError, TypeError):
        pass
    out = _findings_of(document)
    try:
        _walked[document] = tuple(out)
    except TypeError:  # not weakly referable (a test's stand-in)
        pass
    return out


def _findings_of(document) -> list[Finding]:
    out: list[Finding] = []
    pages = document.pages
    for number, page in enumerate(pages, 1):
        out += _page_findings(page._page_box, number, last=number == len(pages))
    return out


def _page_findings(page_box, number: int, last: bool) -> list[Finding]:
    from weasyprint.formatting_structure import boxes

    left, top = page_box.content_box_x(), page_box.content_box_y()
    right, bottom = left + page_box.width, top + page_box.height
    found: list[Finding] = []
    outside = None  # (amount, side, box): the box that sticks out furthest
    clipped = None
    smallest = None  # (size in px, text box): the smallest type on the page
    crossing = None  # (amount in px, text box, cell): text furthest past its cell's rule
    leaves: list = []  # boxes that draw something (text, images, borders), with their ancestors and themselves
    roots = [child for child in page_box.children if not isinstance(child, boxes.MarginBox)]
    for root in roots:
        for box, ancestors in _walk(root, ()):
            sides = _sides(box, boxes)
            if sides:
                x, y, w, h = _extent(box)
                if w > 0 or h > 0:
                    for amount, side in ((left - x, "left"), (x + w - right, "right"),
                                         (top - y, "top"), (y + h - bottom, "bottom")):
                        if side in sides and amount > SLACK and (outside is None or amount > outside[0]):
                            outside = (amount, side, box, ancestors)
                if w > 0 or h > 0:
                    leaves.append((box, ancestors + (box,)))
                    if clipped is None:
                        clipped = _clipped_by(box, ancestors)
                if isinstance(box, boxes.TextBox) and box.text.strip():
                    size = box.style["font_size"]
                    if smallest is None or size < smallest[0]:
                        smallest = (size, box)
                    across = _past_cell_rule(box, ancestors, boxes)
                    if across is not None and (crossing is None or across[0] > crossing[0]):
                        crossing = (across[0], box, across[1])
    if outside is not None:
        amount, side, box, ancestors = outside
        outer = _outermost_out(ancestors, box, side, (left, top, right, bottom))
        what = _describe(outer, _first_text_out(outer, side, (left, top, right, bottom)))
        found.append(Finding(number, f"{what} ends {amount * PT_PER_PX:.0f} pt past the {side} margin"))
    if clipped is not None:
        found.append(Finding(number, clipped))
    if smallest is not None and smallest[0] * PT_PER_PX < MIN_TYPE_PT - 0.005:
        found.append(Finding(number, f"{_describe(smallest[1], smallest[1])} is set at {smallest[0] * PT_PER_PX:.2f} pt, "
                                     f"under the {MIN_TYPE_PT:g} pt floor"))
    if crossing is not None:
        amount, box, cell = crossing
        found.append(Finding(number, f"{_describe(box, box)} runs {amount * PT_PER_PX:.1f} pt past the rule of "
                                     f"{_describe(cell, None)}"))
    if not leaves and outside is None:
        found.append(Finding(number, "the page is blank (a break too many, or content that does not draw)"))
    if leaves:
        if number > 1 and all(_inside_class(anc, TRAILING) for _, anc in leaves):
            found.append(Finding(number, f"{_describe(_class_box(leaves[0][1], TRAILING), leaves[0][0])} "
                                         "is alone on the page (keep it with the text before it)"))
        if last and number > 1:
            tail = _tail_finding(leaves, top, bottom - top)
            if tail:
                found.append(Finding(number, tail, tail=True))
        box, ancestors = leaves[-1]
        heading = next((a for a in reversed(ancestors) if a.element_tag in HEADINGS), None)
        if heading is not None and not last and _is_heading_end(heading, leaves):
            found.append(Finding(number, f"{_describe(heading, box)} is the last line of the page, "
                                         "apart from what it heads"))
    return found


def has_tail(document) -> bool:
    """Whether the last page of `document` holds only its tail (see `_tail_finding`); the walk is kept
    for the check before writing."""
    return any(f.tail for f in findings_of(document))


def _tail_finding(leaves, top: float, height: float) -> str | None:
    """The last page holds only the document's tail: under TAIL_FILL of its height, and no section begins
    on it (no h1 or h2: a closing question and the colophon, a kit's prize lines)."""
    lowest = max(_extent(box)[1] + _extent(box)[3] for box, _ in leaves)
    filled = (lowest - top) / height if height else 1.0
    if filled >= TAIL_FILL or any(a.element_tag in ("h1", "h2") for _, anc in leaves for a in anc):
        return None
    first = next((t for t in (_text_of(box) for box, _ in leaves) if t), "")
    return (f"the last page holds only '{first}' and what follows "
            f"({filled:.0%} filled, under {TAIL_FILL:.0%}): pull it back to the page before")


def _walk(box, ancestors: tuple):
    """Every box under `box` with its ancestors, skipping boxes that are not laid out (placeholders)."""
    yield box, ancestors
    children = getattr(box, "children", None)
    if children:
        inner = ancestors + (box,)
        for child in children:
            if hasattr(child, "position_x"):
                yield from _walk(child, inner)


def _extent(box) -> tuple[float, float, float, float]:
    """The box's border box (x, y, width, height) in CSS px; text boxes have no border."""
    w, h = box.border_width(), box.border_height()
    return box.border_box_x(), box.border_box_y(), w, h


_ALL = ("left", "right", "top", "bottom")


def _sides(box, boxes) -> tuple[str, ...]:
    """The sides of `box` that must stay on the page.

    Text is held to the left and right; its height is the font's (taller than the line in CJK
    fonts), so lines are held to the top and bottom instead.
    """
    if isinstance(box, boxes.TextBox):
        return ("left", "right")
    if isinstance(box, boxes.LineBox):
        return ("top", "bottom")
    if isinstance(box, boxes.ReplacedBox) or _draws_border(box):
        return _ALL
    return ()


def _draws_border(box) -> bool:
    """A box with a visible border or background is drawn even when empty (a tally box, a rule)."""
    style = box.style
    if getattr(box, "element_tag", None) is None:
        return False
    if any(style[f"border_{side}_width"] for side in ("top", "right", "bottom", "left")):
        return True
    return style["background_color"].alpha > 0 if hasattr(style["background_color"], "alpha") else False


def _clipped_by(box, ancestors) -> str | None:
    """A message when `box` (a leaf that draws) runs out of an ancestor that clips or has a fixed height."""
    x, y, w, h = _extent(box)
    for anc in reversed(ancestors):
        style = anc.style
        clips = style["overflow"] != "visible"
        sized = anc.element_tag not in ("html", "body") and not _is_table_part(anc)
        tall = sized and style["height"] != "auto"
        wide = sized and style["width"] != "auto"
        if not (clips or tall or wide):
            continue
        ax, ay = anc.padding_box_x(), anc.padding_box_y()
        aw, ah = anc.padding_width(), anc.padding_height()
        if clips:  # a clipping box hides content on any side
            beyond = max(ax - x, x + w - ax - aw, ay - y, y + h - ay - ah)
        else:  # a box of fixed size lets content run out (into the next copy of a sheet, say)
            beyond = max(y + h - ay - ah if tall else 0, x + w - ax - aw if wide else 0)
        if beyond > SLACK:
            verb = "is clipped by" if clips else "runs out of the bottom of"
            return f"{_describe(box, box)} {verb} {_describe(anc, None)} by {beyond * PT_PER_PX:.0f} pt"
    return None


def _past_cell_rule(text, ancestors, boxes) -> tuple[float, object] | None:
    """How far (px) `text` runs past a drawn side rule of the table cell holding it, and the cell; None inside."""
    cell = next((a for a in reversed(ancestors) if isinstance(a, boxes.TableCellBox)), None)
    if cell is None:
        return None
    x, _, w, _ = _extent(text)
    inner_left = cell.padding_box_x()
    inner_right = inner_left + cell.padding_width()
    # The rule sits in the cell's border (or in its neighbour's, collapsed): text past the padding box's edge
    # on a side that has a rule is text across it.
    left_rule = cell.border_left_width > 0 or cell.style["border_left_width"] > 0
    right_rule = cell.border_right_width > 0 or cell.style["border_right_width"] > 0
    beyond = max((x + w) - inner_right if right_rule else 0, inner_left - x if left_rule else 0)
    return (beyond, cell) if beyond > SLACK else None


def _is_table_part(box) -> bool:
    from weasyprint.formatting_structure import boxes

    # A table cell's height is a minimum: its row grows with the content.
    return isinstance(box, (boxes.TableCellBox, boxes.TableRowBox, boxes.TableRowGroupBox, boxes.TableBox))


def _outermost_out(ancestors, box, side, area) -> object:
    """The outermost element box that sticks out on `side` too (the table rather than its last cell)."""
    left, top, right, bottom = area
    for anc in ancestors:
        if anc.element_tag in (None, "html", "body", "main") or anc.element is None:
            continue
        x, y, w, h = _extent(anc)
        amount = {"left": left - x, "right": x + w - right, "top": top - y, "bottom": y + h - bottom}[side]
        if amount > SLACK:
            return anc
    return box


def _first_text_out(box, side, area):
    """The first text of `box` that lies past the margin on `side` (the first column that is cut off)."""
    from weasyprint.formatting_structure import boxes

    left, top, right, bottom = area
    for b in box.descendants():
        if isinstance(b, boxes.TextBox) and b.text.strip():
            x, y, w, h = _extent(b)
            if {"left": left - x, "right": x + w - right, "top": top - y, "bottom": y + h - bottom}[side] > SLACK:
                return b
    return None


def _inside_class(ancestors, classes) -> bool:
    return _class_box(ancestors, classes) is not None


def _class_box(ancestors, classes):
    for anc in ancestors:
        element = anc.element
        if element is not None and set((element.get("class") or "").split()) & set(classes):
            return anc
    return None


def _is_heading_end(heading, leaves) -> bool:
    """The page's last text is a heading's (its first text is on this page: a heading, not a page's tail)."""
    return any(heading in anc for _, anc in leaves)


def _text_of(box, limit: int = 40) -> str:
    parts = []
    for b in box.descendants() if hasattr(box, "descendants") else (box,):
        text = getattr(b, "text", None)
        if text:
            parts.append(text)
        if sum(map(len, parts)) > limit:
            break
    text = " ".join(" ".join(parts).replace("\u2060", "").split())
    return text if len(text) <= limit else text[:limit - 1] + "…"


def _describe(box, leaf) -> str:
    """`table 'Set 6'`: the element's name and the text where it fails (or its own first text)."""
    if box is None:
        return "a box"
    tag = box.element_tag or "box"
    if tag in ("td", "th"):
        tag = "table cell"
    classes = (box.element.get("class") or "").split() if box.element is not None else []
    name = f"{tag}.{classes[0]}" if classes and tag in ("div", "section", "p", "span", "aside", "footer") else tag
    text = _text_of(leaf) if leaf is not None and getattr(leaf, "text", None) else _text_of(box)
    return f"{name} '{text}'" if text else name


def fill(document) -> float:
    """How much of the first page's content height is used: the bottom of its lowest drawn box."""
    from weasyprint.formatting_structure import boxes

    page_box = document.pages[0]._page_box
    top, height = page_box.content_box_y(), page_box.height
    lowest = top
    for root in page_box.children:
        if isinstance(root, boxes.MarginBox):
            continue
        for box, _ in _walk(root, ()):
            if _sides(box, boxes):
                x, y, w, h = _extent(box)
                if w > 0 or h > 0:
                    lowest = max(lowest, y + h)
    return (lowest - top) / height if height else 0.0



# --- Craft: paragraphs whose last line is one short word -------------------------------------------

#: Text blocks whose last line is looked at: paragraphs, list items, definitions, captions, cells.
TEXT_BLOCKS = ("p", "li", "dd", "dt", "td", "th", "figcaption", "blockquote")
@dataclass(frozen=True)
class ShortEnding:
    page: int  # 1-based: the page of the last line
    tag: str
    word: str
    text: str  # the start of the block's text, to find it

    def line(self, name: str) -> str:
        return f"{name}: page {self.page}: {self.tag} '{self.text}' ends with the line '{self.word}' alone"


def short_endings(document, lang: str) -> list[ShortEnding]:
    """Text blocks of several lines whose last line holds a single word shorter than the script's limit.

    A "word" is what spaces (any, the no-break ones included) separate: a Korean eojeol, a Hindi,
    Bengali or Nepali word; it is short by the script's rule of render/ties.py (the filter that ties it). A block split over two pages is one block; its last line is on the later page.
    A block of two words is left out: its one break leaves a word alone, and there is no better one.
    """
    from weasyprint.formatting_structure import boxes

    from generator.render.ties import short_word_limit, word_length

    limit = short_word_limit(lang)
    # Per element: its lines in reading order, each as (page, text).
    lines: dict[int, list] = {}
    owners: dict[int, object] = {}
    for number, page in enumerate(document.pages, 1):
        for root in page._page_box.children:
            if isinstance(root, boxes.MarginBox):
                continue
            for box, ancestors in _walk(root, ()):
                if not isinstance(box, boxes.LineBox):
                    continue
                owner = _text_block(ancestors)
                if owner is None:
                    continue
                key = id(owner.element)
                owners[key] = owner
                lines.setdefault(key, []).append((number, _line_text(box, boxes)))
    found = []
    for key, block_lines in lines.items():
        texts = [(n, t) for n, t in block_lines if t.strip()]
        if len(texts) < 2:
            continue
        page, last = texts[-1]
        words = last.split()
        # Two words on two lines: the only break there is; nothing better is possible.
        if len(words) == 1 and word_length(words[0]) < limit and sum(len(t.split()) for _, t in texts) > 2:
            owner = owners[key]
            found.append(ShortEnding(page, owner.element_tag, words[0], _text_of(owner)))
    return sorted(found, key=lambda f: f.page)


def _text_block(ancestors):
    """The text block (p, li, …) a line box is a line of: its parent, when that is one, else None.

    A line of a list marker, of a drawn card (an inline block) or of a span shown as a block is not
    a paragraph's line.
    """
    parent = ancestors[-1] if ancestors else None
    if parent is not None and parent.element_tag in TEXT_BLOCKS and parent.element is not None:
        return parent
    return None


def _line_text(line, boxes) -> str:
    """A line's text as drawn: its text boxes in order; an inline block (a drawn card, a die) is one word."""
    parts: list[str] = []

    def visit(box):
        if isinstance(box, boxes.TextBox):
            parts.append(box.text)
        elif isinstance(box, (boxes.InlineBlockBox, boxes.InlineReplacedBox)):
            parts.append(" \ufffc ")
        else:
            for child in getattr(box, "children", ()):
                visit(child)

    visit(line)
    return "".join(parts).replace("\u2060", "")
