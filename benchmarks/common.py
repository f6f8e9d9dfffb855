"""What the benchmarks share: how to run tally as a whole process."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path


def tally_cmd() -> list[str]:
    """The ``tally`` command of this Python's environment (or ``python -m tally``)."""
    exe = shutil.which("tally", path=str(Path(sys.executable).parent)) or shutil.which("tally")
    return [exe] if exe else [sys.executable, "-m", "tally"]
