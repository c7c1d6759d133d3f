"""Test configuration: hypothesis settings shared by the property tests, English, the
``kernel`` marker, and the fixtures the server's tests share.

Each property test sets its own number of examples; the profile here removes
the per-example deadline (an example plays a whole hand) so that slow
machines do not fail on timing. The tests read the game's English text: a
developer's own locale (``LANG=de_DE.UTF-8``) must not make ``sixtysix play``
speak German to them, so the locale variables that choose a language are
pinned to English; tests of other languages ask for them.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

from server_support import DATABASES, database_for, worker_database_url

settings.register_profile("sixtysix", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "sixtysix"))

os.environ.pop("LANGUAGE", None)
for _variable in ("LC_ALL", "LC_MESSAGES", "LANG"):
    if os.environ.get(_variable):
        os.environ[_variable] = "C.UTF-8"


def pytest_configure(config: pytest.Config) -> None:
    """Under pytest-xdist (``-n auto``) each worker's PostgreSQL tables live in a schema
    of its own (the URL every test and every server process it starts reads)."""
    worker = os.environ.get("PYTEST_XDIST_WORKER")
    url = os.environ.get("SIXTYSIX_TEST_POSTGRES_URL")
    if worker and url:
        os.environ["SIXTYSIX_TEST_POSTGRES_URL"] = worker_database_url(url, worker)


# The kernel marker ---------------------------------------------------------------------
# CI runs the suite on the compiled rules kernel, then again on the pure one (the
# fallback and reference), but only the tests marked ``kernel``: those whose outcome can
# depend on which kernel plays. Every test is marked but those of the modules named in
# ONE_PASS_PREFIXES, the doctests of the server, and tests marked ``one_pass``.
#: Test modules that check a face of the game on top of the rules (the server, the web
#: page, the deployment, the documentation, the catalogs, the training pipeline), or
#: that compare the two kernels themselves: one pass is enough.
ONE_PASS_PREFIXES = ("test_server_", "test_web_", "test_deploy", "test_docs", "test_catalogs",
                     "test_rules_page", "test_svg_display", "test_text", "test_lessons", "test_training",
                     "test_import_graph", "test_one_place", "test_serve_cli", "test_envs_docs",
                     "test_kernel_diff")
SERVER_SOURCES = Path(__file__).resolve().parent.parent / "src" / "sixtysix" / "server"


def _one_pass(path: Path) -> bool:
    if path.name.startswith(ONE_PASS_PREFIXES):
        return True
    return SERVER_SOURCES in path.parents


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark ``kernel`` every test whose result can depend on the rules kernel."""
    for item in items:
        if not _one_pass(Path(str(item.path))) and item.get_closest_marker("one_pass") is None:
            item.add_marker(pytest.mark.kernel)


# The server's shared fixtures ----------------------------------------------------------
@pytest.fixture(params=DATABASES)
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """A database URL for one test, once on SQLite and once on PostgreSQL (which must be
    there in CI), its tables dropped first."""
    yield from database_for(request.param, tmp_path)

