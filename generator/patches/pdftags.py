"""Alternative text and table summaries in WeasyPrint 70's PDF structure tree, from the HTML's ARIA labels.

WeasyPrint tags a PDF from the HTML (`pdf_tags=True`) but gives alternative text only to <img alt>
and to an SVG's <title>. Our cards are drawn with text and CSS (`<span role="img" aria-label="King
of spades">K♠</span>`), so a screen reader would say "K black spade suit". This patch gives such an
element's structure element the /Alt of its label (PDF 14.9.3: Alt replaces the content when read
aloud), and a <table aria-label="..."> the /Summary attribute of PDF tables (14.8.5.7), so the many
empty boxes of a score sheet are announced once, by purpose.

It also makes the tree smaller. WeasyPrint gives every piece of text (each line of each inline box)
its own /Span structure element holding one marked-content id; a PDF structure element may hold
those ids itself (14.7.2). Folding such bare spans into their parent halves the number of
structure elements, which is most of what tagging adds to a file. Tied to WeasyPrint 70.0 like
actualtext.

For PDF/UA-1 (ISO 14289-1, which the PDFs declare through WeasyPrint's `pdf/ua-1` variant) it adds
two things WeasyPrint leaves out:

- every table header cell says what it heads (/Scope /Column, or /Row for `<th scope="row">`),
  beside the /Headers WeasyPrint gives the data cells (7.5: header cells shall be determinable);
- a group WeasyPrint paints on a page outside any marked content (an element with `opacity`, a
  masked background image, drawn once into a form XObject and then shown with `Do`) is marked:
  as /Span when the group holds tagged content (its own marked content, with MCIDs, stays inside),
  as an /Artifact when it holds only decoration (7.1: content is real content or an artifact).
"""

from __future__ import annotations

from generator.patches.actualtext import SUPPORTED_WEASYPRINT  # noqa: F401  (imports the version guard)

import re  # noqa: E402

import pydyf  # noqa: E402
import weasyprint.pdf as _pdf  # noqa: E402
from weasyprint.pdf import tags as _tags  # noqa: E402

_original_build_box_tree = _tags._build_box_tree
_original_add_tags = _tags.add_tags
_REFERENCE = re.compile(rb"(\d+) 0 R")
#: The keys of a structure element WeasyPrint makes for one piece of text, and nothing else.
_BARE_SPAN = {"Type", "S", "K", "Pg", "P"}
#: HTML's scope attribute as PDF's /Scope (a header cell without one heads its column, as WeasyPrint reads it).
_SCOPES = {"row": "/Row", "rowgroup": "/Row", "col": "/Column", "colgroup": "/Column"}


def _build_box_tree(box, parent, pdf, page_number, nums, annotations, tags):
    """WeasyPrint's `_build_box_tree`, then the box's ARIA label as /Alt (role="img") or table /Summary."""
    element = getattr(box, "_box", box).element  # an absolutely placed box stands for its own box
    label = element.get("aria-label") if element is not None else None
    tag = getattr(box, "element_tag", None)
    for struct in _original_build_box_tree(box, parent, pdf, page_number, nums, annotations, tags):
        if label and tag not in ("html", "body"):
            if element.get("role") == "img":
                struct["Alt"] = pydyf.String(label)
            elif tag == "table" and struct["S"] == "/Table":
                struct["A"] = pydyf.Dictionary({"O": "/Table", "Summary": pydyf.String(label)})
        if tag == "th" and struct["S"] == "/TH" and element is not None:
            struct.setdefault("A", pydyf.Dictionary({"O": "/Table"}))["Scope"] = _SCOPES.get(
                (element.get("scope") or "").strip().lower(), "/Column")
        yield struct


def add_tags(pdf, document, pdf_version, page_streams):
    """WeasyPrint's `add_tags`, then bare text spans folded into their parents."""
    first = len(pdf.objects)
    _original_add_tags(pdf, document, pdf_version, page_streams)
    fold_text_spans(pdf, first)
    for stream in page_streams:
        mark_group_paints(pdf, stream)


def _form(pdf, value):
    """A form XObject from a resource dictionary: the stream itself, or the object a reference names."""
    if isinstance(value, bytes) and _REFERENCE.fullmatch(value):
        value = _resolve(pdf, value)
    return value if isinstance(getattr(value, "stream", None), list) else None


