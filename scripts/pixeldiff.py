"""Compare every PDF page of two builds as pictures: did a change to the HTML/CSS move anything visibly?

    python scripts/pixeldiff.py BEFORE_DIR AFTER_DIR [--dpi 50] [--tolerance 0.002] [--shots DIR]

Each page of each PDF in the manifests is rendered with pdftoppm (grey, 50 dpi by default) and
compared pixel by pixel. A pixel differs when its grey level moves by more than 48 of 255 (so
anti-aliasing that shifts by a fraction of a pixel does not count); a page differs when more than
`tolerance` of its pixels do. Pages counts must match. Prints one line per differing page and a
summary; exits 1 when any page differs, 2 on bad input. With --shots, the differing pages are
saved side by side (before | after) as PNG for a look.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from PIL import Image, ImageChops

LEVEL = 48


def pages(pdf: Path, dpi: int, into: Path) -> list[Image.Image]:
    into.mkdir(parents=True, exist_ok=True)
    subprocess.run(["pdftoppm", "-r", str(dpi), "-gray", str(pdf), str(into / "p")], check=True)
    return [Image.open(p).convert("L") for p in sorted(into.glob("p-*.pgm"))]


def page_difference(a: Image.Image, b: Image.Image) -> float:
    """Share of pixels whose grey level moved by more than LEVEL (1.0 when the page sizes differ)."""
    if a.size != b.size:
        return 1.0
    diff = ImageChops.difference(a, b).point(lambda v: 255 if v > LEVEL else 0)
    return diff.histogram()[255] / (a.size[0] * a.size[1])


def compare(before: Path, after: Path, dpi: int, tolerance: float, shots: Path | None) -> tuple[int, list[str]]:
    entries = [e for e in json.loads((before / "manifest.json").read_text()) if e["format"] == "pdf"]
    problems: list[str] = []
    total = 0
    worst = [0.0]
    with tempfile.TemporaryDirectory(prefix="pixeldiff-") as tmp:
        def one(i_e):
            i, e = i_e
            if not (after / e["path"]).is_file():
                return 0, [f"{e['path']}: missing after"]
            a = pages(before / e["path"], dpi, Path(tmp) / f"{i}a")
            b = pages(after / e["path"], dpi, Path(tmp) / f"{i}b")
            if len(a) != len(b):
                return len(a), [f"{e['path']}: {len(a)} pages before, {len(b)} after"]
            out = []
            for n, (pa, pb) in enumerate(zip(a, b), 1):
                share = page_difference(pa, pb)
                worst[0] = max(worst[0], share)
                if share > tolerance:
                    out.append(f"{e['path']} page {n}: {share * 100:.2f} % of pixels differ")
                    if shots:
                        shots.mkdir(parents=True, exist_ok=True)
                        both = Image.new("L", (pa.width + pb.width, max(pa.height, pb.height)), 255)
                        both.paste(pa, (0, 0))
                        both.paste(pb, (pa.width, 0))
                        both.save(shots / f"{e['path'].replace('/', '_')}-{n}.png")
            return len(a), out

        with ThreadPoolExecutor(2) as pool:
            for count, out in pool.map(one, enumerate(entries)):
                total += count
                problems += out
    return total, problems, worst[0]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("before", type=Path)
    ap.add_argument("after", type=Path)
    ap.add_argument("--dpi", type=int, default=50)
    ap.add_argument("--tolerance", type=float, default=0.002, help="share of a page's pixels allowed to differ")
    ap.add_argument("--shots", type=Path, default=None)
    args = ap.parse_args()
    for d in (args.before, args.after):
        if not (d / "manifest.json").is_file():
            print(f"{d}: no manifest.json (not a build output folder)", file=sys.stderr)
            sys.exit(2)
    total, problems, worst = compare(args.before, args.after, args.dpi, args.tolerance, args.shots)
    for p in problems:
        print(p)
    print(f"pixeldiff: {total} pages compared at {args.dpi} dpi, {len(problems)} differ "
          f"(tolerance {args.tolerance * 100:.1f} % of pixels, grey level > {LEVEL}; "
          f"largest difference on any page {worst * 100:.3f} %)")
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()
