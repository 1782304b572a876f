import pytest

from tests.guildhall_site.ops.site_processes import production_venv


@pytest.fixture(scope="session")
def venv(tmp_path_factory):
    """The image's install, once per test run: ``uv sync --locked --no-dev``."""
    return production_venv(tmp_path_factory.mktemp("venv") / "venv")