def _holds_tags(pdf, group, seen=()) -> bool:
    """Whether a form XObject's content (or a form it paints) holds marked content with an MCID."""
    if any(isinstance(item, pydyf.Dictionary) and "MCID" in item for item in group.stream):
        return True
    resources = getattr(group, "_resources", None) or {}
    inner = [_form(pdf, v) for v in (resources.get("XObject") or {}).values()]
    return any(_holds_tags(pdf, f, (*seen, id(group))) for f in inner if f is not None and id(f) not in seen)


def mark_group_paints(pdf, stream) -> None:
    """Wrap each `Do` of a page stream that sits outside marked content: /Span around a group that holds
    tagged content, /Artifact around one that holds none."""
    items, depth, out = stream.stream, 0, []
    forms = stream._resources["XObject"]
    for item in items:
        if item in (b"BDC", b"BMC"):
            depth += 1
        elif item == b"EMC":
            depth -= 1
        elif depth == 0 and isinstance(item, bytes) and item.endswith(b" Do") and item.startswith(b"/"):
            form = _form(pdf, forms.get(item[1:-3].decode()))
            tag = "/Span" if form is not None and _holds_tags(pdf, form) else "/Artifact"
            out += [tag, b"BMC", item, b"EMC"]
            continue
        out.append(item)
    stream.stream[:] = out


def _resolve(pdf, reference):
    return pdf.objects[int(reference.split()[0])]


def fold_text_spans(pdf, first: int) -> None:
    """Replace each structure element that is a bare /Span around one marked-content id by that id.

    `first` is the number of the first object the tagging added: those objects (and only they) are
    renumbered once the folded spans are gone, and every reference to them rewritten.
    """
    root = _resolve(pdf, pdf.catalog["StructTreeRoot"])
    parent_tree = _resolve(pdf, root["ParentTree"])
    # Where each marked-content id's owner is recorded: page number -> array indexed by id.
    owners = {bytes(pdf.page_references[page]): parent_tree["Nums"][2 * i + 1]
              for i, page in enumerate(parent_tree["Nums"][0::2]) if isinstance(page, int)
              and page < len(pdf.page_references) and 2 * i + 1 < len(parent_tree["Nums"])
              and isinstance(parent_tree["Nums"][2 * i + 1], pydyf.Array)}
    folded = set()
    for obj in pdf.objects[first:]:
        if not (isinstance(obj, pydyf.Dictionary) and obj.get("Type") == "/StructElem" and obj["S"] == "/Span"
                and set(obj) == _BARE_SPAN and len(obj["K"]) == 1 and isinstance(obj["K"][0], int)):
            continue
        parent = _resolve(pdf, obj["P"])
        mcid, page = obj["K"][0], bytes(obj["Pg"])
        if parent.get("Pg") != obj["Pg"] or obj.reference not in parent["K"] or page not in owners:
            continue  # a parent on no page (the document element) cannot hold a page's content ids
        parent["K"][parent["K"].index(obj.reference)] = mcid
        owners[page][mcid] = parent.reference
        folded.add(obj.number)
    if not folded:
        return
    kept = [obj for obj in pdf.objects[first:] if obj.number not in folded]
    numbers = {obj.number: first + i for i, obj in enumerate(kept)}
    del pdf.objects[first:]
    for i, obj in enumerate(kept):
        obj.number = first + i
        pdf.objects.append(obj)
        _renumber(obj, numbers)
    pdf.catalog["StructTreeRoot"] = _new_reference(pdf.catalog["StructTreeRoot"], numbers)


def _new_reference(value, numbers: dict[int, int]):
    if isinstance(value, bytes):
        match = _REFERENCE.fullmatch(value)
        if match and int(match.group(1)) in numbers:
            return f"{numbers[int(match.group(1))]} 0 R".encode()
    return value


def _renumber(container, numbers: dict[int, int]) -> None:
    """Rewrite references to renumbered objects inside a dictionary or array (recursively)."""
    items = container.items() if isinstance(container, dict) else enumerate(container)
    for key, value in list(items):
        if isinstance(value, (pydyf.Dictionary, pydyf.Array)) and not getattr(value, "number", None):
            _renumber(value, numbers)
        else:
            container[key] = _new_reference(value, numbers)


def install() -> None:
    """Tag every following PDF through the functions above (idempotent; recursion goes through them too)."""
    _tags._build_box_tree = _build_box_tree
    _pdf.add_tags = add_tags
