"""manage.py backup: a dump of a database with games in play restores into a new database,
where the games are whole (verify_games replays them) and the same (boards and legal actions).

Real PostgreSQL, pg_dump and pg_restore (CI has them: DATABASE_URL is PostgreSQL under
CI=true); the restored database is named guildhall_ops_restored_<pid> and dropped at the end.
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from pathlib import Path

import psycopg
import pytest
from django.conf import settings
from django.core.management import call_command
from django.core.management.base import CommandError

from games.models import Game
from games.play import moves
from games.reads import viewing
from tests import system_packages
from tests.games.helpers import play_one, random_action, start_game

REPOSITORY = Path(settings.BASE_DIR)

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(
        settings.DATABASES["default"]["ENGINE"] != "django.db.backends.postgresql",
        reason="needs PostgreSQL: set DATABASE_URL (CI does)",
    ),
]

# Each game as a new process reads it from a database: its record, and every seat's board and
# legal actions (what a player would be shown and offered).
DESCRIBE = """
import json
from games.models import Game
from games.reads import viewing
out = {}
for game in Game.objects.order_by("pk"):
    state = viewing.game_state(game)
    kind = game.game_kind
    seats = range(len(game.names))
    out[game.pk] = {
        "kind": game.kind, "version": game.version, "status": game.status,
        "moves": [m.record() for m in game.moves.order_by("number")],
        "seats": list(game.seats.order_by("number").values_list("user__username", "deciding")),
        "boards": [kind.view(state, s) for s in seats] + [kind.view(state, None)],
        "legal": [kind.legal_actions(state, s) for s in seats],
    }
print("GAMES " + json.dumps(out, sort_keys=True, default=str))
"""


def database_url(name: str) -> str:
    db = settings.DATABASES["default"]
    user = db["USER"] or "postgres"
    password = f":{db['PASSWORD']}" if db["PASSWORD"] else ""
    return f"postgres://{user}{password}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{name}"


def manage(url: str, *args: str) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k not in ("REDIS_URL", "PYTEST_XDIST_WORKER")}
    env |= {"DATABASE_URL": url, "DJANGO_SETTINGS_MODULE": "guildhall_site.settings"}
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=REPOSITORY,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )


def describe(url: str) -> dict:
    done = manage(url, "shell", "-c", DESCRIBE)
    assert done.returncode == 0, done.stderr
    [line] = [x for x in done.stdout.splitlines() if x.startswith("GAMES ")]
    return json.loads(line.removeprefix("GAMES "))


@pytest.fixture(autouse=True)
def postgresql_client():
    """pg_dump and pg_restore, as the image has them (installed where missing)."""
    problem = system_packages.install("postgresql-client", "/usr/bin/pg_restore")
    if problem:
        pytest.fail(problem)


@pytest.fixture
def restored_name():
    name = f"guildhall_ops_restored_{os.getpid()}"
    yield name
    db = settings.DATABASES["default"]
    with psycopg.connect(
        host=db["HOST"] or None,
        port=db["PORT"] or None,
        user=db["USER"] or None,
        password=db["PASSWORD"] or None,
        dbname="postgres",
        autocommit=True,
    ) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def games_in_play(alice, bob, charlie) -> list[Game]:
    rand = random.Random(29)
    guildhall = start_game(alice, bob)
    for _ in range(25):
        guildhall = play_one(guildhall, rand)
    renaissance = start_game(alice, bob, charlie, kind="renaissance")
    # Choices until a round is public (the version moves), then one more choice: it stays
    # private, pending (a draft) while the other seats have not chosen.
    for _ in range(200):
        renaissance.refresh_from_db()
        done = renaissance.version > 0
        seat = min(renaissance.game_kind.deciders(viewing.game_state(renaissance)))
        user = renaissance.seats.get(number=seat).user
        action = random_action(renaissance, rand, seat)
        moves.do_submit_action(renaissance.pk, user, action, renaissance.version)
        if done:
            break
    renaissance.refresh_from_db()
    assert renaissance.version > 0 and renaissance.drafts
    waiting = start_game(bob, charlie)
    return [guildhall, renaissance, waiting]


class TestBackup:
    def test_a_dump_restores_into_a_new_database_with_the_games_whole(
        self, alice, bob, charlie, tmp_path, restored_name
    ):
        games = games_in_play(alice, bob, charlie)
        assert {g.status for g in Game.objects.all()} <= set(Game.ACTIVE)
        file = tmp_path / "site.dump"

        call_command("backup", "dump", str(file))
        target = database_url(restored_name)
        call_command("backup", "restore", str(file), "--database-url", target, "--create")

        verified = manage(target, "verify_games")
        assert verified.returncode == 0, verified.stdout + verified.stderr
        assert f"Checked {len(games)} games: 0 differ." in verified.stdout
        original = describe(database_url(settings.DATABASES["default"]["NAME"]))
        restored = describe(target)
        assert restored == original
        played = sorted((g["kind"], len(g["moves"])) for g in restored.values())
        assert [kind for kind, _ in played] == ["guildhall", "guildhall", "renaissance"]
        assert played[1][1] == 25 and played[2][1] > 0
        # Some seat may move on either database: the games are in play, not frozen.
        assert any(any(legal) for legal in (g["legal"] for g in restored.values()))
        # Restored once: a second restore into it is refused, and changes nothing.
        with pytest.raises(CommandError, match="not empty"):
            call_command("backup", "restore", str(file), "--database-url", target)
        assert describe(target) == restored

    def test_it_refuses_to_restore_over_a_database_with_tables(self, tmp_path, db):
        file = tmp_path / "site.dump"
        call_command("backup", "dump", str(file))
        site = database_url(settings.DATABASES["default"]["NAME"])

        with pytest.raises(CommandError, match="site's own database"):
            call_command("backup", "restore", str(file), "--database-url", site)

    def test_a_dump_never_overwrites_a_file(self, tmp_path, db):
        file = tmp_path / "site.dump"
        file.write_text("an older backup")

        with pytest.raises(CommandError, match="exists already"):
            call_command("backup", "dump", str(file))

        assert file.read_text() == "an older backup"

    def test_a_bad_dump_restores_nothing(self, tmp_path, restored_name, db):
        file = tmp_path / "broken.dump"
        file.write_bytes(b"PGDMP not really")

        with pytest.raises(CommandError, match="pg_restore failed"):
            call_command(
                "backup",
                "restore",
                str(file),
                "--database-url",
                database_url(restored_name),
                "--create",
            )
