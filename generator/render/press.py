"""Print-shop files (`--press`): 3 mm bleed, crop marks, PDF/X-4 with a CMYK output intent.

Without it a PDF is made for a home printer and a screen reader (PDF/UA-1, margins the printer can
reach). With it, every page gets a BleedBox 3 mm beyond its TrimBox and crop marks outside the bleed
(WeasyPrint's `bleed` and `marks`), and the file declares PDF/X-4 with the output intent a print shop
reads: Ghostscript's CMYK profile (Artifex CMYK SWOP, Debian's libgs-common, installed by `make setup`).
Booklets and card sheets are imposed from half-size pages; their sheets get the same boxes, marks and
intent afterwards (`finish_sheet`).
"""

from __future__ import annotations

import hashlib
import io
import re
import uuid
from pathlib import Path

BLEED_MM = 3
#: Crop marks start this far outside the bleed and are this long (WeasyPrint's marks sit in an 8 px band).
MARK_GAP_MM, MARK_LENGTH_MM = 1, 5
PROFILE = Path("/usr/share/color/icc/ghostscript/default_cmyk.icc")
MM = 72 / 25.4

CSS = (f"@page {{ bleed: {BLEED_MM}mm; marks: crop; }}\n"
       f'@color-profile device-cmyk {{ src: url("{PROFILE.as_uri()}"); components: c, m, y, k; }}')


def missing_profile() -> str | None:
    """Why press files cannot be made here (None: they can)."""
    if not PROFILE.is_file():
        return f"--press needs the CMYK profile {PROFILE} (Debian's libgs-common; `make setup` installs it)"
    return None


_XMP_ID = re.compile(rb"xmp\.(did|iid):([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})")
#: The trailer's /ID: the given identifier, then a hash WeasyPrint takes of the file, the random ids included.
_FILE_ID = re.compile(rb"(/ID \[\([^)]*\) \()([0-9a-f]{32})(\)\])")


def fixed_ids(data: bytes) -> bytes:
    """The PDF with the XMP's random document id, and the file hash that covers it, made from its content.

    WeasyPrint writes a fresh uuid4 into a PDF/X file's metadata (uncompressed), so two builds of the same
    input differed. The new values have the same lengths: no offset in the file moves.
    """
    blank = _FILE_ID.sub(lambda m: m.group(1) + b"0" * 32 + m.group(3),
                         _XMP_ID.sub(lambda m: b"xmp." + m.group(1) + b":" + b"0" * 36, data))
    digest = hashlib.sha256(blank).digest()
    out = _XMP_ID.sub(lambda m: b"xmp." + m.group(1) + b":" + str(uuid.UUID(bytes=digest[:16])).encode(), data)
    return _FILE_ID.sub(lambda m: m.group(1) + digest[16:].hex().encode() + m.group(3), out)


def finish_sheet(data: bytes) -> bytes:
    """An imposed sheet (a booklet's or card sheet's) as a print shop's file: bleed, crop marks, PDF/X-4."""
    import pikepdf

    bleed, gap, length = BLEED_MM * MM, MARK_GAP_MM * MM, MARK_LENGTH_MM * MM
    room = bleed + gap + length
    with pikepdf.open(io.BytesIO(data)) as pdf:
        for page in pdf.pages:
            x0, y0, x1, y1 = (float(v) for v in page.obj.MediaBox)
            page.obj.TrimBox = pikepdf.Array([x0, y0, x1, y1])
            page.obj.BleedBox = pikepdf.Array([x0 - bleed, y0 - bleed, x1 + bleed, y1 + bleed])
            page.obj.MediaBox = pikepdf.Array([x0 - room, y0 - room, x1 + room, y1 + room])
            marks = []
            for x, y, sx, sy in ((x0, y0, -1, -1), (x1, y0, 1, -1), (x0, y1, -1, 1), (x1, y1, 1, 1)):
                # Each corner: one mark along each edge of the trim, from just outside the bleed outwards.
                marks.append(f"{x:.3f} {y + sy * (bleed + gap):.3f} m {x:.3f} {y + sy * room:.3f} l S")
                marks.append(f"{x + sx * (bleed + gap):.3f} {y:.3f} m {x + sx * room:.3f} {y:.3f} l S")
            page.contents_add(pdf.make_stream(("q 0 0 0 1 K 0.25 w " + " ".join(marks) + " Q\n").encode()))
        profile = pdf.make_stream(PROFILE.read_bytes())
        profile.N = 4
        pdf.Root.OutputIntents = pikepdf.Array([pikepdf.Dictionary(
            Type=pikepdf.Name.OutputIntent, S=pikepdf.Name.GTS_PDFX,
            OutputConditionIdentifier=pikepdf.String("Artifex CMYK SWOP Profile"),
            Info=pikepdf.String("Artifex CMYK SWOP Profile"), DestOutputProfile=profile)])
        with pdf.open_metadata(set_pikepdf_as_editor=False, update_docinfo=False) as meta:
            meta["pdfxid:GTS_PDFXVersion"] = "PDF/X-4"
        pdf.docinfo[pikepdf.Name.Trapped] = pikepdf.Name("/False")
        out = io.BytesIO()
        pdf.save(out, deterministic_id=True, compress_streams=True, min_version="1.6",
                 object_stream_mode=pikepdf.ObjectStreamMode.generate)
    return out.getvalue()
