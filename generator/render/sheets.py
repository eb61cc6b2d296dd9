"""HTML for the printable sheets, from the game's edition (rules, model, engine) and the host's options."""

from __future__ import annotations

from markupsafe import Markup

from generator.i18n.translate import Translator
from generator.edition.sheets import SheetOptions
from generator.render.html import (environment, house_rules_box, locale_globals, model_text, rules_in_force,
                                   template_domain)

#: Titles the shared code passes to templates (extracted into the common catalog with the templates' strings).
TITLES = ("{game}: quick reference", "{game}: game night kit")


def render_sheet(template: str, edition, tr: Translator, title_msgid: str, kind: str, title_values=None,
                 **context) -> str:
    """A sheet document from `template` (a game's own as "<game id>/<name>"), titled by `title_msgid`.

    The title is a msgid of the template's domain: a game's own sheet is titled from the game's catalog
    (its code marks the title `N_("...")`), a shared sheet from the common one.
    """
    g = locale_globals(tr)
    title = g["dgettext"](template_domain(environment().get_template(template).filename), title_msgid,
                          **(title_values or {}))
    model = edition.model
    html = environment().get_template(template).render(
        **g, title=title.striptags(), description=title.striptags(), author=model.author,
        published=model.published.isoformat(), body_class=sheet_class(kind, model.game), style_kinds=(kind,),
        rules=edition.rules, values=edition.values, rules_in_force=rules_in_force(edition), game=model.game,
        **context)
    return html


def sheet_class(kind: str, game: str) -> str:
    """A sheet document's body class: its kind and its game (`kind_of` reads the kind back)."""
    return f"sheet {kind} game-{game}"


def kind_of(body_class: str) -> str:
    return body_class.split()[1]


def stake_text(tr: Translator, opts: SheetOptions) -> str:
    """The Tonk stake in force: the host's --stake and --currency, else the locale's usual ones."""
    stake = opts.stake if opts.stake is not None else tr.config.stake
    return tr.money(stake, opts.currency or tr.config.currency)


def payout_points(edition, tr: Translator) -> list[Markup]:
    """Each payout situation in force as one point of the card: its title and rule, the very texts
    (and numbers) of the payout sheet's rows."""
    model, values = edition.model, edition.values
    out = []
    for situation in model.payouts:
        if not edition.applies(situation.when):
            continue
        title = model_text(tr, model.game, situation.title, values)
        rule = model_text(tr, model.game, situation.rule, values)
        out.append(Markup('<span class="case" data-situation="{}">{}</span> {}').format(situation.id, title, rule))
    return out


def quick_reference(edition, tr: Translator, opts: SheetOptions, table=None) -> str:
    """The whole game on one page: the model's quick-reference points under the edition's rules."""
    model, values = edition.model, edition.values
    groups = []
    for group in model.quick_reference:
        if group.from_payouts:
            points = payout_points(edition, tr)
        else:
            points = [model_text(tr, model.game, p if isinstance(p, str) else p.text.strip(), values)
                      for p in group.points if isinstance(p, str) or edition.applies(p.when)]
        groups.append({"heading": model_text(tr, model.game, group.heading, values), "points": points})
    name = model_text(tr, model.game, model.name, values)
    # What only this game's card shows (Bunco's target dice, Tonk's card values, the Stop the Bus ranking).
    extra = {"card_header": None, "ranking": [], **edition.game.card_values(edition, tr, opts)}
    return render_sheet("quick-reference.html.j2", edition, tr, "{game}: quick reference", "quick-reference",
                        title_values={"game": name}, game_name=name, groups=groups,
                        stake_text=stake_text(tr, opts), house_rules=house_rules_box(edition, tr), **extra)
