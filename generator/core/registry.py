"""The game registry: every game is a plug-in found at run time; the rest of the code asks here, never "which game?".

A game is a package that exposes `GAME`, a `Game`: the built-in ones are the folders of
generator/games/, others come from installed distributions through the entry-point group
`rulesheets.games` (`name = "package:GAME"`). Finding them is the one place where the lower
layers reach the games, and it happens by discovery, not by a static import: a game sits above
the model, edition and render layers whose helpers it uses.

Heavy parts of a game (sheet renderers, example kinds, kit parts) are named as `Ref("module:attr")`
relative to the game's package and imported only when first used, so a build that finds nothing
changed never loads them.
"""

from __future__ import annotations

import pkgutil
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field, fields
from fractions import Fraction
from functools import cached_property
from importlib import import_module
from importlib.metadata import entry_points
from pathlib import Path
from typing import Any

from generator.core.errors import InputError, Problem

Number = int | Fraction

#: Where installed distributions register games: `[project.entry-points."rulesheets.games"]`.
ENTRY_POINT_GROUP = "rulesheets.games"
#: The package whose sub-packages are the built-in games (discovered by folder, never listed).
BUILTIN_PACKAGE = __name__.rsplit(".", 2)[0] + ".games"


@dataclass(frozen=True)
class Ref:
    """A callable or object imported when first used: `Ref(".sheets:tally_sheet")` in the game's own package,
    or `Ref("generator.render.sheets:quick_reference")` anywhere below it."""

    target: str
    package: str = ""

    def resolve(self) -> Any:
        module, _, attr = self.target.partition(":")
        obj = import_module(module, self.package or None)
        for part in attr.split("."):
            obj = getattr(obj, part)
        return obj


def _bound(ref: Ref | Any, package: str) -> Any:
    return Ref(ref.target, package) if isinstance(ref, Ref) and not ref.package else ref


def _load(ref: Ref | Any) -> Any:
    return ref.resolve() if isinstance(ref, Ref) else ref


@dataclass(frozen=True)
class Sheet:
    """A printable sheet of a game: its artifact kind, its title (a msgid) and the function that renders it.

    `render(edition, tr, opts, table)` returns the sheet's HTML.
    """

    kind: str
    title: str
    render: Ref | Callable[..., str]
    #: Scorepads come one per table: the artifact is made once per table (`--tables`).
    per_table: bool = False
    #: The `--per-page` values the sheet takes (several to a page, with cut lines); empty: it takes none,
    #: and `--per-page` for a build without any such sheet is an error.
    per_page: tuple[int, ...] = ()
    #: How a per-table sheet names its table, `(tr, index, count) -> str` (index 0-based): each game its
    #: own (Bunco's tables are ranked head / middle / low, a card game's are numbered).
    table_label: Ref | Callable[..., str] = Ref("generator.render.html:card_table_label")

    def html(self, *args, **kwargs) -> str:
        return _load(self.render)(*args, **kwargs)

    def label_table(self, tr, index: int, count: int) -> str:
        """This sheet's name for table `index` (0-based) of `count`, in `tr`'s language."""
        return _load(self.table_label)(tr, index, count)


@dataclass(frozen=True)
class ExampleKind:
    """A kind of worked example: the schema of its input and of its expectation, and how the engine runs it.

    `macro` names the Jinja macro in the game's `examples.html.j2` that draws it.
    """

    input: Ref | type
    expect: Ref | type
    run: Ref | Callable[[Any, Any], dict]
    macro: str

    @property
    def input_schema(self) -> type:
        return _load(self.input)

    @property
    def expect_schema(self) -> type:
        return _load(self.expect)

    def __call__(self, rules: Any, inp: Any) -> dict:
        return _load(self.run)(rules, inp)


