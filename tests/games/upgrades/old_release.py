"""A database made by an earlier release, for the tests of an upgrade: the test database is
migrated back to that release's migrations, the rows it stored (``fixtures/``: dumped by
its ``manage.py dumpdata``, gzipped) are written through the models of that schema (Django's
historical models: today's would not fit it), and the database is migrated forward again,
as a release step does."""

from __future__ import annotations

import gzip
import json
import random
from pathlib import Path

from django.core.management.color import no_style
from django.db import connection, transaction
from django.db.migrations.executor import MigrationExecutor

from games.models import Game, Seat
from games.play import computer_moves, moves

FIXTURES = Path(__file__).parent / "fixtures"

# The leaf migration of every app at commit bea9dcd (None: the app did not exist).
BEA9DCD = [
    ("accounts", "0007_push_preferences"),
    ("games", "0007_ratings"),
    ("notifications", "0002_push_subscriptions"),
    ("moderation", None),
    ("community", None),
    ("tournaments", None),
    ("webhooks", None),
]
# Commit b957e5d, the release that changed Renaissance Man's rules without a version: every
# app at today's leaf but the games' (0013 keeps the rules versions).
B957E5D = [("games", "0012_move_turns")]


def migrate(targets) -> MigrationExecutor:
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)
    return executor


def load_release(targets, fixture: str) -> int:
    """The test database as that release left it: migrated back to ``targets``, with the
    rows of ``fixture``; then migrated forward to today's migrations. The rows written."""
    executor = migrate(targets)
    # The schema of that release: its apps where named, every other app as it is today.
    named = dict(targets)
    nodes = [(app, named.get(app, name)) for app, name in executor.loader.graph.leaf_nodes()]
    apps = executor.loader.project_state([n for n in nodes if n[1] is not None]).apps
    rows = json.loads(gzip.decompress((FIXTURES / fixture).read_bytes()))
    by_model: dict = {}
    many: list = []
    for row in rows:
        model = apps.get_model(row["model"])
        fields = {}
        for name, value in row["fields"].items():
            field = model._meta.get_field(name)
            if field.many_to_many:
                if value:
                    many.append((model, row["pk"], name, value))
            elif field.is_relation:
                fields[field.attname] = value
            else:
                fields[name] = field.to_python(value)
        by_model.setdefault(model, []).append(model(pk=row["pk"], **fields))
    with transaction.atomic(), connection.constraint_checks_disabled():
        for model, objs in by_model.items():
            model.objects.bulk_create(objs)
        for model, pk, name, value in many:
            getattr(model.objects.get(pk=pk), name).set(value)
    connection.check_constraints()
    with connection.cursor() as cursor:  # the next rows' ids follow the loaded ones
        for sql in connection.ops.sequence_reset_sql(no_style(), list(by_model)):
            cursor.execute(sql)
    migrate(MigrationExecutor(connection).loader.graph.leaf_nodes())
    return len(rows)


def play_to_the_end(
    game: Game, rand: random.Random, most: int = 5000, *, stop_after: int | None = None
) -> Game:
    """Every seat played by the computer until the game ends (or ``stop_after`` moves were
    made): a person's seat through the move service, as the person would (the normal
    computer chooses), a computer's by its own task."""
    for made in range(most):
        game.refresh_from_db()
        if not game.is_active or made == stop_after:
            return game
        seats = list(Seat.objects.filter(game=game, deciding=True).select_related("user"))
        person = next((s for s in seats if not s.computer_level), None)
        if person is None:
            if not computer_moves.play_computer_turn(game.pk, game.version):
                raise AssertionError(f"game {game.pk} waits for nobody who moves")
            continue
        kind = game.game_kind
        action = kind.choose(kind.from_json(game.snapshot), person.number, rand)
        moves.do_submit_action(game.pk, person.user, action, game.version)
    raise AssertionError(f"game {game.pk} did not end in {most} moves")
