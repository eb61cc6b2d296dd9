"""--out can only replace a previous rulesheets output; the swap survives SIGKILL at every step;
one build at a time; caches and carried-over files are checked, not trusted (issue 10)."""

from __future__ import annotations

import fcntl
import hashlib
import json
import os
import resource
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.conftest import manifest, run_cli
from tests.safety import cli, consistent, refused, tree

HTML = ("build", "--games", "bunco", "--locales", "en", "--formats", "html")
STATE = ".rulesheets-state.json"


def _out(message: str) -> str:
    return f"rulesheets: command line: --out {message}"


@pytest.fixture
def built(project: Path) -> Path:
    r = run_cli(project, *HTML)
    assert r.returncode == 0, r.stderr
    return project


# --- 1. what --out may replace -------------------------------------------------------------------

def _notes(folder: Path) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "notes.md").write_text("a user's own notes\n", encoding="utf-8")
    return folder


def test_refuses_the_folder_above_the_project(built):
    assert refused(built, *HTML, "--out", "..") == _out(".. holds the current folder; choose a new or empty folder")


def test_refuses_the_current_folder(built):
    assert refused(built, *HTML, "--out", "") == _out(". is the current folder; choose a new or empty folder")


def test_refuses_home(built, tmp_path):
    home = _notes(tmp_path / "home")
    assert refused(built, *HTML, "--out", str(home), env={"HOME": str(home)}) == _out(
        f"{home} is your home folder; choose a new or empty folder")


def test_refuses_root(built):
    assert refused(built, *HTML, "--out", "/") == _out("/ is the root folder; choose a new or empty folder")


def test_refuses_the_project_from_elsewhere(built, tmp_path):
    elsewhere = _notes(tmp_path / "elsewhere")
    assert refused(built, *HTML, "--out", str(built), cwd=elsewhere) == _out(
        f"{built} is the project folder; choose a new or empty folder")


@pytest.mark.parametrize("target", ["docs", "generator", "locales/fr", "README.md", "output/site"])
def test_refuses_anything_in_the_project_but_output(built, target):
    docs = built / "docs"
    docs.mkdir()
    (docs / "TRANSLATING.md").write_text("how to translate\n", encoding="utf-8")
    (built / "README.md").write_text("# rulesheets\n", encoding="utf-8")
    assert refused(built, *HTML, "--out", target) == _out(
        f"{target} is inside the project, where only output/ may be used; choose another folder")


def test_refuses_a_users_folder(built, tmp_path):
    notes = _notes(tmp_path / "Documents")
    assert refused(built, *HTML, "--out", str(notes)) == _out(
        f"{notes} is not empty and holds no previous rulesheets output (no manifest.json and "
        ".rulesheets-state.json); choose a new or empty folder")


def test_refuses_a_checkout(built, tmp_path):
    checkout = _notes(tmp_path / "checkout")
    (checkout / ".git").mkdir()
    (checkout / ".git" / "HEAD").write_text("ref: refs/heads/main\n")
    assert refused(built, *HTML, "--out", str(checkout)).startswith(_out(f"{checkout} is not empty"))


def test_refuses_a_file(built, tmp_path):
    readme = tmp_path / "README.md"
    readme.write_text("keep me\n")
    assert refused(built, *HTML, "--out", str(readme)) == _out(
        f"{readme} is a file, not a folder; choose a new or empty folder")


def test_refuses_a_device(built):
    assert refused(built, *HTML, "--out", "/dev/null") == _out(
        "/dev/null is not a folder (a device, pipe or socket); choose a new or empty folder")


def test_refuses_a_symbolic_link(built, tmp_path):
    _notes(tmp_path / "real")
    (tmp_path / "link").symlink_to(tmp_path / "real")
    assert refused(built, *HTML, "--out", str(tmp_path / "link")) == _out(
        f"{tmp_path / 'link'} is a symbolic link; name the folder itself")


