"""The machine-checkable rules of PDF/UA-1 over PDFs, with the `pdfua` package (a test dependency).

`problems(pdf)` lists every error and warning the package reports, every rule it could not evaluate,
and a missing PDF/UA-1 claim in the XMP metadata (pdfuaid:part 1), one line each: an empty list is a
pass. `python -m generator.dev.uacheck OUT` checks every PDF under a build's output folder (kits too),
except the print impositions the manifest lists (booklets, card sheets), which claim no PDF/UA: see
generator/render/imposition.py.

pdfua 0.1.3 cannot evaluate its heading rule (UA-14-001) on a structure element whose /K is an array,
which is how WeasyPrint writes every element: its `as_integer` asks a pikepdf array for an attribute,
which pikepdf answers with ValueError instead of AttributeError. `_as_integer` below is the same
function without that step, so the rule runs instead of being skipped.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path


def _as_integer(value: object) -> int | None:
    """pdfua.document.as_integer for plain values: an int (not a bool) is a number, anything else is not."""
    if isinstance(value, bool) or not isinstance(value, int):
        return None
    return int(value)


def _validator():
    import pdfua
    import pdfua.document
    import pdfua.rules.structure

    pdfua.document.as_integer = pdfua.rules.structure.as_integer = _as_integer
    return pdfua.validate


def problems(pdf: Path) -> list[str]:
    """Errors, warnings and rules not evaluated, as `FILE: RULE SEVERITY: message`; [] when the PDF passes."""
    import pikepdf
    from pdfua import Severity

    report = _validator()(str(pdf))
    out = []
    for outcome in report.outcomes:
        if outcome.skipped_reason:
            out.append(f"{pdf}: {outcome.rule_id} not evaluated: {outcome.skipped_reason}")
        for finding in outcome.findings:
            if finding.severity in (Severity.ERROR, Severity.WARNING):
                out.append(f"{pdf}: {finding.rule_id} {finding.severity.name}: {finding.message}")
    with pikepdf.open(pdf) as doc:
        xmp = doc.Root.Metadata.read_bytes().decode() if "/Metadata" in doc.Root else ""
    if not re.search(r'pdfuaid:part\s*=\s*"1"|<pdfuaid:part>1</pdfuaid:part>', xmp):
        out.append(f"{pdf}: the XMP metadata does not declare PDF/UA-1 (pdfuaid:part 1)")
    return out


def _impositions(out: Path) -> set[Path]:
    """The booklets and card sheets a build's manifest lists."""
    import json

    from generator.render.imposition import IMPOSED_KINDS

    manifest = out / "manifest.json"
    if not manifest.is_file():
        return set()
    return {out / e["path"] for e in json.loads(manifest.read_text(encoding="utf-8")) if e.get("kind") in IMPOSED_KINDS}


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 1 or not Path(args[0]).is_dir():
        print("usage: python -m generator.dev.uacheck OUT  (a build's output folder)", file=sys.stderr)
        return 2
    imposed = _impositions(Path(args[0]))
    pdfs = [pdf for pdf in sorted(Path(args[0]).rglob("*.pdf")) if pdf not in imposed]
    found = [line for pdf in pdfs for line in problems(pdf)]
    skipped = f" ({len(imposed)} print impositions left out: they claim no PDF/UA)" if imposed else ""
    print("\n".join(found) if found else f"PDF/UA-1: {len(pdfs)} PDFs, 0 errors, 0 warnings, every rule evaluated{skipped}")
    return 1 if found else 0


if __name__ == "__main__":
    raise SystemExit(main())
