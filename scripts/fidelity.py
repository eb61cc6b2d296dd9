"""Text fidelity of a build's PDFs in poppler, PDFium and MuPDF: `python scripts/fidelity.py output/`."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from generator.dev.fidelity import main  # noqa: E402

raise SystemExit(main())