def test_refuses_a_link_to_a_previous_output(built, tmp_path):
    """Even a link to a real output: replacing it would replace the link, not what the user named."""
    (tmp_path / "link").symlink_to(built / "output")
    assert refused(built, *HTML, "--out", str(tmp_path / "link")) == _out(
        f"{tmp_path / 'link'} is a symbolic link; name the folder itself")


def test_refuses_a_folder_inside_a_previous_output(built, tmp_path):
    out = tmp_path / "out"
    assert cli(built, *HTML, "--out", str(out)).returncode == 0
    assert refused(built, *HTML, "--out", str(out / "site")) == _out(
        f"{out / 'site'} is inside a previous rulesheets output ({out}); choose another folder")


def test_refuses_proc(built):
    assert refused(built, *HTML, "--out", "/proc/x") == _out("/proc/x could not be written (No such file or directory); the previous output is unchanged")


def test_corrupt_manifest_is_reported_not_replaced(built):
    (built / "output/manifest.json").write_text('[\n  {"game": "bunco",\n', encoding="utf-8")
    assert refused(built, *HTML, "--locales", "fr") == (
        "output/manifest.json:3: corrupt manifest (Expecting property name enclosed in double quotes); "
        "delete the output folder to build it afresh")


def test_may_write_a_new_an_empty_or_a_previous_output(built, tmp_path):
    empty = tmp_path / "empty"
    empty.mkdir()
    for out in (tmp_path / "new" / "deeper" / "out", empty, built / "output"):
        r = cli(built, *HTML, "--locales", "fr", "--out", str(out))
        assert r.returncode == 0, r.stderr
        paths = {e["path"] for e in manifest(out)}
        assert "fr/bunco/rulebook.html" in paths
        consistent(out)
    assert {"en/bunco/rulebook.html", "fr/bunco/rulebook.html"} <= {e["path"] for e in manifest(built / "output")}


def test_full_disk_leaves_the_old_output(built):
    """A write that fails half-way (file size limit: EFBIG, as a full disk gives ENOSPC) is one line, exit 2."""
    po = built / "locales/en"  # any input change, so the build is not a no-op
    (built / "generator/games/bunco/model.yaml").write_text(
        (built / "generator/games/bunco/model.yaml").read_text(encoding="utf-8").replace("Pens for everyone.", "Pens for all."),
        encoding="utf-8")
    assert po.is_dir()
    limit = lambda: resource.setrlimit(resource.RLIMIT_FSIZE, (20_000, 20_000))  # noqa: E731
    assert refused(built, *HTML, preexec_fn=limit) == _out(
        "output could not be written (File too large); the previous output is unchanged")
    assert not list(built.glob(".output.new-*"))


def _mount_tmpfs(where: Path, options: str) -> bool:
    where.mkdir(exist_ok=True)
    return subprocess.run(["mount", "-t", "tmpfs", "-o", options, "tmpfs", str(where)],
                          capture_output=True).returncode == 0


def test_read_only_and_full_file_systems(built, tmp_path):
    """Real read-only and full file systems (tmpfs); skipped where mounting is not allowed."""
    mnt = tmp_path / "mnt"
    if os.geteuid() != 0 or not _mount_tmpfs(mnt, "size=8m"):
        pytest.skip("cannot mount a tmpfs here")
    try:
        out = mnt / "out"
        assert cli(built, *HTML, "--out", str(out)).returncode == 0
        bunco = built / "generator/games/bunco/model.yaml"
        bunco.write_text(bunco.read_text(encoding="utf-8").replace("Pens for everyone.", "Pens for all."), encoding="utf-8")
        subprocess.run(["mount", "-o", "remount,ro", str(mnt)], check=True)
        assert refused(built, *HTML, "--out", str(out)) == _out(f"{out} could not be written (Read-only file system); the previous output is unchanged")
        used = sum(p.stat().st_size for p in mnt.rglob("*") if p.is_file())
        subprocess.run(["mount", "-o", f"remount,rw,size={used + 64 * 1024}", str(mnt)], check=True)
        assert refused(built, *HTML, "--out", str(out)) == _out(
            f"{out} could not be written (No space left on device); the previous output is unchanged")
        consistent(out)
    finally:
        subprocess.run(["umount", str(mnt)], check=False)


