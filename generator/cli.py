"""Command line: parses, hands the arguments to one module of generator/commands/, and is the only
place that turns errors into exit codes."""

from __future__ import annotations

import argparse
import sys

from generator.commands import build, check, i18n, init, kit, rules, serve
from generator.core.errors import RulesheetsError

#: Each command by name, in --help order: a module with HELP, add_arguments(parser) and run(args) -> exit code.
COMMANDS = {"build": build, "serve": serve, "kit": kit, "rules": rules, "check": check, "i18n": i18n, "init": init}


class _Parser(argparse.ArgumentParser):
    def error(self, message):  # one line, exit 2, as for any other bad input
        from generator.core.lifecycle import one_line

        self.exit(2, f"rulesheets: {one_line(message)}\n")


def _version() -> str:
    from importlib import metadata

    try:
        return metadata.version("rulesheets")
    except metadata.PackageNotFoundError:  # run from a copy of the sources that was never installed
        return "unknown (not installed)"


def parser() -> argparse.ArgumentParser:
    from generator.commands.helptext import HelpFormatter, epilog

    p = _Parser(prog="rulesheets", description="Compile rule models into localised rulebooks and score sheets.",
                formatter_class=HelpFormatter, epilog=epilog(None))
    p.add_argument("--version", action="version", version=f"rulesheets {_version()}")
    sub = p.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    sub.required = True
    for name, command in COMMANDS.items():
        command.add_arguments(sub.add_parser(name, help=command.HELP, formatter_class=HelpFormatter,
                                             description=command.HELP[0].upper() + command.HELP[1:] + ".",
                                             epilog=epilog(name)))
    return p


def main(argv: list[str] | None = None) -> int:
    from generator.core import lifecycle

    try:
        return _main(argv)
    finally:
        lifecycle.finish()


def _plain_streams() -> None:
    """Output that a terminal or pipe cannot encode (PYTHONIOENCODING=ascii) is escaped, never an error.

    Signals wait until both streams are reconfigured: a Ctrl-C raised half-way through left stderr
    unusable ("lost sys.stderr") for the very line that reports it."""
    import signal

    from generator.core.lifecycle import SIGNALS

    blocked = signal.pthread_sigmask(signal.SIG_BLOCK, SIGNALS)
    try:
        for stream in (sys.stdout, sys.stderr):
            try:
                stream.reconfigure(errors="backslashreplace")
            except (AttributeError, ValueError):  # replaced by a test harness
                pass
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, blocked)


def say(line: str, file=None) -> None:
    from generator.core.lifecycle import say as said

    said(line, file)


def _main(argv: list[str] | None) -> int:
    from generator.core import lifecycle

    try:
        lifecycle.start()  # first: a signal from here on ends the run with its one line (even one during start)
        _plain_streams()
        return _command(parser().parse_args(argv))
    except RulesheetsError as exc:
        for line in error_lines(exc):
            print(line, file=sys.stderr)
        return exc.exit_code
    except KeyboardInterrupt as exc:  # Ctrl-C, SIGTERM, SIGHUP: the output was left as it was
        code = lifecycle.exit_code(exc)
        print(lifecycle.stopped_line(code - 128), file=sys.stderr)
        return code
    except BrokenPipeError:  # `rulesheets rules | head -1`: the reader has all it wanted
        import os

        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    except RecursionError:  # input nested deeper than any reader should follow
        say("rulesheets: command line: the input is nested too deeply to read", file=sys.stderr)
        return 2
    except Exception as exc:  # a broken template is bad input too: one line, exit 2
        from jinja2 import TemplateError

        if not isinstance(exc, TemplateError):
            raise
        from generator.core.errors import template_problem

        say(str(template_problem(exc)), file=sys.stderr)
        return 2


def error_lines(exc: RulesheetsError) -> list[str]:
    """What the terminal shows for an error: one line per problem, whatever its text quotes (a newline,
    U+2028 or a bidi control in a value, a catalog or a file name), each starting with where it is."""
    from generator.core.lifecycle import one_line

    lines = []
    for problem in getattr(exc, "problems", None) or str(exc).split("\n"):
        line = one_line(str(problem))
        lines.append(f"rulesheets: {line}" if ":" not in line.split(" ")[0] else line)
    return lines


def _command(args) -> int:
    """Run the command; notes collected on the way (a fallback taken, a limit applied) follow its output."""
    from generator.core import notes

    notes.take()  # a command reports its own notes only (main() may run more than once in one process)
    try:
        return COMMANDS[args.command].run(args)
    finally:
        for line in notes.take():
            print(f"rulesheets: note: {line}", file=sys.stderr)


if __name__ == "__main__":
    sys.exit(main())
