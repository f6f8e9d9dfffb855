"""The printing layer is loaded before the first sheet is asked for (``tally serve`` starts
:func:`tally.sheets.render.warm_up` in the background), and a layer that cannot load stays
quiet until a sheet is asked for."""

from __future__ import annotations

import subprocess
import sys

import pytest

from tally.sheets import render


@pytest.mark.slow
def test_warming_up_loads_weasyprint_and_the_house_style_once() -> None:
    code = (
        "import sys; from tally.sheets import render as r; r.warm_up(); "
        "print('weasyprint' in sys.modules, r._house_style.cache_info().currsize)"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=True
    )
    assert done.stdout.split() == ["True", "1"]
    assert done.stderr == ""


def test_a_printing_layer_that_cannot_load_is_told_at_the_first_sheet_not_at_start(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def missing() -> None:
        raise OSError("cannot load library 'libpango-1.0-0'")

    monkeypatch.setattr(render, "import_weasyprint", missing)
    render.warm_up()  # no exception, nothing printed
    with pytest.raises(OSError):
        render.html_to_pdf("<p>x</p>")