# --- 2. SIGKILL at every step of the swap ----------------------------------------------------------

#: Runs the CLI with output._checkpoint replaced: at STEP the process stops (SIGSTOP) or dies (SIGKILL).
STEPPER = """
import os, signal, sys
from generator.output import folder as output
step, how, exchange = sys.argv[1:4]
def checkpoint(name):
    if name == step:
        os.kill(os.getpid(), signal.SIGSTOP if how == "stop" else signal.SIGKILL)
output._checkpoint = checkpoint
if exchange == "no":  # a file system without renameat2(RENAME_EXCHANGE)
    output._exchange = lambda a, b: False
from generator.cli import main
sys.exit(main(sys.argv[4:]))
"""


def _stepper(project: Path, step: str, how: str, exchange: str, *args: str) -> subprocess.Popen:
    env = {**os.environ, "PYTHONPATH": str(project)}
    return subprocess.Popen([sys.executable, "-c", STEPPER, step, how, exchange, *args], cwd=project, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True)


NEW = (*HTML[:4], "en", "fr", *HTML[5:])  # the killed build adds French


@pytest.mark.parametrize("exchange, step, survivor", [
    ("yes", "written", "old"), ("yes", "marked", "old"), ("yes", "exchanged", "new"), ("yes", "removed", "new"),
    ("no", "written", "old"), ("no", "marked", "old"), ("no", "moved-old", "old"), ("no", "moved-new", "new"),
    ("no", "removed", "new"),
])
def test_sigkill_at_every_step_of_the_swap(built, exchange, step, survivor):
    out = built / "output"
    before = tree(out)
    outside = tree(built, skip=("output", ".cache"))
    proc = _stepper(built, step, "kill", exchange, *NEW)
    proc.communicate(timeout=300)
    assert proc.returncode == -signal.SIGKILL
    if step == "moved-old":
        # Killed between the two renames: no output/ for a moment; the next start brings the old one back.
        assert not out.exists()
        from generator.output.folder import recover

        recover(out)
    if survivor == "old":
        assert tree(out) == before
    else:
        consistent(out)
        assert "fr/bunco/rulebook.html" in {e["path"] for e in manifest(out)}
    # The next build recovers what is left and succeeds; nothing is left over beside the output.
    r = run_cli(built, *NEW)
    assert r.returncode == 0, r.stderr
    consistent(out)
    assert not [p.name for p in built.iterdir() if p.name.startswith(".output.")]
    assert tree(built, skip=("output", ".cache")) == outside


def test_sigkill_during_a_first_build(project):
    proc = _stepper(project, "renamed", "kill", "yes", *HTML)
    proc.communicate(timeout=300)
    assert proc.returncode == -signal.SIGKILL
    consistent(project / "output")


def test_interrupted_swap_of_an_older_version_is_recovered(built):
    """An older rulesheets renamed output/ to .output.old-PID before renaming the new one in."""
    out = built / "output"
    before = tree(out)
    out.rename(built / ".output.old-999999")
    (built / ".output.tmp-999999").mkdir()
    r = run_cli(built, *HTML)
    assert r.returncode == 0 and r.stdout.startswith("nothing changed"), r.stdout + r.stderr
    assert tree(out) == before
    assert not list(built.glob(".output.*-*"))


# --- 3. one build at a time ------------------------------------------------------------------------

def _lock(project: Path, monkeypatch) -> Path:
    """The lock file a build of project/output takes: in the project's cache, never beside the output."""
    from generator.core import paths
    from generator.output.folder import lock_path

    monkeypatch.setattr(paths, "CACHE_DIR", project / ".cache")
    path = lock_path(project / "output")
    path.parent.mkdir(parents=True, exist_ok=True)
    return path


