"""Carry translations into the catalog that now owns their string (a game's own strings out of `common`).

    python -m generator.dev.move_game_strings            # move, then print what moved per locale
    python -m generator.dev.move_game_strings --check REF  # every translation of REF kept, word for word

A game's templates and code now speak its own domain (`locales/<ll>/LC_MESSAGES/<game>.po`), not
`common`. For every locale, each entry a domain's template asks for that its catalog lacks (or has
untranslated), and that another catalog of the same locale translates, is copied over with its
translation, msgctxt, translator comments, flags and previous msgid (into a game's catalog from
`common`, into `common` from the games'). Then the usual `i18n update` merge writes every catalog, dropping what one no longer owns.
Everything is read before the first file is written. Re-runnable: after a rebase, take main's
catalogs and run it again; a second run changes nothing.

`--check REF` reads the catalogs as they were at the git revision REF and fails unless every
translated msgid+msgctxt of them that a template still asks for is translated in the same words,
with the same state (fuzzy or not) and translator comments, in the catalog of the domain that owns
it now, and no string of REF's templates was lost.
"""

from __future__ import annotations

import argparse
import io
import subprocess
import sys
from pathlib import Path

from babel.messages.catalog import Catalog, Message
from babel.messages.pofile import read_po

from generator.catalogs.maintain import _write_if_changed, extract, merged_catalog, templates
from generator.core.paths import PROJECT_DIR, SOURCE_LOCALE, discover_locales, require_checkout
from generator.i18n.translate import COMMON_DOMAIN, LOCALES_DIR, catalog_path, read_catalog


def _key(msg: Message) -> tuple[str, str | None]:
    return (msg.id[0] if isinstance(msg.id, tuple) else msg.id), msg.context


def _translated(msg: Message | None) -> bool:
    return msg is not None and bool(msg.string) and (not isinstance(msg.string, tuple) or all(msg.string))


def carry(template: Catalog, cat: Catalog, donors: list[Catalog]) -> tuple[int, list[str]]:
    """Copy into `cat` each entry of `template` it does not translate but a donor does; (copied, disagreements).

    A disagreement is an entry `cat` already translates in other words than a donor: the owner's stays.
    """
    copied, differ = 0, []
    for msg in template:
        if not msg.id:
            continue
        msgid, context = _key(msg)
        own = cat.get(msgid, context)
        donor = next((d.get(msgid, context) for d in donors if _translated(d.get(msgid, context))), None)
        if donor is None:
            continue
        if _translated(own):
            if own.string != donor.string:
                differ.append(msgid)
            continue
        if own is not None:
            cat.delete(msgid, context)
        cat.add(donor.id, donor.string, flags=donor.flags, user_comments=list(donor.user_comments),
                previous_id=donor.previous_id, context=context)
        copied += 1
    return copied, differ


def move(current: dict[str, Catalog], locales: tuple[str, ...], locales_dir: Path = LOCALES_DIR
         ) -> tuple[dict[Path, bytes], list[str]]:
    """Every catalog of `locales` as it is to be written, and one line per locale saying what moved."""
    out, report = {}, []
    for code in locales:
        if code == SOURCE_LOCALE:
            continue
        read = {d: read_catalog(catalog_path(code, d, locales_dir), code) for d in current}
        # Donors are the catalogs as they were read: a copy never feeds another copy.
        originals = {d: read_catalog(catalog_path(code, d, locales_dir), code) for d in current}
        games = [d for d in current if d != COMMON_DOMAIN]
        moved, notes = {}, []
        for domain, template in current.items():
            # A game's string comes from common; one a game now asks of common (`common_()`) from the games.
            donors = [originals[d] for d in (games if domain == COMMON_DOMAIN else [COMMON_DOMAIN])]
            moved[domain], differ = carry(template, read[domain], donors)
            notes += [f"{code}/{domain}: kept its own translation of {m!r}" for m in differ]
        for domain, template in current.items():
            out[catalog_path(code, domain, locales_dir)] = merged_catalog(code, domain, template, read[domain],
                                                                          locales_dir)
        report.append(f"{code}: " + ", ".join(f"{n} into {d}" for d, n in moved.items() if n) if any(moved.values())
                      else f"{code}: nothing to move")
        report += notes
    return out, report


def _catalog_at(ref: str, path: Path) -> Catalog | None:
    rel = path.resolve().relative_to(PROJECT_DIR)
    r = subprocess.run(["git", "show", f"{ref}:{rel}"], cwd=PROJECT_DIR, capture_output=True)
    if r.returncode != 0:
        return None
    return read_po(io.BytesIO(r.stdout), locale=path.parent.parent.name.replace("-", "_"))


def check(ref: str, current: dict[str, Catalog], locales: tuple[str, ...]) -> list[str]:
    """What `--check REF` reports: one line per translation not carried word for word (empty: all kept).

    An entry of REF's catalog of domain D is looked for in D if D's template still asks for it, and in
    every domain whose template asks for it now but did not at REF (where it moved to).
    """
    problems = []
    before = {d: {_key(m) for m in _catalog_at(ref, LOCALES_DIR / f"{d}.pot") or () if m.id} for d in current}
    now = {d: {_key(m) for m in t if m.id} for d, t in current.items()}
    lost = set().union(*before.values()) - set().union(*now.values())
    problems += [f"{ref}'s templates had {k!r}, no template has it now" for k in sorted(lost, key=str)]
    checked = 0
    for code in locales:
        if code == SOURCE_LOCALE:
            continue
        catalogs = {d: read_catalog(catalog_path(code, d), code) for d in current}
        for domain in current:
            for msg in _catalog_at(ref, catalog_path(code, domain)) or ():
                key = _key(msg)
                if not msg.id or not _translated(msg):
                    continue
                targets = [d for d in current if key in now[d] and (d == domain or key not in before[d])]
                for owner in targets:
                    new = catalogs[owner].get(*key)
                    checked += 1
                    if new is None or new.string != msg.string or new.fuzzy != msg.fuzzy or \
                            [c for c in new.user_comments if not c.startswith("|")] != \
                            [c for c in msg.user_comments if not c.startswith("|")]:
                        problems.append(f"{code}: {domain} -> {owner}: {key!r} not carried word for word")
    strings = len(set().union(*before.values()))
    print(f"checked {checked} translations of {ref}'s catalogs ({strings} strings in its templates): "
          f"{'every one kept, word for word' if not problems else f'{len(problems)} problems'}")
    return problems


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m generator.dev.move_game_strings", description=__doc__.split("\n")[0])
    parser.add_argument("--check", metavar="REF", help="only check the catalogs against git revision REF")
    args = parser.parse_args(argv)
    require_checkout("move_game_strings")
    locales = discover_locales()
    if args.check:
        problems = check(args.check, templates(), locales)
        for p in problems:
            print(p)
        return 1 if problems else 0
    current = extract()
    out, report = move(current, locales)
    for path, data in out.items():
        _write_if_changed(path, data)
    print("\n".join(report))
    return 0


if __name__ == "__main__":
    sys.exit(main())
