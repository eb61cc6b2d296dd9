"""HTML of a game night kit: the parts a game contributes, the tables of a card game, and the whole kit."""

from __future__ import annotations

import math
import re

from babel.dates import format_date
from markupsafe import Markup

from generator.core.errors import InputError, Problem
from generator.i18n.translate import COMMON_DOMAIN, Translator
from generator.edition.sheets import SheetOptions
from generator.render.html import card_table_label, environment, house_rules_box, locale_globals, model_text, rules_in_force
from generator.render.sheets import kind_of, quick_reference, sheet_class

_BODY = re.compile(r'<body class="([^"]*)">\n?(.*)</body>', re.S)
_MAIN = re.compile(r"<(/?)main\b")


def part(id: str, title: str, docs: list[str], count: int, pages: int, cut: bool = False,
         domain: str | None = None) -> dict:
    """One kind of sheet in the kit: its sheet documents (each from a fresh page), how many, how many pages.

    `title` is a msgid of the game's own catalog (mark it `N_("...")`), or of `domain` when given.
    """
    return {"id": id, "title": title, "docs": docs, "count": count, "pages": pages, "cut": cut, "domain": domain}


def card_part(edition, tr: Translator, so: SheetOptions, tables: int) -> dict:
    """The quick-reference card, one for each table."""
    return part("quick-reference", "Quick reference", [quick_reference(edition, tr, so)] * tables, tables, tables,
                domain=COMMON_DOMAIN)


def split_tables(names: list[str], size: int) -> list[list[str]]:
    """Players in list order at the fewest tables of at most `size`, as evenly as possible."""
    count = math.ceil(len(names) / size)
    base, extra = divmod(len(names), count)
    out, start = [], 0
    for i in range(count):
        n = base + (i < extra)
        out.append(names[start:start + n])
        start += n
    return out


def card_tables(edition, tr: Translator, names: list[str], size: int, least: int):
    """A card game's tables: the players split into tables of at most `size`, and each table's label."""
    if len(names) < least:
        raise InputError(Problem("--players", None, f"{edition.model.name} needs at least {least} players, "
                                                    f"got {len(names)}"))
    groups = split_tables(names, size)
    # Card tables are not ranked like Bunco tables: "the table", or "Table 1", "Table 2"...
    labels = [card_table_label(tr, i, len(groups)) for i in range(len(groups))]
    return groups, labels


def seating(labels: list, groups: list[list[str]]) -> list[dict]:
    """Who sits at which card table, for the contents page.

    Names are joined by a middle dot: a list through Babel would bring Korean's formal 및.
    """
    return [{"label": label, "names": " · ".join(group)} for label, group in zip(labels, groups)]


def body_of(html: str) -> tuple[str, Markup]:
    """A sheet document's body class and content, to be one part of a kit (its <main> becomes a <div>)."""
    m = _BODY.search(html)
    if m is None:  # every sheet extends base.html.j2; anything else is a programming error
        raise ValueError("not a sheet document")
    return m.group(1), Markup(_MAIN.sub(r"<\1div", m.group(2)))


def kit_document(edition, tr: Translator, opts: SheetOptions, parts: list[dict], players: list[str],
                 tables: list[dict], ghost: bool, show_tables: bool) -> str:
    """The whole kit: a contents page, then each part (a rendered sheet document) from a fresh page."""
    g = locale_globals(tr)
    model = edition.model
    name = model_text(tr, model.game, model.name, edition.values)
    title = g["_"]("{game}: game night kit", game=name).striptags()
    views, page = [], 2  # the contents take page 1
    for part in parts:
        bodies = [body_of(doc) for doc in part["docs"]]
        # Each document of a part (a table's scorepad, its card) starts a page of its own.
        content = Markup("").join(Markup('<div class="page">') + b + Markup("</div>") for _, b in bodies)
        views.append({**part, "body_class": bodies[0][0], "html": content,
                      "title": g["dgettext"](part.get("domain") or model.game, part["title"]), "first_page": page})
        page += part["pages"]
    date = tr.digits(format_date(opts.date, "long", locale=tr.code)) if opts.date else ""
    return environment().get_template("kit.html.j2").render(
        **g, title=title, description=title, author=model.author, published=model.published.isoformat(),
        body_class=sheet_class("kit", model.game), game=model.game, rules=edition.rules, values=edition.values,
        style_kinds=tuple(dict.fromkeys(kind_of(view["body_class"]) for view in views)),  # each part's own CSS
        rules_in_force=rules_in_force(edition), game_name=name, group=opts.group, date=date,
        players=players, tables=tables, ghost=ghost, show_tables=show_tables, parts=views,
        house_rules=house_rules_box(edition, tr))
