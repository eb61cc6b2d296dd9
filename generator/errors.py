"""The error hierarchy: user mistakes carry a location; only the CLI turns them into exits."""

from __future__ import annotations

from dataclasses import dataclass


class RulesheetsError(Exception):
    """Base of every error a user can cause; printed as one line, never as a traceback."""

    exit_code = 2


@dataclass
class Problem:
    """One thing wrong at one place: `path:line: message`."""

    path: str
    line: int | None
    message: str

    def __str__(self) -> str:
        where = f"{self.path}:{self.line}" if self.line else self.path
        return f"{where}: {self.message}"


class InputError(RulesheetsError):
    """Bad input (model, catalog, template, command line): exit 2. Holds every problem found."""

    exit_code = 2

    def __init__(self, problems: list[Problem] | Problem):
        self.problems = problems if isinstance(problems, list) else [problems]
        super().__init__("\n".join(map(str, self.problems)))


class CheckFailed(RulesheetsError):
    """A check the input passed syntactically but failed on meaning (example mismatch, strict i18n): exit 1."""

    exit_code = 1

    def __init__(self, problems: list[Problem] | Problem):
        self.problems = problems if isinstance(problems, list) else [problems]
        super().__init__("\n".join(map(str, self.problems)))
