"""Read YAML keeping the line of every key, so schema errors can say `path:line`."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

from generator.core.errors import InputError, Problem
from generator.core.paths import display_path


#: libyaml's parser when PyYAML was built with it (the wheels are), else PyYAML's own, 10 times slower.
#: Both give the same data and lines; load_yaml makes their messages the same (tests/core/test_yamlsource.py).
_SafeLoader = getattr(yaml, "CSafeLoader", yaml.SafeLoader) if yaml.__with_libyaml__ else yaml.SafeLoader


def _construct_mapping(loader: yaml.SafeLoader, node: yaml.MappingNode, deep: bool = False) -> dict:
    seen: dict[Any, int] = {}
    for key_node, _ in node.value:
        if not isinstance(key_node, yaml.ScalarNode):  # `? [a, b]: c` or `? {a: b}: c`
            raise _BadValue(None, None, "a key must be a word or a number, not a list or a mapping",
                            key_node.start_mark)
        key = loader.construct_object(key_node, deep=True)
        if key in seen:
            raise yaml.constructor.ConstructorError(
                None, None, f"duplicate key {key!r} (first on line {seen[key]})", key_node.start_mark)
        seen[key] = key_node.start_mark.line + 1
    return loader.construct_mapping(node, deep=deep)


#: Limits that keep a hostile or mistyped file from hanging or exhausting the build.
MAX_DEPTH = 32
MAX_DIGITS = 18


class _BadValue(yaml.constructor.ConstructorError):
    """A well-formed scalar with an impossible value (a 30 February, a 5000-digit number)."""


def _construct_int(loader: yaml.SafeLoader, node: yaml.ScalarNode) -> int:
    if sum(c.isdigit() for c in str(node.value)) > MAX_DIGITS:
        raise _BadValue(None, None, f"number with more than {MAX_DIGITS} digits", node.start_mark)
    return yaml.SafeLoader.construct_yaml_int(loader, node)


def _construct_timestamp(loader: yaml.SafeLoader, node: yaml.ScalarNode):
    try:
        return yaml.SafeLoader.construct_yaml_timestamp(loader, node)
    except ValueError as exc:
        raise _BadValue(None, None, f"invalid date '{node.value}': {exc}", node.start_mark) from None


def checked_loader(base: type) -> type:
    """`base` (a safe loader) whose mappings refuse duplicate keys and whose numbers and dates are bounded."""
    loader = type("_LineLoader", (base,), {"__doc__": checked_loader.__doc__})
    loader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _construct_mapping)
    loader.add_constructor("tag:yaml.org,2002:int", _construct_int)
    loader.add_constructor("tag:yaml.org,2002:timestamp", _construct_timestamp)
    return loader


_LineLoader = checked_loader(_SafeLoader)


def _check_events(text: str, loader: type | None = None) -> None:
    """Refuse aliases and anchors ("billion laughs") and deep nesting before anything is built.

    The parser works without recursion, so this pass is safe on any input; composing a
    5000-deep document would overflow Python's stack.
    """
    depth = 0
    for event in yaml.parse(text, Loader=loader or _SafeLoader):
        if isinstance(event, yaml.AliasEvent) or getattr(event, "anchor", None):
            raise _BadValue(None, None, "YAML anchors and aliases (&name, *name) are not allowed in a rule model; "
                                        "write the value out", event.start_mark)
        if isinstance(event, (yaml.MappingStartEvent, yaml.SequenceStartEvent)):
            depth += 1
            if depth > MAX_DEPTH:
                raise _BadValue(None, None, f"nested more than {MAX_DEPTH} levels deep", event.start_mark)
        elif isinstance(event, (yaml.MappingEndEvent, yaml.SequenceEndEvent)):
            depth -= 1


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


def load_yaml(path: Path) -> tuple[Any, SourceMap]:
    """Parse one YAML file into plain data plus its SourceMap; syntax errors become InputError."""
    text = read_text(path)
    try:
        try:
            _check_events(text)
        except yaml.YAMLError:
            # libyaml found a problem: PyYAML's own parser reads the file again for the message, so a mistake
            # is worded and placed the same whichever parser is installed (libyaml stops deep nesting at
            # 1000 levels in its scanner, before this pass counts 32, and words its syntax errors apart).
            if _SafeLoader is not yaml.SafeLoader:
                _check_events(text, yaml.SafeLoader)
            raise
        loader = _LineLoader(text)
        try:  # parse once: the node tree gives both the lines and the data
            node = loader.get_single_node()
            data = loader.construct_document(node) if node is not None else None
        finally:
            loader.dispose()
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = mark.line + 1 if mark else None
        what = exc.problem or exc.context or "invalid YAML"
        what = what if isinstance(exc, _BadValue) else f"YAML syntax error: {what}"
        raise InputError(Problem(display_path(path), line, what)) from None
    except (yaml.YAMLError, ValueError, RecursionError) as exc:
        raise InputError(Problem(display_path(path), None, f"invalid YAML: {str(exc).splitlines()[0][:100]}")) from None
    lines: dict[tuple, int] = {}
    if node is not None:
        _index_lines(node, (), lines)
    return data, SourceMap(path, lines)


def read_text(path: Path) -> str:
    """A UTF-8 text file; unreadable or non-UTF-8 bytes are an InputError naming the line."""
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise InputError(Problem(display_path(path), None, f"cannot read: {exc.strerror}")) from None
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        raise InputError(Problem(display_path(path), line, f"not valid UTF-8 (byte 0x{raw[exc.start]:02x})")) from None
