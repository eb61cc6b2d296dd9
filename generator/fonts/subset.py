"""One way to cut a face down to some characters (HarfBuzz's subsetter), for PDF cuts and WOFF2 web fonts alike.

HarfBuzz cuts the CJK collection in about 10 ms where fontTools takes over a second. Every layout
feature is kept (locl draws the Nepali digits, the Indic features build conjuncts), hints are
dropped (they cost a third of the bytes and matter little on screen), CFF is desubroutinized (it
compresses better). Cuts are cached by content: the key is the font file's SHA-256, the face index,
the characters and the options, so it does not depend on where the checkout or the font lives.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import unicodedata
from functools import lru_cache
from pathlib import Path

from generator.core import cache
from generator.core.paths import CACHE_DIR as _CACHE
from generator.fonts.choice import FontFile

#: Subsets of earlier builds (PDF cuts as .otf, web fonts as .woff2). Bump CACHE_VERSION when options change.
CACHE_DIR = _CACHE / "fonts"
CACHE_VERSION = 4
#: Name records kept: the usual ones plus 13/14 (licence text and URL), which the OFL wants to travel with the font.
NAME_IDS = (0, 1, 2, 3, 4, 5, 6, 13, 14)
#: FontForge's FFTM table is nothing but timestamps.
DROP_TABLES = ("FFTM",)
#: Every web font carries this head.modified (2026-01-01 in seconds since 1904), whatever the source says.
FIXED_TIMESTAMP = int((dt.datetime(2026, 1, 1) - dt.datetime(1904, 1, 1)).total_seconds())


def decompositions(chars) -> frozenset[str]:
    """The characters and, recursively, their canonical decompositions.

    A shaper normalises before it looks glyphs up: HarfBuzz splits the two-part Bengali vowel signs
    (ৌ into ে + ৗ, ো into ে + া) and tries decomposed forms when a face lacks a precomposed one
    (Devanagari nukta letters). A subset that keeps only the text's own code points then draws
    কৌশল with a dotted circle, so every subset keeps these too.
    """
    out, todo = set(), list(chars)
    while todo:
        ch = todo.pop()
        if ch in out:
            continue
        out.add(ch)
        parts = unicodedata.decomposition(ch)
        if parts and not parts.startswith("<"):  # "<compat> ..." decompositions are not canonical
            todo.extend(chr(int(p, 16)) for p in parts.split())
    return frozenset(out)


@lru_cache(maxsize=None)
def _file_digest(path: Path, size: int, mtime_ns: int) -> str:
    h = hashlib.sha256()
    with path.open("rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def file_digest(face: FontFile) -> str:
    """SHA-256 of the face's file (read once per process and file version)."""
    st = face.path.stat()
    return _file_digest(face.path, st.st_size, st.st_mtime_ns)


def cache_key(face: FontFile, chars: frozenset[str], flavor: str) -> str:
    import uharfbuzz as hb

    ident = [CACHE_VERSION, hb.__version__, flavor, file_digest(face), face.index, "".join(sorted(chars))]
    if flavor == "woff2":  # the packing's settings decide the bytes too
        from generator.patches.woff2pack import brotli_quality

        ident.append(brotli_quality())
    return hashlib.sha256(json.dumps(ident).encode("utf-8")).hexdigest()


def _tag(name: str) -> int:
    return int.from_bytes(name.encode("ascii"), "big")


def cut(face: FontFile, chars: frozenset[str]) -> bytes:
    """The face cut to `chars` as OpenType bytes (characters the face lacks are simply not kept).

    HarfBuzz keeps the source's timestamps, so the bytes depend only on the font file and the characters.
    """
    import uharfbuzz as hb

    source = hb.Face(hb.Blob.from_file_path(str(face.path)), face.index)
    request = hb.SubsetInput()
    for char in sorted(chars):
        request.unicode_set.add(ord(char))
    features = request.sets(hb.SubsetInputSets.LAYOUT_FEATURE_TAG)
    features.clear()
    features.invert()  # every feature
    names = request.sets(hb.SubsetInputSets.NAME_ID)
    for name_id in NAME_IDS:
        names.add(name_id)
    drop = request.sets(hb.SubsetInputSets.DROP_TABLE_TAG)
    for table in DROP_TABLES:
        drop.add(_tag(table))
    request.flags = hb.SubsetFlags.DESUBROUTINIZE | hb.SubsetFlags.NO_HINTING | hb.SubsetFlags.NOTDEF_OUTLINE
    return hb.subset(source, request).blob.data


def pdf_cut(face: FontFile, chars: frozenset[str]) -> bytes:
    """The cut for PDFs: a CID-keyed CFF face gets CID i for glyph i.

    HarfBuzz's cut keeps each glyph's CID from the collection (glyph 327 keeps CID 58199). WeasyPrint
    writes glyph numbers into the PDF as CIDs (CIDToGIDMap /Identity), which poppler and PDFium read
    as glyph numbers; MuPDF (SumatraPDF, zathura, mobile viewers) looks them up as CIDs through the
    charset, finds none, and draws nothing: "FT_Load_Glyph: invalid argument". With the charset made
    the identity, both readings name the same glyph. Only the CFF table changes; the others are copied.
    """
    data = cut(face, chars)
    if data[:4] != b"OTTO":
        return data
    import io

    from fontTools.ttLib import TTFont

    font = TTFont(io.BytesIO(data), lazy=True)
    top = font["CFF "].cff[0]
    if not hasattr(top, "ROS"):  # a name-keyed CFF: glyph numbers are all there is
        return data
    old = list(top.charset)
    new = [".notdef"] + [f"cid{i:05d}" for i in range(1, len(old))]
    if old == new:
        return data
    strings = top.CharStrings
    strings.charStrings = {new[i]: strings.charStrings[name] for i, name in enumerate(old)}
    top.charset = new
    font.setGlyphOrder(new)
    out = io.BytesIO()
    font.save(out, reorderTables=False)
    return out.getvalue()


def woff2(face: FontFile, chars: frozenset[str]) -> bytes:
    """The same cut, as WOFF2 with a fixed timestamp (woff2pack: fontTools' writer, faster)."""
    from generator.patches.woff2pack import pack

    return pack(cut(face, chars), FIXED_TIMESTAMP)


MAKERS = {"otf": pdf_cut, "woff2": woff2}


def cached(face: FontFile, chars: frozenset[str], flavor: str, cache_dir: Path | None = CACHE_DIR) -> Path | bytes:
    """`cut` or `woff2` of the face through the cache: the file's path when cache_dir is given, else the bytes."""
    if cache_dir is None:
        return MAKERS[flavor](face, chars)
    path = cache_dir / f"{cache_key(face, chars, flavor)[:32]}.{flavor}"
    if cache.read_checked(path) is None:  # missing, truncated or corrupted: cut again
        data = MAKERS[flavor](face, chars)
        try:
            cache.write_checked(path, data)
        except OSError as exc:  # the disk filled up during the build
            if flavor != "otf":
                cache.cache_unwritable(cache_dir, exc)
                return data
            from generator.core.errors import InputError, Problem

            # A PDF reads its cut font from the cache folder: without room there, no PDF.
            raise InputError(Problem(str(cache_dir), None, f"cannot write a cut font ({exc.strerror or exc})")) from None
    return path
