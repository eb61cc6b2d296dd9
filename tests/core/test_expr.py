"""generator/core/expr.py: the only code that reads `when:` conditions and `=...` values of a model."""

from __future__ import annotations

import pytest

from generator.core.expr import MAX_LENGTH, ExprError, evaluate, names, parse

VALUES = {"rounds": 6, "stake": 2, "wipeout": True, "targets": (1, 2, 3), "multiplier": 3}


@pytest.mark.parametrize(("text", "expected"), [
    ("rounds", 6),
    ("2 * stake + 1", 5),
    ("rounds - 7", -1),
    ("-stake", -2),
    ("rounds // 4", 1),
    ("rounds >= 4 and not wipeout", False),
    ("rounds >= 4 or wipeout", True),
    ("wipeout == true", True),
    ("false", False),
    ("2 in targets", True),
    ("5 not in targets", True),
    ("targets[2] * multiplier", 9),
    ("1 < stake < rounds", True),  # a chain: every comparison must hold
    ("1 < rounds < stake", False),
    ("(rounds, stake)", (6, 2)),
    ("[1, stake]", (1, 2)),
])
def test_evaluate(text, expected):
    assert evaluate(text, VALUES) == expected


@pytest.mark.parametrize(("text", "message"), [
    ("__import__('os')", "call is not allowed"),
    ("stake.real", "attribute is not allowed"),
    ("stake / 2", "div is not allowed"),
    ("stake ** 2", "pow is not allowed"),
    ("[x for x in targets]", "listcomp is not allowed"),
    ("lambda: 1", "lambda is not allowed"),
    ("'text'", "only whole numbers up to a million"),
    ("1.5 * stake", "only whole numbers up to a million"),
    ("2000000", "only whole numbers up to a million"),
    ("rounds >=", "is not a valid expression"),
    ("  ", "must be non-empty text"),
])
def test_what_is_refused_before_anything_is_computed(text, message):
    with pytest.raises(ExprError, match=message.replace("(", r"\(")):
        parse(text)


def test_too_long():
    text = " + ".join(["1"] * (MAX_LENGTH // 4 + 1))
    assert len(text) > MAX_LENGTH
    with pytest.raises(ExprError, match=f"at most {MAX_LENGTH} characters"):
        evaluate(text, {})


def test_unknown_name_lists_the_known_ones():
    with pytest.raises(ExprError) as err:
        evaluate("stakes * 2", {"stake": 1, "rounds": 2})
    assert str(err.value) == "unknown name 'stakes' (known: rounds, stake)"


@pytest.mark.parametrize(("text", "cause"), [
    ("rounds // 0", "integer division or modulo by zero"),
    ("targets[5]", "tuple index out of range"),
    ("rounds in stake", "argument of type 'int' is not iterable"),
    # Python counts True as 1; a model that multiplies a switch has a mistake in it (issue 44).
    ("true * 5", "true and false are not numbers"),
    ("wipeout + 1", "true and false are not numbers"),
    ("-false", "true and false are not numbers"),
])
def test_what_cannot_be_computed_is_one_expr_error(text, cause):
    with pytest.raises(ExprError) as err:
        evaluate(text, VALUES)
    assert str(err.value) == f"'{text}' cannot be computed: {cause}"


def test_names():
    assert names("rounds >= 4 and (wipeout or stake in targets)") == {"rounds", "wipeout", "stake", "targets"}
    assert names("1 + 2") == set()
    assert names("true * rounds") == {"rounds"}  # true and false are values, never undefined names


def test_a_boolean_in_arithmetic_is_named_in_the_models_report():
    """`=true * 5` in a worked example: the model's line says booleans are not numbers, not that 'true' is undefined."""
    from generator.model.examples import resolve_fact_refs

    assert resolve_fact_refs({"points": "=true * 5"}, {"wipeout": False}, ("expect",))[1] == [
        (("expect", "points"), "has a bad expression: 'true * 5' cannot be computed: true and false are not numbers")]


@pytest.mark.parametrize("text", ["1if wipeout else 2", "0x", "3in (1, 2)"])
def test_what_python_only_warns_about_is_refused_without_a_warning(text):
    """Python parses these with a SyntaxWarning printed to the terminal: here they are one ExprError."""
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with pytest.raises(ExprError, match="is not a valid expression"):
            parse(text)
