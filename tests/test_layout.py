"""Tests mirror the code (docs/architecture.md, "Where a test lives").

The test of ``games/reads/since.py`` is ``tests/games/reads/test_since.py``: a test module's
directory under ``tests/`` is the path of a package of ``games/``, ``accounts/`` or
``guildhall_site/``, and its name is ``test_<name>.py`` or ``test_<name>_<topic>.py``, where
``<name>`` is a module (``<name>.py``) or a package (``<name>/``) of that package. A test of a
package as a whole sits beside the package's directory (``tests/games/test_play.py``).

Everything else is listed in ``EXCEPTIONS`` with its reason; a listed path that no longer
holds a test fails too, so the list cannot rot. Every directory of tests has an
``__init__.py``: pytest imports them by their package names (``tests.games.web.test_board``),
so two ``test_views.py`` of two packages never collide.
"""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
TESTS = ROOT / "tests"
# The code that tests mirror.
SOURCES = ("games", "accounts", "guildhall_site")

# The tests that mirror no module, each with its reason. A key ending in "/" is a directory
# of tests: every test module under it.
EXCEPTIONS: dict[str, str] = {
    "tests/test_layout.py": "the layout of tests/ itself",
    "tests/e2e/": "end-to-end tests in a real browser (Playwright), of whole pages across "
    "views, templates and scripts; their fixtures are tests/e2e/conftest.py",
    "tests/goofspiel/": "the tests' proof game: its code lives in tests/goofspiel/ beside "
    "its tests, registered only in the tests",
    "tests/games/upgrades/": "databases of real earlier releases, migrated, upgraded "
    "(upgrade_games, verify_games) and played on: the whole site across releases",
    "tests/guildhall_site/ops/test_deploy_files.py": "the deployment files (compose.yaml, "
    "Dockerfile, docs/Procfile) against docs/deploy.md: no Python module",
    "tests/guildhall_site/ops/test_production.py": "the production smoke test: the whole "
    "site installed as the image installs it, run with the Procfile's commands",
    "tests/guildhall_site/ops/test_two_machines.py": "the whole site on two web servers, two "
    "workers and a beat",
    "tests/guildhall_site/test_bad_input.py": "bad input that answered 500 once, across "
    "the pages and the API of every app",
    "tests/guildhall_site/test_embedded_default.py": "the whole site under rundemo: a web "
    "server and a worker with beat on one SQLite file",
    "tests/guildhall_site/test_floor_plan.py": "import-linter's contracts over every package",
    "tests/guildhall_site/test_import_circles.py": "the import graph of every package",
    "tests/guildhall_site/test_fuzz_pages.py": "every page's parameters fed hostile values",
    "tests/guildhall_site/test_german_site.py": "every page a player opens, read in German",
    "tests/guildhall_site/test_translations.py": "every template and Python text of every "
    "app marked for translation and translated",
    "tests/accounts/test_wording.py": "one spelling across the templates of our pages and "
    "allauth's: no Python module",
    "tests/accounts/test_contact.py": 'CONTACT_EMAIL on the pages that say "contact us": '
    "allauth's templates and the 429 and 500 pages, no Python module",
}


def is_package(directory: Path) -> bool:
    return (directory / "__init__.py").is_file()


def mirrored(test: Path, root: Path) -> Path | None:
    """The module or package of the code that ``test`` (under root/tests) mirrors, or None."""
    package = test.parent.relative_to(root / "tests")
    source = root / package
    if not package.parts or package.parts[0] not in SOURCES or not is_package(source):
        return None
    stem = test.stem.removeprefix("test_")
    for child in sorted(source.iterdir()):
        if child.suffix == ".py" and child.stem != "__init__":
            name = child.stem
        elif child.is_dir() and is_package(child):
            name = child.name
        else:
            continue
        if stem == name or stem.startswith(name + "_"):
            return child
    return None


def listed(test: str, exceptions: dict[str, str]) -> str | None:
    """The key of ``exceptions`` that covers ``test`` (a path relative to the root), or None."""
    for key in exceptions:
        if test == key or (key.endswith("/") and test.startswith(key)):
            return key
    return None


