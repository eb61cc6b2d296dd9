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
        self.exit(2, f"rulesheets: {message}\n")


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
    args = parser().parse_args(argv)
    try:
        return COMMANDS[args.command].run(args)
    except RulesheetsError as exc:
        for line in str(exc).splitlines():
            print(f"rulesheets: {line}" if ":" not in line.split(" ")[0] else line, file=sys.stderr)
        return exc.exit_code
    except Exception as exc:  # a broken template is bad input too: one line, exit 2
        from jinja2 import TemplateError

        if not isinstance(exc, TemplateError):
            raise
        from generator.core.errors import template_problem

        print(template_problem(exc), file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("rulesheets: interrupted; output/ left as it was", file=sys.stderr)
        return 130
    except BrokenPipeError:  # `rulesheets i18n status | head`: the reader has all it wanted
        import os

        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0


if __name__ == "__main__":
    sys.exit(main())
