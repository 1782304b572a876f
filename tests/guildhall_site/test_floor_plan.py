"""The floor plan (docs/architecture.md): import-linter's contracts in pyproject.toml hold,
and they would catch an arrow that runs back up."""

import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("games", "accounts", "guildhall_site")


def lint_imports(root: Path) -> subprocess.CompletedProcess:
    script = Path(sys.executable).with_name("lint-imports")
    return subprocess.run(
        [str(script), "--no-cache"],
        cwd=root,
        env={**os.environ, "PYTHONPATH": str(root)},
        capture_output=True,
        text=True,
    )


def test_every_contract_is_kept():
    done = lint_imports(ROOT)
    assert done.returncode == 0, done.stdout + done.stderr
    assert (
        "broken" not in done.stdout.split("Contracts:")[-1].split("\n")[0]
        or " 0 broken" in done.stdout
    )


def _copy(tmp_path: Path) -> Path:
    for name in PACKAGES:
        shutil.copytree(
            ROOT / name, tmp_path / name, ignore=shutil.ignore_patterns("*.pyc", "__pycache__")
        )
    shutil.copy(ROOT / "pyproject.toml", tmp_path / "pyproject.toml")
    return tmp_path


def test_an_action_importing_a_page_breaks_the_layers(tmp_path):
    root = _copy(tmp_path)
    moves = root / "games" / "play" / "moves.py"
    moves.write_text(moves.read_text() + "\nfrom games.web import board  # noqa\n")

    done = lint_imports(root)

    assert done.returncode != 0
    assert "games.play.moves -> games.web.board" in done.stdout


def test_an_engine_importing_django_breaks_its_purity(tmp_path):
    root = _copy(tmp_path)
    engine = root / "games" / "renaissance" / "engine.py"
    engine.write_text(engine.read_text() + "\nimport django.db  # noqa\n")

    done = lint_imports(root)

    assert done.returncode != 0
    assert "games.renaissance.engine -> django" in done.stdout