def problems(root: Path, exceptions: dict[str, str]) -> list[str]:
    """Every test module under root/tests that neither mirrors nor is listed, every listed
    path that covers no test module, every end-to-end test outside tests/e2e/ and every
    directory of tests without its __init__.py."""
    found = []
    used = set()
    for test in sorted((root / "tests").rglob("test_*.py")):
        name = test.relative_to(root).as_posix()
        key = listed(name, exceptions)
        if key is not None:
            used.add(key)
        if test.stem.endswith("_e2e") and not name.startswith("tests/e2e/"):
            found.append(f"{name}: an end-to-end test belongs in tests/e2e/ (its fixtures)")
        if key is None and mirrored(test, root) is None:
            found.append(f"{name}: mirrors no module or package of {', '.join(SOURCES)}")
        directory = test.parent
        while directory != root:
            if not is_package(directory):
                found.append(f"{name}: {directory.relative_to(root)}/ has no __init__.py")
            directory = directory.parent
    for key in exceptions:
        if key not in used:
            found.append(f"{key}: listed in EXCEPTIONS but holds no test module any more")
    return found


def test_every_test_module_mirrors_the_code_or_is_listed_with_its_reason():
    assert problems(ROOT, EXCEPTIONS) == []


def test_every_exception_gives_its_reason():
    assert all(reason.strip() for reason in EXCEPTIONS.values())


def test_the_brief_example_mirrors():
    test = TESTS / "games" / "reads" / "test_since.py"
    assert mirrored(test, ROOT) == ROOT / "games" / "reads" / "since.py"


# The checker itself, on small trees made for it.


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    for package in ("games", "games/reads", "games/play", "tests", "tests/games"):
        (tmp_path / package).mkdir(exist_ok=True)
        (tmp_path / package / "__init__.py").touch()
    (tmp_path / "games/reads/since.py").touch()
    (tmp_path / "tests/games/reads").mkdir()
    (tmp_path / "tests/games/reads/__init__.py").touch()
    (tmp_path / "tests/games/reads/test_since.py").touch()
    (tmp_path / "tests/games/reads/test_since_email.py").touch()
    (tmp_path / "tests/games/test_play.py").touch()  # the package games/play as a whole
    return tmp_path


def test_a_tree_that_mirrors_has_no_problem(tree):
    assert problems(tree, {}) == []


def test_a_test_of_no_module_is_named(tree):
    (tree / "tests/games/test_since.py").touch()  # games/since.py does not exist
    (tree / "tests/games/reads/test_sincere.py").touch()  # since, but no "_" after it
    assert problems(tree, {}) == [
        "tests/games/reads/test_sincere.py: mirrors no module or package of "
        "games, accounts, guildhall_site",
        "tests/games/test_since.py: mirrors no module or package of "
        "games, accounts, guildhall_site",
    ]


def test_a_listed_test_passes_and_a_stale_listing_is_named(tree):
    (tree / "tests/games/test_since.py").touch()
    exceptions = {"tests/games/test_since.py": "why", "tests/gone/": "why", "tests/x.py": "y"}
    assert problems(tree, exceptions) == [
        "tests/gone/: listed in EXCEPTIONS but holds no test module any more",
        "tests/x.py: listed in EXCEPTIONS but holds no test module any more",
    ]


def test_an_end_to_end_test_outside_e2e_is_named_even_where_it_would_mirror(tree):
    (tree / "tests/games/reads/test_since_e2e.py").touch()
    (tree / "tests/e2e").mkdir()
    (tree / "tests/e2e/__init__.py").touch()
    (tree / "tests/e2e/test_since_e2e.py").touch()
    assert problems(tree, {"tests/e2e/": "browser"}) == [
        "tests/games/reads/test_since_e2e.py: an end-to-end test belongs in tests/e2e/ "
        "(its fixtures)"
    ]


def test_a_directory_of_tests_without_init_is_named(tree):
    (tree / "tests/games/reads/__init__.py").unlink()
    assert problems(tree, {}) == [
        "tests/games/reads/test_since.py: tests/games/reads/ has no __init__.py",
        "tests/games/reads/test_since_email.py: tests/games/reads/ has no __init__.py",
    ]
