"""What each speed patch of generator/patches/ gains on a cold build, printed as figures.

    python -m generator.dev.patchgain [--repeats N] [-- BUILD ARGUMENTS]

A copy of the project (package, templates, locales) is built cold (no cache, new output folder), in
a fresh process with `--jobs 1` (after one build that is not counted: it compiles the copy's
bytecode), once with every patch and once with each speed patch left out
($RULESHEETS_SKIP_PATCHES), the runs interleaved and repeated. The figure is CPU time (user + system,
the build's process and every process it waited for), the least of the repeats: on a shared machine
other processes stretch wall time, not the work. Each build's files are compared with the build
with every patch: a speed patch must change no byte (woff2-brotli, a chosen packing quality, is
expected to). The default build arguments are the whole build, site included; pass a selection
after `--` for a quicker figure (the site, and so the WOFF2 patches, only comes with a full build).
"""

from __future__ import annotations

import argparse
import hashlib
import os
import resource
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from generator.dev.bench import copy_project
from generator.patches import LIBRARY_LOOKUP, SKIP_ENV, WOFF2_BROTLI, WOFF2_GLYF
from generator.patches.versions import PINNED

#: Every speed patch and the library whose code it mirrors (README.md's table).
SPEED = {LIBRARY_LOOKUP: "CPython ctypes.util", WOFF2_GLYF: "fonttools", WOFF2_BROTLI: "fonttools"}
#: Keep a speed patch only if it saves at least this share of a cold build's CPU time (the issue's 3 %).
THRESHOLD = 3.0
STATE_FILE = ".rulesheets-state.json"


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def cold_build(project: Path, out: Path, args: list[str], skip: str = "") -> float:
    """CPU seconds of one cold build of `project` into `out`, with the speed patch `skip` left out."""
    shutil.rmtree(project / ".cache", ignore_errors=True)
    shutil.rmtree(out, ignore_errors=True)
    env = {**os.environ, "PYTHONPATH": str(project), SKIP_ENV: skip}
    before = _children_cpu()
    r = subprocess.run([sys.executable, "-m", "generator.cli", "build", "--jobs", "1", "--out", str(out), *args],
                       cwd=project, env=env, capture_output=True, text=True)
    spent = _children_cpu() - before
    if r.returncode:
        sys.exit(f"patchgain: build without {skip or 'nothing'} failed: {r.stderr.strip()}")
    return spent


def digests(out: Path) -> dict[str, str]:
    """Each file of a build by its path (the state file aside: it records times and paths)."""
    return {str(p.relative_to(out)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(out.rglob("*")) if p.is_file() and p.name != STATE_FILE}


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m generator.dev.patchgain", description=__doc__.split("\n\n")[0])
    p.add_argument("--repeats", type=int, default=2, help="cold builds per variant (default 2; the least counts)")
    p.add_argument("--only", nargs="+", choices=list(SPEED), help="measure only these patches")
    p.add_argument("build_args", nargs="*", help="after --: arguments of `rulesheets build` (default: everything)")
    opts = p.parse_args(argv)
    names = opts.only or list(SPEED)
    with tempfile.TemporaryDirectory(prefix="patchgain-") as tmp:
        project = copy_project(Path(tmp) / "project")
        cold_build(project, Path(tmp) / "warm-up", opts.build_args)  # compiles the copy's bytecode: not counted
        variants = [""] + names
        cpu: dict[str, list[float]] = {v: [] for v in variants}
        files: dict[str, dict[str, str]] = {}
        for r in range(opts.repeats):
            order = variants if r % 2 == 0 else variants[::-1]
            for variant in order:
                out = Path(tmp) / f"out-{variant or 'all'}"
                cpu[variant].append(cold_build(project, out, opts.build_args, variant))
                files.setdefault(variant, digests(out))
                print(f"  run {r + 1}, {'every patch' if not variant else 'without ' + variant}: "
                      f"{cpu[variant][-1]:.2f} CPU s", file=sys.stderr, flush=True)
        base = min(cpu[""])
        print(f"cold build ({' '.join(opts.build_args) or 'everything'}, --jobs 1), least of {opts.repeats}: "
              f"{base:.2f} CPU s with every patch")
        print(f"{'patch':<15} {'library':<22} {'without':>9} {'gain':>8}  same files")
        for name in names:
            without = min(cpu[name])
            gain = 100 * (without - base) / without
            same = "yes" if files[name] == files[""] else "NO: " + ", ".join(
                sorted(k for k in files[""] if files[name].get(k) != files[""][k])[:3])
            lib = SPEED[name] + (f" {PINNED[SPEED[name]]}" if SPEED[name] in PINNED else "")
            verdict = "" if gain >= THRESHOLD else f"  (< {THRESHOLD:g} %)"
            print(f"{name:<15} {lib:<22} {without:>7.2f} s {gain:>6.1f} %  {same}{verdict}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
