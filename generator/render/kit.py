"""HTML of a game night kit: the sheets only a kit has (signs, slips, results, ledger, tokens) and the whole kit."""

from __future__ import annotations

import re

from babel.dates import format_date
from markupsafe import Markup

from generator.i18n.translate import Translator
from generator.edition.sheets import SheetOptions
from generator.render.html import environment, house_rules_box, locale_globals, model_text, rules_in_force
from generator.render.sheets import _render, stake_text

_BODY = re.compile(r'<body class="([^"]*)">\n?(.*)</body>', re.S)
_MAIN = re.compile(r"<(/?)main\b")


def table_signs(edition, tr: Translator, labels: list[Markup]) -> str:
    signs = [{"label": label, "head": i == 0} for i, label in enumerate(labels)]
    name = model_text(tr, edition.model.game, edition.model.name, edition.values)
    return _render("kit/table-signs.html.j2", edition, tr, "Table signs", "table-signs", signs=signs, game_name=name)


def seat_slips(edition, tr: Translator, slips: list[dict], per_page: int) -> str:
    return _render("kit/seat-slips.html.j2", edition, tr, "Seat draw for round 1", "seat-slips",
                   slips=slips, per_page=per_page)


def results(edition, tr: Translator, players: list[str]) -> str:
    return _render("kit/results.html.j2", edition, tr, "Bunco results", "results", players=players)


def ledger(edition, tr: Translator, opts: SheetOptions, label: Markup, players: list[str], hands: int) -> str:
    return _render("kit/ledger.html.j2", edition, tr, "Tonk money ledger", "ledger", label=label,
                   players=players, hands=hands, stake_text=stake_text(tr, opts))


def token_tracker(edition, tr: Translator, label: Markup, players: list[str]) -> str:
    return _render("kit/token-tracker.html.j2", edition, tr, "Stop the Bus token tracker", "token-tracker",
                   label=label, players=players, tokens=edition.rules.tokens)


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
                      "title": g["_"](part["title"]), "first_page": page})
        page += part["pages"]
    date = tr.digits(format_date(opts.date, "long", locale=tr.code)) if opts.date else ""
    return environment().get_template("kit.html.j2").render(
        **g, title=title, description=title, author=model.author, published=model.published.isoformat(),
        body_class=f"sheet kit game-{model.game}", rules=edition.rules, values=edition.values,
        rules_in_force=rules_in_force(edition), game_name=name, group=opts.group, date=date,
        players=players, tables=tables, ghost=ghost, show_tables=show_tables, parts=views,
        house_rules=house_rules_box(edition, tr))
