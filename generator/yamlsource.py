"""Read YAML keeping the line of every key, so schema errors can say `path:line`."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

from .errors import InputError, Problem


class _LineLoader(yaml.SafeLoader):
    """SafeLoader that records the line of every mapping value and sequence item."""


def _construct_mapping(loader: _LineLoader, node: yaml.MappingNode, deep: bool = False) -> dict:
    seen: dict[Any, int] = {}
    for key_node, _ in node.value:
        key = loader.construct_object(key_node, deep=True)
        if key in seen:
            raise yaml.constructor.ConstructorError(
                None, None, f"duplicate key {key!r} (first on line {seen[key]})", key_node.start_mark)
        seen[key] = key_node.start_mark.line + 1
    return loader.construct_mapping(node, deep=deep)


_LineLoader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _construct_mapping)


def _index_lines(node: yaml.Node, path: tuple, lines: dict[tuple, int]) -> None:
    lines[path] = node.start_mark.line + 1
    if isinstance(node, yaml.MappingNode):
        for key_node, value_node in node.value:
            key = key_node.value
            lines[path + (key,)] = key_node.start_mark.line + 1
            _index_lines(value_node, path + (key,), lines)
            lines[path + (key,)] = key_node.start_mark.line + 1
    elif isinstance(node, yaml.SequenceNode):
        for i, item in enumerate(node.value):
            _index_lines(item, path + (i,), lines)


class SourceMap:
    """Maps a data path like ("sections", 2, "title") to the line where it is written."""

    def __init__(self, path: Path, lines: dict[tuple, int]):
        self.path = path
        self._lines = lines

    def line(self, loc: tuple) -> int | None:
        loc = tuple(loc)
        while loc:
            if loc in self._lines:
                return self._lines[loc]
            loc = loc[:-1]
        return self._lines.get((), None)

    def problem(self, loc: tuple, message: str) -> Problem:
        return Problem(display_path(self.path), self.line(loc), message)


def display_path(path: Path) -> str:
    """A path as a user would type it: relative to the working directory when possible."""
    try:
        return str(path.resolve().relative_to(Path.cwd().resolve()))
    except ValueError:
        return str(path)


def load_yaml(path: Path) -> tuple[Any, SourceMap]:
    """Parse one YAML file into plain data plus its SourceMap; syntax errors become InputError."""
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise InputError(Problem(display_path(path), None, f"cannot read: {exc.strerror}")) from None
    except UnicodeDecodeError:
        raise InputError(Problem(display_path(path), None, "not valid UTF-8")) from None
    try:
        node = yaml.compose(text, Loader=_LineLoader)
        data = yaml.load(text, Loader=_LineLoader)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = mark.line + 1 if mark else None
        what = exc.problem or exc.context or "invalid YAML"
        raise InputError(Problem(display_path(path), line, f"YAML syntax error: {what}")) from None
    lines: dict[tuple, int] = {}
    if node is not None:
        _index_lines(node, (), lines)
    return data, SourceMap(path, lines)
