"""The error hierarchy: user mistakes carry a location; only the CLI turns them into exits."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path


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


def template_problem(exc: Exception) -> Problem:
    """A Jinja error (syntax, undefined variable) as `templates/X:line: problem`.

    Jinja rewrites tracebacks so that template frames carry the template's file and line;
    the deepest one is where the error is.
    """
    from pathlib import Path

    import jinja2


    filename, line = None, None
    if isinstance(exc, jinja2.TemplateSyntaxError):
        filename, line = exc.filename or exc.name, exc.lineno
    else:
        tb = exc.__traceback__
        while tb is not None:
            if tb.tb_frame.f_code.co_filename.endswith(".j2"):
                filename, line = tb.tb_frame.f_code.co_filename, tb.tb_lineno
            tb = tb.tb_next
    message = " ".join(str(getattr(exc, "message", None) or exc).split())
    kind = "template syntax error" if isinstance(exc, jinja2.TemplateSyntaxError) else "template error"
    return Problem(display_path(Path(filename)) if filename else "templates", line, f"{kind}: {message}")


def display_path(path: Path) -> str:
    """A path as a user would type it: relative to the working directory when possible."""
    try:
        return str(path.resolve().relative_to(Path.cwd().resolve()))
    except ValueError:
        return str(path)