@dataclass(frozen=True)
class Game:
    """One game: its id, its engine's Rules, the numbers it derives, its sheets, examples and kit.

    `package` and `folder` are filled in by the registry from where the game was found.
    """

    id: str
    rules_class: type
    #: (rules, prose facts) -> every number the engine computes for the prose, by placeholder name.
    derive: Callable[[Any, Mapping[str, int]], dict[str, Number]]
    sheets: tuple[Sheet, ...]
    #: example kind name (`bunco.throw`) -> its ExampleKind.
    example_kinds: Mapping[str, ExampleKind] = field(default_factory=dict)
    #: (edition, tr, sheet options, names) -> (parts, tables, ghost, card tables) of a game-night kit; None: no kit.
    kit: Ref | Callable | None = None
    #: Extra values for the quick-reference card's template: (edition, tr, opts) -> dict.
    card: Ref | Callable | None = None
    package: str = ""
    folder: Path | None = None

    def rule_names(self) -> tuple[str, ...]:
        return tuple(f.name for f in fields(self.rules_class))

    def make_rules(self, values: Mapping[str, Any]):
        """The engine's Rules from plain values (lists become tuples); ValueError names a bad one."""
        clean = {k: tuple(v) if isinstance(v, list) else v for k, v in values.items()}
        return self.rules_class(**clean)

    def values(self, rules, facts: Mapping[str, int]) -> dict[str, Any]:
        """Every value prose may quote under `rules`: the rules, the engine's numbers, the prose-only facts."""
        return {**rule_values(rules), **self.derive(rules, facts), **facts}

    @property
    def model_path(self) -> Path:
        return self.folder / "model.yaml"

    @property
    def templates_dir(self) -> Path:
        """The game's own templates (its sheets, the macros that draw its examples)."""
        return self.folder / "templates"

    def sheet(self, kind: str) -> Sheet | None:
        return next((s for s in self.sheets if s.kind == kind), None)

    def kit_parts(self) -> Callable | None:
        return _load(self.kit) if self.kit is not None else None

    def card_values(self, *args) -> dict:
        return _load(self.card)(*args) if self.card is not None else {}


def _placed(game: Game, package: str, folder: Path) -> Game:
    """The game with its lazy references bound to its own package, and where it lives."""
    sheets = tuple(Sheet(s.kind, s.title, _bound(s.render, package), s.per_table, s.per_page) for s in game.sheets)
    kinds = {name: ExampleKind(_bound(k.input, package), _bound(k.expect, package), _bound(k.run, package), k.macro)
             for name, k in game.example_kinds.items()}
    return Game(game.id, game.rules_class, game.derive, sheets, kinds, _bound(game.kit, package),
                _bound(game.card, package), package, folder)


class Registry(Mapping[str, Game]):
    """Games by id, in a stable order (built-in games by folder name, then installed ones by name)."""

    @cached_property
    def _games(self) -> dict[str, Game]:
        found: dict[str, Game] = {}
        builtin = import_module(BUILTIN_PACKAGE)
        for info in sorted(pkgutil.iter_modules(builtin.__path__), key=lambda i: i.name):
            if info.ispkg:
                self._add(found, f"{BUILTIN_PACKAGE}.{info.name}", f"{BUILTIN_PACKAGE}/{info.name}")
        for ep in sorted(entry_points(group=ENTRY_POINT_GROUP), key=lambda e: e.name):
            self._add(found, ep.value.partition(":")[0], f"entry point '{ep.name}' ({ep.value})")
        return dict(sorted(found.items(), key=lambda kv: kv[0]))

    @staticmethod
    def _add(found: dict[str, Game], package: str, where: str) -> None:
        module = import_module(package)
        game = getattr(module, "GAME", None)
        if not isinstance(game, Game):
            raise InputError(Problem(where, None, "a game package must define GAME, a generator.core.registry.Game"))
        if game.id in found:
            raise InputError(Problem(where, None, f"game '{game.id}' is already provided by {found[game.id].package}"))
        found[game.id] = _placed(game, package, Path(module.__file__).parent)

    def __getitem__(self, game_id: str) -> Game:
        return self._games[game_id]

    def __iter__(self) -> Iterator[str]:
        return iter(self._games)

    def __len__(self) -> int:
        return len(self._games)


#: Every game, found on first use.
GAMES = Registry()


def game(game_id: str) -> Game:
    """The game `game_id`; an unknown id is one line naming the games there are."""
    try:
        return GAMES[game_id]
    except KeyError:
        raise InputError(Problem("command line", None,
                                 f"unknown game '{game_id}' (games: {', '.join(GAMES)})")) from None


def rule_values(rules) -> dict[str, Any]:
    """A Rules object as plain values, for prose placeholders and `when:` conditions."""
    return {f.name: getattr(rules, f.name) for f in fields(rules)}
