"""The published site of the bundled examples, made once per test module."""

from __future__ import annotations

import pytest

from tests.publish_support import Site, make_analysed_site, make_site


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Site:
    return make_site(tmp_path_factory.mktemp("publish"))


@pytest.fixture(scope="module")
def analysed_site(tmp_path_factory: pytest.TempPathFactory) -> Site:
    return make_analysed_site(tmp_path_factory.mktemp("analysed"))
