"""Tiny, safe expressions over rule values: `when:` conditions and `=...` values in rule models.

A model says when a paragraph or an example applies (`when: rounds_per_set >= 4`) and what an
example's result is in terms of the rules (`"=2 * tonk_multiplier"`). Only names, whole numbers,
booleans, tuples, arithmetic, comparisons, `in`, `and`/`or`/`not` and indexing are allowed;
nothing is called and nothing is looked up outside the given names, so a model is never executed.
"""

from __future__ import annotations

import ast
import operator
import warnings
from collections.abc import Mapping
from typing import Any

#: Longest expression accepted; models are small, so anything longer is a mistake or an attack.
MAX_LENGTH = 200
#: Bounds on every value computed, so no expression can take memory or time: `(0,) * 10**6`
#: or a product of huge numbers is refused instead of computed.
MAX_ITEMS = 1000
MAX_INT = 10**18

_BINARY = {ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul, ast.FloorDiv: operator.floordiv}
_COMPARE = {ast.Eq: operator.eq, ast.NotEq: operator.ne, ast.Lt: operator.lt, ast.LtE: operator.le,
            ast.Gt: operator.gt, ast.GtE: operator.ge, ast.In: lambda a, b: a in b,
            ast.NotIn: lambda a, b: a not in b}


class ExprError(ValueError):
    """An expression that is not allowed, names something unknown, or cannot be computed."""


def parse(text: str) -> ast.Expression:
    """Parse and vet an expression (without evaluating it)."""
    if not isinstance(text, str) or not text.strip():
        raise ExprError("an expression must be non-empty text")
    if len(text) > MAX_LENGTH:
        raise ExprError(f"an expression is at most {MAX_LENGTH} characters")
    try:
        with warnings.catch_warnings():  # Python's own warnings ("1if x": invalid decimal literal) are refusals
            warnings.simplefilter("error", SyntaxWarning)
            tree = ast.parse(text.strip(), mode="eval")
    except (SyntaxError, SyntaxWarning):
        raise ExprError(f"'{text}' is not a valid expression") from None
    for node in ast.walk(tree):
        if not isinstance(node, (ast.Expression, ast.BoolOp, ast.And, ast.Or, ast.UnaryOp, ast.Not, ast.USub,
                                 ast.BinOp, ast.Compare, ast.Name, ast.Load, ast.Constant, ast.Tuple, ast.List,
                                 ast.Subscript, *_BINARY, *_COMPARE)):
            raise ExprError(f"'{text}': {type(node).__name__.lower()} is not allowed in an expression")
        if isinstance(node, ast.Constant) and (type(node.value) not in (int, bool) or abs(node.value) > 10**6):
            raise ExprError(f"'{text}': only whole numbers up to a million, true and false are allowed")
    return tree


def names(text: str) -> set[str]:
    """The names an expression uses (`true` and `false` are values, not names)."""
    return {n.id for n in ast.walk(parse(text)) if isinstance(n, ast.Name) and n.id not in ("true", "false")}


def evaluate(text: str, values: Mapping[str, Any]) -> Any:
    """The value of `text` with `values` for its names; ExprError names what went wrong."""
    tree = parse(text)
    try:
        return _eval(tree.body, values)
    except ExprError:
        raise
    except (TypeError, IndexError, ZeroDivisionError, ValueError, KeyError) as exc:
        raise ExprError(f"'{text}' cannot be computed: {exc}") from None
    except RecursionError:  # pragma: no cover (MAX_LENGTH keeps trees shallow)
        raise ExprError(f"'{text}' is nested too deeply") from None


def _bounded(value: Any) -> Any:
    """`value` if it is within the bounds of an expression's values (ExprError otherwise)."""
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) > MAX_INT:
        raise ExprError(f"a number beyond {MAX_INT:.0e} is not allowed in an expression")
    if isinstance(value, tuple) and len(value) > MAX_ITEMS:
        raise ExprError(f"a tuple of more than {MAX_ITEMS} items is not allowed in an expression")
    return value


def _number(value: Any) -> Any:
    """`value` for arithmetic: Python counts True as 1, a model must not (`=true * 5` is a mistake)."""
    if isinstance(value, bool):
        raise TypeError("true and false are not numbers")
    return value


def _eval(node: ast.AST, values: Mapping[str, Any]) -> Any:
    if isinstance(node, ast.Constant):
        return node.value
    if isinstance(node, ast.Name):
        if node.id in ("true", "false"):
            return node.id == "true"
        if node.id not in values:
            raise ExprError(f"unknown name '{node.id}' (known: {', '.join(sorted(values))})")
        return values[node.id]
    if isinstance(node, (ast.Tuple, ast.List)):
        return _bounded(tuple(_eval(e, values) for e in node.elts))
    if isinstance(node, ast.UnaryOp):
        value = _eval(node.operand, values)
        return (not value) if isinstance(node.op, ast.Not) else _bounded(-_number(value))
    if isinstance(node, ast.BoolOp):
        results = [bool(_eval(v, values)) for v in node.values]
        return all(results) if isinstance(node.op, ast.And) else any(results)
    if isinstance(node, ast.BinOp):
        left, right = _number(_eval(node.left, values)), _number(_eval(node.right, values))
        if isinstance(node.op, ast.Mult):
            for seq, times in ((left, right), (right, left)):
                if isinstance(seq, tuple) and isinstance(times, int) and len(seq) * max(times, 0) > MAX_ITEMS:
                    raise ExprError(f"a tuple of more than {MAX_ITEMS} items is not allowed in an expression")
        return _bounded(_BINARY[type(node.op)](left, right))
    if isinstance(node, ast.Subscript):
        return _eval(node.value, values)[_eval(node.slice, values)]
    if isinstance(node, ast.Compare):
        left = _eval(node.left, values)
        for op, right_node in zip(node.ops, node.comparators):
            right = _eval(right_node, values)
            if not _COMPARE[type(op)](left, right):
                return False
            left = right
        return True
    raise ExprError(f"{type(node).__name__.lower()} is not allowed in an expression")  # pragma: no cover (vetted)
