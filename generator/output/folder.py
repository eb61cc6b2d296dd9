"""The output folder: what --out may replace, one build at a time, and a swap that cannot lose the old output.

A build writes a fresh sibling folder and exchanges it with the old output in one atomic step
(Linux `renameat2(RENAME_EXCHANGE)`; two renames elsewhere). A build killed at any step leaves
either the old or the new output complete, and the next build recovers from there.
"""

from __future__ import annotations

import contextlib
import ctypes
import errno
import fcntl
import hashlib
import json
import os
import re
import shutil
import stat
from pathlib import Path

from generator import PROJECT_DIR
from generator.core import lifecycle
from generator.core.files import atomic_write
from generator.core.errors import InputError, Problem
from generator.core.paths import display_path

#: Written only by rulesheets, in every output it makes: with manifest.json, the mark of a folder --out may replace.
STATE_FILE = ".rulesheets-state.json"
MANIFEST = "manifest.json"
#: Leftovers of a build that was killed: `.output.new-123` (and `.tmp-`, `.old-` from older versions).
_LEFTOVER = r"\.{name}\.(?:new|old|tmp)-\d+"


def _checkpoint(step: str) -> None:
    """Called after each step of the swap; the SIGKILL tests replace it to stop the build exactly there."""


def _refuse(shown: str, why: str) -> InputError:
    return InputError(Problem("command line", None, f"--out {shown} {why}"))


# --- which folders --out may replace -------------------------------------------------------------

