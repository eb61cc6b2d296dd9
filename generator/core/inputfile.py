"""Files named on the command line (`--house-rules`, `--players`): regular files only, read in one bounded gulp.

A FIFO would block forever, a device (/dev/zero) never ends and a folder is no text: each is
refused in one line before it is read. The file is opened without blocking and checked again on
the open descriptor, so nothing swapped in between the check and the read gets through.
"""

from __future__ import annotations

import os
import stat
from generator.core.errors import InputError, Problem
from generator.core.lifecycle import printable

#: No house-rules file or player list comes near this.
MAX_BYTES = 1_000_000

_KINDS = ((stat.S_ISDIR, "a folder"), (stat.S_ISFIFO, "a named pipe"), (stat.S_ISCHR, "a device"),
          (stat.S_ISBLK, "a device"), (stat.S_ISSOCK, "a socket"))


def from_argv(text: str) -> str:
    """Text as typed: under a locale that is not UTF-8 (C, with UTF-8 mode off) Python keeps the bytes of
    `--group "शुक्रवार"` as surrogate escapes (U+DCE0...); they are the UTF-8 the user typed."""
    try:
        return text.encode("utf-8", "surrogateescape").decode("utf-8")
    except UnicodeError:  # not UTF-8 either: the control-character check names it
        return text


def kind_of(mode: int) -> str:
    for test, name in _KINDS:
        if test(mode):
            return name
    return "not a regular file"


def existing(value: str | os.PathLike) -> os.stat_result | None:
    """The stat of `value` if something exists there (links followed), else None; never raises for odd names."""
    try:
        return os.stat(value)
    except (OSError, ValueError):  # missing, a name too long, a NUL byte: no file by that name
        return None


def read_text(path: str | os.PathLike, option: str, what: str) -> str:
    """The UTF-8 text of a regular file given to `option`; InputError (one line) for anything else."""
    shown = printable(str(path))
    where = f"{option} {shown}"
    st = existing(path)
    if st is None:
        try:
            os.stat(path)
        except FileNotFoundError:
            raise InputError(Problem(where, None, f"no such file ({what})")) from None
        except (OSError, ValueError) as exc:
            reason = getattr(exc, "strerror", None) or "not a usable file name"
            raise InputError(Problem(option, None, f"cannot read {what}: {reason}")) from None
    if not stat.S_ISREG(st.st_mode):
        raise InputError(Problem(where, None, f"is {kind_of(st.st_mode)}, not a regular file ({what})"))
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_NOCTTY | os.O_CLOEXEC)
    except OSError as exc:
        raise InputError(Problem(where, None, f"cannot read {what}: {exc.strerror}")) from None
    with os.fdopen(fd, "rb") as fh:
        st = os.fstat(fh.fileno())
        if not stat.S_ISREG(st.st_mode):
            raise InputError(Problem(where, None, f"is {kind_of(st.st_mode)}, not a regular file ({what})"))
        if st.st_size > MAX_BYTES:
            raise InputError(Problem(where, None, f"is {st.st_size:,} bytes; {what} must be under {MAX_BYTES:,}"))
        try:
            data = fh.read(MAX_BYTES + 1)
        except OSError as exc:
            raise InputError(Problem(where, None, f"cannot read {what}: {exc.strerror}")) from None
    if len(data) > MAX_BYTES:
        raise InputError(Problem(where, None, f"is larger than {MAX_BYTES:,} bytes ({what})"))
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise InputError(Problem(shown, None, f"{what} is not UTF-8 text")) from None