def test_second_build_waits_for_none_and_changes_nothing(built, monkeypatch):
    with open(_lock(built, monkeypatch), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        assert refused(built, *HTML, "--locales", "fr") == _out(
            "output is being written by another rulesheets build; try again when it has finished")


def test_concurrent_builds_lose_no_locale(built):
    out = built / "output"
    # Build A stops itself with its new output written, holding the lock.
    a = _stepper(built, "marked", "stop", "yes", *HTML[:4], "fr", *HTML[5:])
    try:
        deadline = time.monotonic() + 120
        while not list(built.glob(".output.new-*/" + STATE)):
            assert a.poll() is None and time.monotonic() < deadline
            time.sleep(0.05)
        time.sleep(0.2)
        b = run_cli(built, *HTML[:4], "hi", *HTML[5:])
        assert (b.returncode, b.stderr.strip()) == (2, _out(
            "output is being written by another rulesheets build; try again when it has finished"))
    finally:
        os.killpg(a.pid, signal.SIGCONT)
    a.communicate(timeout=120)
    assert a.returncode == 0
    assert run_cli(built, *HTML[:4], "hi", *HTML[5:]).returncode == 0
    paths = {e["path"] for e in manifest(out)}
    assert {"en/bunco/rulebook.html", "fr/bunco/rulebook.html", "hi/bunco/rulebook.html"} <= paths
    consistent(out)


# --- 4. caches and carried-over files are checked ------------------------------------------------

PDF = ("build", "--games", "bunco", "--locales", "en", "--papers", "a4", "--jobs", "1")


def _damage(path: Path, how: str) -> None:
    data = path.read_bytes()
    if how == "truncate":
        path.write_bytes(data[: len(data) // 2])
    else:  # same size, different bytes
        middle = len(data) // 2
        path.write_bytes(data[:middle] + bytes([data[middle] ^ 0xFF]) + data[middle + 1:])


@pytest.mark.render
def test_damaged_pdf_cache_is_rendered_again(project, tmp_path):
    assert run_cli(project, *PDF).returncode == 0
    first = {e["path"]: e["sha256"] for e in manifest(project / "output")}
    pdfs = sorted((project / ".cache/pdf").glob("*.pdf"))
    assert len(pdfs) >= 2
    for i, pdf in enumerate(pdfs):
        _damage(pdf, "truncate" if i % 2 else "flip")
    out = tmp_path / "second"
    r = cli(project, *PDF, "--out", str(out))
    assert r.returncode == 0, r.stderr
    assert r.stdout.startswith(f"built {len(pdfs)} PDFs, reused 0"), r.stdout
    assert {e["path"]: e["sha256"] for e in manifest(out)} == first
    consistent(out)
    for pdf in pdfs:  # the cache holds good entries again
        info = json.loads(pdf.with_suffix(".json").read_text())
        assert hashlib.sha256(pdf.read_bytes()).hexdigest() == info["sha256"]


def test_damaged_web_font_cache_is_cut_again(built, tmp_path):
    fonts = sorted((built / ".cache/fonts").glob("*.woff2"))
    assert fonts
    first = tree(built / "output/site/fonts")
    for i, font in enumerate(fonts):
        _damage(font, "truncate" if i % 2 else "flip")
    out = tmp_path / "second"
    shutil.rmtree(built / ".cache/site", ignore_errors=True)  # else the unchanged site comes whole from its cache
    assert cli(built, *HTML, "--out", str(out)).returncode == 0
    assert tree(out / "site/fonts") == first
    for font in fonts:
        assert hashlib.sha256(font.read_bytes()).hexdigest() == font.with_name(font.name + ".sha256").read_text()


def test_damaged_cut_cjk_font_is_cut_again(tmp_path):
    from generator.fonts.pdf import print_css

    css = print_css(("Noto Sans CJK KR",), ["규칙 한국어"], cache_dir=tmp_path)
    cuts = sorted(tmp_path.glob("*.otf"))
    assert cuts and all(c.name in css for c in cuts)
    good = {c: c.read_bytes() for c in cuts}
    _damage(cuts[0], "truncate")
    _damage(cuts[-1], "flip") if len(cuts) > 1 else None
    assert print_css(("Noto Sans CJK KR",), ["규칙 한국어"], cache_dir=tmp_path) == css
    assert {c: c.read_bytes() for c in cuts} == good


def test_edited_output_file_of_the_same_size_is_noticed(built):
    page = built / "output/en/bunco/rulebook.html"
    good = page.read_bytes()
    _damage(page, "flip")
    r = run_cli(built, *HTML)
    assert r.returncode == 0 and not r.stdout.startswith("nothing changed"), r.stdout
    assert page.read_bytes() == good


def test_carried_over_files_must_match_the_manifest_and_are_never_links(built, tmp_path):
    out = built / "output"
    secret = tmp_path / "secret.html"
    shutil.copy(out / "en/bunco/rulebook.html", secret)  # same bytes: the sha256 matches
    (out / "en/bunco/rulebook.html").unlink()
    (out / "en/bunco/rulebook.html").symlink_to(secret)
    _damage(out / "en/bunco/tally-sheet.html", "flip")
    outside = tree(tmp_path, skip=("proj/output", "proj/.cache"))
    r = run_cli(built, *HTML[:4], "fr", *HTML[5:])
    assert r.returncode == 0, r.stderr
    paths = {e["path"] for e in manifest(out)}
    assert "en/bunco/rulebook.html" not in paths and "en/bunco/tally-sheet.html" not in paths
    assert "en/bunco/scorepad-table-1.html" in paths and "fr/bunco/rulebook.html" in paths
    assert not [p for p in out.rglob("*") if p.is_symlink()]
    consistent(out)
    assert tree(tmp_path, skip=("proj/output", "proj/.cache")) == outside


def test_carried_over_site_is_checked(built):
    """A build of some locales keeps the last site only if no file of it was edited, added or linked."""
    out = built / "output"
    page = out / "site/en/bunco/index.html"
    _damage(page, "flip")
    r = run_cli(built, *HTML[:4], "fr", *HTML[5:])
    assert r.returncode == 0, r.stderr
    consistent(out)
    # The edited site was not carried over: this build made its own (French only).
    assert not page.exists() and (out / "site/fr/bunco/index.html").is_file()
    state = json.loads((out / STATE).read_text())
    assert all(hashlib.sha256((out / p).read_bytes()).hexdigest() == h for p, h in state["files"].items())
    # An untouched site is kept as it was by the next partial build.
    site = tree(out / "site")
    assert run_cli(built, *HTML).returncode == 0
    assert tree(out / "site") == site


# --- 9. partial formats keep the site whole ----------------------------------------------------------

def test_empty_formats_is_a_usage_error(built):
    assert refused(built, *HTML[:5], "--formats", ",") == (
        "rulesheets: command line: --formats needs at least one of html, pdf")


@pytest.mark.render
def test_html_only_build_keeps_pdfs_and_their_links(full_build, project):
    shutil.copytree(full_build, project / "output")
    pdfs = {e["path"]: e["sha256"] for e in manifest(project / "output") if e["format"] == "pdf"}
    r = run_cli(project, "build", "--formats", "html")
    assert r.returncode == 0, r.stderr
    after = {e["path"]: e["sha256"] for e in manifest(project / "output") if e["format"] == "pdf"}
    assert after == pdfs
    page = (project / "output/site/fr/bunco/index.html").read_text(encoding="utf-8")
    assert 'href="rulebook-a4.pdf"' in page or "rulebook-a4.pdf" in page
    assert (project / "output/site/fr/bunco/rulebook-a4.pdf").read_bytes() == (project / "output/fr/bunco/rulebook-a4.pdf").read_bytes()
    consistent(project / "output")