def read_state(out: Path) -> dict:
    """The state file of a previous output ({} when there is none or it is unreadable)."""
    try:
        state = json.loads((out / STATE_FILE).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return state if isinstance(state, dict) else {}


def is_output(folder: Path) -> bool:
    """A folder rulesheets made: a real folder with its manifest and state file (not symbolic links)."""
    try:
        return (stat.S_ISDIR(folder.lstat().st_mode) and stat.S_ISREG((folder / MANIFEST).lstat().st_mode)
                and stat.S_ISREG((folder / STATE_FILE).lstat().st_mode) and "key" in read_state(folder))
    except OSError:
        return False


def read_manifest(out: Path) -> list[dict]:
    """The manifest of a previous output; a corrupt one is reported, never silently replaced."""
    path = out / MANIFEST
    where = display_path(path)
    try:
        entries = json.loads(path.read_text(encoding="utf-8"))
    except UnicodeDecodeError:
        raise InputError(Problem(where, None, "corrupt manifest (not UTF-8); delete the output folder to build it afresh")) from None
    except json.JSONDecodeError as exc:
        raise InputError(Problem(where, exc.lineno, f"corrupt manifest ({exc.msg}); delete the output folder to build it afresh")) from None
    except OSError as exc:
        raise InputError(Problem(where, None, f"cannot read: {exc.strerror}")) from None
    if not isinstance(entries, list) or not all(isinstance(e, dict) and isinstance(e.get("path"), str)
                                                and isinstance(e.get("sha256"), str) for e in entries):
        raise InputError(Problem(where, 1, "corrupt manifest (not a list of artifacts with path and sha256); "
                                           "delete the output folder to build it afresh"))
    return entries


def shown(out: Path) -> str:
    """--out as the user would write it: relative to the working folder when inside it (no link resolved)."""
    if out.is_absolute():
        with contextlib.suppress(ValueError):
            return str(out.relative_to(Path.cwd()))
    return str(out)


def check_target(out: Path) -> Path:
    """The absolute folder a build may replace, or InputError saying why not; nothing on disk changes."""
    shown_as = shown(out)
    target = Path(os.path.abspath(out))
    if target.is_symlink():
        raise _refuse(shown_as, "is a symbolic link; name the folder itself")
    target = target.resolve()
    project = PROJECT_DIR.resolve()
    protected = [(Path("/"), "the root folder"), (Path.home().resolve(), "your home folder"),
                 (Path.cwd().resolve(), "the current folder"), (project, "the project folder")]
    for folder, name in protected:
        if folder == target:
            raise _refuse(shown_as, f"is {name}; choose a new or empty folder")
        if folder.is_relative_to(target):
            raise _refuse(shown_as, f"holds {name}; choose a new or empty folder")
    if target.is_relative_to(project) and target != project / "output":
        raise _refuse(shown_as, "is inside the project, where only output/ may be used; choose another folder")
    for parent in target.parents:
        if is_output(parent):
            raise _refuse(shown_as, f"is inside a previous rulesheets output ({parent}); choose another folder")
    try:
        mode = target.lstat().st_mode
    except FileNotFoundError:
        return target
    except OSError as exc:
        raise _refuse(shown_as, f"cannot be read ({exc.strerror})") from None
    if stat.S_ISREG(mode):
        raise _refuse(shown_as, "is a file, not a folder; choose a new or empty folder")
    if not stat.S_ISDIR(mode):
        raise _refuse(shown_as, "is not a folder (a device, pipe or socket); choose a new or empty folder")
    try:
        empty = next(os.scandir(target), None) is None
    except OSError as exc:
        raise _refuse(shown_as, f"cannot be read ({exc.strerror})") from None
    if not empty:
        if is_output(target):
            read_manifest(target)
        elif not holds_only_a_kit(target):
            raise _refuse(shown_as, f"is not empty and holds no previous rulesheets output (no {MANIFEST} and "
                                 f"{STATE_FILE}); choose a new or empty folder")
    return target


def mark_preview(out: Path) -> None:
    """Mark a folder `serve` writes into as a rulesheets output (its files change in place, so no key)."""
    if not (out / MANIFEST).exists():
        atomic_write(out / MANIFEST, b"[]\n")
    atomic_write(out / STATE_FILE, json.dumps({"made_by": "rulesheets serve", "key": None, "files": {}}).encode())


# --- the kit: kit/ in the output folder, kept across builds -----------------------------------------

#: Written into every kit folder: the mark of a folder `rulesheets kit` may add files to.
KIT_MARK = ".rulesheets-kit"
#: Where kits go inside an output folder; a build carries this folder over and records it in the state file.
KIT_FOLDER = "kit"
#: Lock files that versions before 0.9 left inside an output folder (beside its kit/); a build drops them.
_OLD_KIT_LOCKS = {".kit.lock"}


def holds_only_a_kit(folder: Path) -> bool:
    """An output folder where `rulesheets kit` ran before any build: only kit/ (with its mark) is there."""
    try:
        names = {e.name for e in os.scandir(folder)} - _OLD_KIT_LOCKS
        kit = folder / KIT_FOLDER
        return (names == {KIT_FOLDER} and stat.S_ISDIR(kit.lstat().st_mode)
                and stat.S_ISREG((kit / KIT_MARK).lstat().st_mode))
    except OSError:
        return False


def kit_root(kit: Path, default: Path) -> Path | None:
    """The output folder a kit folder belongs to (its kit/), or None for a kit folder of its own."""
    kit = Path(os.path.abspath(kit))
    if kit.name == KIT_FOLDER and (kit == Path(os.path.abspath(default)) or is_output(kit.parent)):
        return kit.parent
    return None


def check_kit_target(out: Path, default: Path) -> Path:
    """The folder `rulesheets kit` may write into: missing, empty, an earlier kit's, or kit/ of an output folder.

    The kit only ever adds or replaces its own files there; it never deletes anything. Inside an
    output folder only its kit/ is allowed: a build replaces everything else there.
    """
    shown_as = shown(out)
    target = Path(os.path.abspath(out))
    if target.is_symlink():
        raise _refuse(shown_as, "is a symbolic link; name the folder itself")
    target = target.resolve()
    if target == default.resolve():
        return target  # kit/ inside the output folder, the usual place
    project = PROJECT_DIR.resolve()
    for folder, name in [(Path("/"), "the root folder"), (Path.home().resolve(), "your home folder"),
                         (Path.cwd().resolve(), "the current folder"), (project, "the project folder")]:
        if folder.is_relative_to(target):
            raise _refuse(shown_as, f"{'is' if folder == target else 'holds'} {name}; choose a new or empty folder")
    if target.is_relative_to(project) and not target.is_relative_to(project / "output"):
        raise _refuse(shown_as, "is inside the project, where only output/ may be used; choose another folder")
    for parent in target.parents:
        if is_output(parent) and target != parent / KIT_FOLDER:
            raise _refuse(shown_as, f"is inside a rulesheets output, which the next build replaces; "
                                    f"use {shown(parent / KIT_FOLDER)} or a folder of its own")
    if target.exists() and not target.is_dir():
        raise _refuse(shown_as, "is not a folder; choose a new or empty folder")
    if target.is_dir() and any(os.scandir(target)) and not (target / KIT_MARK).is_file():
        raise _refuse(shown_as, f"is not empty and holds no earlier kit (no {KIT_MARK}); choose a new or empty folder")
    return target


def write_kit_files(out: Path, files: dict[str, bytes], root: Path | None = None) -> list[Path]:
    """Each file written beside its target and renamed over it, under the lock.

    `root`: the output folder whose kit/ this is. Its lock is taken (a build and a kit never
    write it at once) and, once it is a build's output, its state file records the kit's files.
    A folder that cannot be written (read-only, a file in the way, a full disk) is one line.
    """
    written = []
    with locked(root or out, shown(out)):
        try:
            out.mkdir(parents=True, exist_ok=True)
            atomic_write(out / KIT_MARK, b"rulesheets kit\n")
            for name, data in files.items():
                atomic_write(out / name, data)
                written.append(out / name)
            if root is not None and is_output(root):
                state = read_state(root)
                state["kit"] = {rel: hashlib.sha256(data).hexdigest() for rel, data in sorted(kit_files(root).items())}
                atomic_write(root / STATE_FILE, json.dumps(state, sort_keys=True).encode("utf-8"))
        except OSError as exc:
            raise _refuse(shown(out), f"cannot be written ({exc.strerror or exc})") from None
    return written


def kit_files(out: Path) -> dict[str, bytes]:
    """Every file of out/kit/ by its path in the output, to be carried over by a build.

    The kit command writes plain files only: anything else there (a folder, a link, a device)
    is refused rather than silently dropped or followed.
    """
    kit = out / KIT_FOLDER
    try:
        mode = kit.lstat().st_mode
    except FileNotFoundError:
        return {}
    if not stat.S_ISDIR(mode):
        raise _refuse(shown(out), f"holds {KIT_FOLDER} that is not a folder; move it away, a build keeps kits in "
                                  f"{shown(kit)}/")
    found = {}
    for entry in sorted(os.scandir(kit), key=lambda e: e.name):
        data = None
        if entry.is_file(follow_symlinks=False):
            data = verified(out, f"{KIT_FOLDER}/{entry.name}", _sha256(Path(entry.path)) or "")
        if data is None:
            raise _refuse(shown(out), f"holds {shown(Path(entry.path))}, which is not a file a kit wrote (a folder, "
                                      f"link or device); move it out of {shown(kit)}/ so the build can keep the kit")
        found[f"{KIT_FOLDER}/{entry.name}"] = data
    return found


# --- one build at a time, and recovery of an interrupted one -------------------------------------

def lock_path(out: Path) -> Path:
    """The lock file of an output (or kit) folder: in the cache, keyed by the folder's absolute path.

    Never beside the folder: a lock file there would sit among the user's own folders.
    """
    from generator.core import paths

    key = hashlib.sha256(os.fsencode(os.path.abspath(out))).hexdigest()[:32]
    if lifecycle.is_run_folder(paths.CACHE_DIR):  # the cache is unusable: locks must still be shared by every run
        return lifecycle.shared_lock_folder() / f"{key}.lock"
    return paths.CACHE_DIR / "locks" / f"{key}.lock"


@contextlib.contextmanager
def locked(out: Path, name: str):
    """Hold the output's lock file for the whole build; a second build exits 2.

    Taking the lock first makes every leftover beside the output the work of a dead build,
    so the interrupted swap, if any, is recovered here.
    """
    try:
        out.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise _refuse(name, f"cannot be written ({exc.strerror})") from None
    lock = Path("locks")
    try:
        lock = lock_path(out)
        lock.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(lock, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o644)
    except OSError as exc:
        raise _refuse(name, f"cannot be locked: the cache folder {lock.parent} cannot be written "
                            f"({exc.strerror})") from None
    lifecycle.keep_from_children(fd)  # a forked worker must never hold the lock after this build ends
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise _refuse(name, "is being written by another rulesheets build; try again when it has finished") from None
        try:
            recover(out)
        except OSError as exc:
            raise _refuse(name, f"cannot be recovered from an interrupted build ({exc.strerror})") from None
        yield out
    finally:
        lifecycle.release(fd)
        os.close(fd)  # closing releases the lock; the file stays, so a waiting build locks the same inode


def recover(out: Path) -> None:
    """Finish what a killed build left: bring back the old output if the swap stopped half-way, drop the rest."""
    pattern = re.compile(_LEFTOVER.format(name=re.escape(out.name)))
    leftovers = sorted(p for p in out.parent.iterdir() if pattern.fullmatch(p.name) and not p.is_symlink() and p.is_dir())
    if not out.exists():
        # Killed between the two renames of the fallback swap: the previous output is in `.old-`.
        for old in leftovers:
            if ".old-" in old.name and is_output(old):
                os.rename(old, out)
                leftovers.remove(old)
                break
    for path in leftovers:
        shutil.rmtree(path, ignore_errors=True)


# --- reading the previous output ---------------------------------------------------------------

def _sha256(path: Path) -> str | None:
    """sha256 of a regular file inside its folder, or None for a symbolic link, device or missing file."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC)
    except OSError:
        return None
    with os.fdopen(fd, "rb") as fh:
        if not stat.S_ISREG(os.fstat(fh.fileno()).st_mode):
            return None
        return hashlib.file_digest(fh, "sha256").hexdigest()


def _inside(out: Path, rel: str) -> Path | None:
    """out/rel when rel is a plain relative path whose folders are real folders inside out."""
    parts = rel.split("/")
    if not rel or rel.startswith("/") or any(p in ("", ".", "..") for p in parts):
        return None
    here = out
    for part in parts[:-1]:
        here = here / part
        if here.is_symlink() or not here.is_dir():
            return None
    return out / rel


def verified(out: Path, rel: str, sha256: str) -> bytes | None:
    """The bytes of out/rel if it is a regular file (no link followed) whose sha256 is the recorded one."""
    path = _inside(out, rel)
    if path is None or _sha256(path) != sha256:
        return None
    data = path.read_bytes()
    return data if hashlib.sha256(data).hexdigest() == sha256 else None


def previous_artifacts(out: Path, planned: set[str]) -> dict[str, tuple[dict, bytes]]:
    """Artifacts of the previous output this build does not make (a build of one locale keeps the others).

    Only files whose bytes still match the manifest are carried over; an edited or linked one is dropped.
    """
    if not is_output(out):
        return {}
    kept = {}
    for e in read_manifest(out):
        if e["path"] not in planned:
            data = verified(out, e["path"], e["sha256"])
            if data is not None:
                kept[e["path"]] = (e, data)
    return kept


def previous_folder(out: Path, folder: str) -> dict[str, bytes] | None:
    """Every file under out/folder as the state file recorded it, or None if any was changed, added or linked."""
    files = read_state(out).get("files")
    if not is_output(out) or not isinstance(files, dict):
        return None
    if (out / folder).is_symlink():
        return None
    wanted = {rel: h for rel, h in files.items() if rel.startswith(folder + "/")}
    found = set()
    for root, dirs, names in os.walk(out / folder):
        for name in names + [d for d in dirs if os.path.islink(os.path.join(root, d))]:
            found.add(Path(root, name).relative_to(out).as_posix())
    if not wanted or found != set(wanted):
        return None
    out_files = {}
    for rel, h in wanted.items():
        data = verified(out, rel, h)
        if data is None:
            return None
        out_files[rel] = data
    return out_files


def unchanged(out: Path, key: str) -> list[dict] | None:
    """The manifest when the previous output was built from exactly these inputs and no file was touched since."""
    state = read_state(out)
    if state.get("key") != key or not is_output(out) or not isinstance(state.get("files"), dict):
        return None
    entries = read_manifest(out)
    for rel, h in state["files"].items():
        path = _inside(out, rel)
        if path is None or _sha256(path) != h:
            return None
    return entries


# --- writing ---------------------------------------------------------------------------------

_AT_FDCWD = -100
_RENAME_EXCHANGE = 2


def _exchange(a: Path, b: Path) -> bool:
    """Swap two paths in one atomic step (Linux renameat2); False where the system has no such call."""
    try:
        renameat2 = ctypes.CDLL(None, use_errno=True).renameat2
    except (OSError, AttributeError):
        return False
    renameat2.argtypes = [ctypes.c_int, ctypes.c_char_p, ctypes.c_int, ctypes.c_char_p, ctypes.c_uint]
    if renameat2(_AT_FDCWD, os.fsencode(a), _AT_FDCWD, os.fsencode(b), _RENAME_EXCHANGE) == 0:
        return True
    err = ctypes.get_errno()
    if err in (errno.EINVAL, errno.ENOSYS, errno.EOPNOTSUPP):
        return False  # a file system without exchange: fall back to two renames
    raise OSError(err, os.strerror(err), str(b))


def _swap(new: Path, out: Path) -> None:
    """Put the complete folder `new` in place of `out`; at every instant one complete output is at `out`
    (with the fallback, `out` is briefly missing and `recover` brings the old one back)."""
    if not out.exists():
        os.rename(new, out)
        _checkpoint("renamed")
        return
    if _exchange(new, out):
        _checkpoint("exchanged")  # `new` now holds the old output
        shutil.rmtree(new, ignore_errors=True)
        _checkpoint("removed")
        return
    old = out.parent / f".{out.name}.old-{os.getpid()}"
    os.rename(out, old)
    _checkpoint("moved-old")
    try:
        os.rename(new, out)
    except BaseException:
        os.rename(old, out)
        raise
    _checkpoint("moved-new")
    shutil.rmtree(old, ignore_errors=True)
    _checkpoint("removed")


def write_output(out: Path, name: str, files: dict[str, bytes], entries: list[dict], key: str | None,
                 kit: dict[str, bytes] | None = None) -> None:
    """Write every file into a fresh sibling folder, then swap it in: a failure leaves the old output intact.

    `files` holds everything the new output contains (artifacts, carried-over ones, the site);
    `key` is the input key for the next no-op check (None when files were carried over);
    `kit` the files of kit/ carried over, recorded apart (a new kit never makes a build necessary).
    """
    new = out.parent / f".{out.name}.new-{os.getpid()}"
    manifest = sorted(entries, key=lambda e: e["path"])
    kit = kit or {}
    state = {"made_by": "rulesheets", "key": key,
             "files": {rel: hashlib.sha256(data).hexdigest() for rel, data in sorted(files.items())},
             "kit": {rel: hashlib.sha256(data).hexdigest() for rel, data in sorted(kit.items())}}
    manifest_bytes = (json.dumps(manifest, indent=2, ensure_ascii=False) + "\n").encode("utf-8")
    state["files"][MANIFEST] = hashlib.sha256(manifest_bytes).hexdigest()
    lifecycle.stop_if_signalled()
    try:
        new.mkdir()
        for rel, data in {**files, **kit}.items():
            target = new / rel
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(data)
        (new / MANIFEST).write_bytes(manifest_bytes)
        _checkpoint("written")
        # The state file last: a folder that has it is complete.
        (new / STATE_FILE).write_text(json.dumps(state, sort_keys=True), encoding="utf-8")
        _checkpoint("marked")
        _swap(new, out)
    except OSError as exc:
        shutil.rmtree(new, ignore_errors=True)
        raise _refuse(name, f"could not be written ({exc.strerror or exc}); the previous output is unchanged") from None
    except BaseException:
        shutil.rmtree(new, ignore_errors=True)
        raise
