"""Back the database up, and restore a backup into a new database (docs/deploy.md, backups).

    manage.py backup dump FILE                    # the site's database (DATABASE_URL)
    manage.py backup restore FILE --database-url postgres://.../guildhall_restored [--create]

``dump`` runs ``pg_dump`` in its custom format: one consistent snapshot of the whole database
(pg_dump reads every table in one repeatable-read transaction, so a game's row, its moves and
its seats are of the same moment, while the site goes on serving), compressed, without owners
or grants so that it restores under any role. ``restore`` runs ``pg_restore`` in one
transaction into a database that must be empty (``--create`` creates it first): a backup is
never restored over live data by mistake, and a restore that fails leaves nothing half done.
Check a restored database with ``DATABASE_URL=... manage.py verify_games``.

The password goes to pg_dump and pg_restore in their environment (``PGPASSWORD``), never on
their command line, where any user of the machine could read it.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path
from typing import Any

import dj_database_url
import psycopg
from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser
from psycopg import sql


def libpq_env(database: dict[str, Any]) -> dict[str, str]:
    """The environment that points pg_dump, pg_restore and psql at ``database`` (a Django
    DATABASES entry)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("PG")}
    values = {
        "PGHOST": database.get("HOST"),
        "PGPORT": database.get("PORT"),
        "PGUSER": database.get("USER"),
        "PGPASSWORD": database.get("PASSWORD"),
        "PGDATABASE": database.get("NAME"),
        "PGSSLMODE": (database.get("OPTIONS") or {}).get("sslmode"),
        "PGCONNECT_TIMEOUT": "10",
    }
    env.update({k: str(v) for k, v in values.items() if v})
    return env


def _postgres(url: str | None) -> dict[str, Any]:
    database = dj_database_url.parse(url) if url else settings.DATABASES["default"]
    if database["ENGINE"] != "django.db.backends.postgresql":
        raise CommandError(
            "backup works with PostgreSQL only (a postgres:// DATABASE_URL). For the SQLite "
            "file of a development site, copy it with: sqlite3 db.sqlite3 '.backup copy.sqlite3'"
        )
    return dict(database)


def _tool(name: str) -> str:
    path = shutil.which(name)
    if path is None:
        raise CommandError(f"{name} is not installed (Debian: apt-get install postgresql-client)")
    return path


def _connect(database: dict[str, Any], dbname: str) -> psycopg.Connection:
    return psycopg.connect(
        host=database.get("HOST") or None,
        port=database.get("PORT") or None,
        user=database.get("USER") or None,
        password=database.get("PASSWORD") or None,
        dbname=dbname,
        connect_timeout=10,
        autocommit=True,
    )


class Command(BaseCommand):
    help = "Dump the database with pg_dump, or restore a dump into a new, empty database."

    def add_arguments(self, parser: CommandParser) -> None:
        actions = parser.add_subparsers(dest="action", required=True)
        dump = actions.add_parser("dump", help="Write a consistent dump of the database to FILE.")
        dump.add_argument("file", type=Path)
        dump.add_argument(
            "--database-url", help="The database to dump (default: the site's, DATABASE_URL)."
        )
        restore = actions.add_parser("restore", help="Restore FILE into an empty database.")
        restore.add_argument("file", type=Path)
        restore.add_argument(
            "--database-url",
            required=True,
            help="The database to restore into: empty, or missing with --create.",
        )
        restore.add_argument(
            "--create", action="store_true", help="Create the database first (it must not exist)."
        )

    def handle(self, *args: Any, **options: Any) -> None:
        if options["action"] == "dump":
            self.dump(options["file"], options["database_url"])
        else:
            self.restore(options["file"], options["database_url"], options["create"])

    def dump(self, file: Path, url: str | None) -> None:
        database = _postgres(url)
        if file.exists():
            raise CommandError(f"{file} exists already: name a new file")
        partial = file.with_name(file.name + ".partial")
        command = [
            _tool("pg_dump"),
            "--format=custom",
            "--no-owner",
            "--no-privileges",
            f"--file={partial}",
        ]
        done = subprocess.run(command, env=libpq_env(database), capture_output=True, text=True)
        if done.returncode != 0:
            partial.unlink(missing_ok=True)
            raise CommandError(f"pg_dump failed: {done.stderr.strip()}")
        # Renamed once whole: a file of this name is always a complete dump.
        partial.rename(file)
        self.stdout.write(f"Dumped database {database['NAME']} to {file}")

    def restore(self, file: Path, url: str, create: bool) -> None:
        database = _postgres(url)
        if not file.is_file():
            raise CommandError(f"{file} is not a file")
        site = settings.DATABASES["default"]
        if (database.get("HOST"), database.get("PORT"), database["NAME"]) == (
            site.get("HOST"),
            site.get("PORT"),
            site["NAME"],
        ):
            raise CommandError("That is the site's own database: restore into a new one")
        if create:
            self._create(database)
        self._check_empty(database)
        command = [
            _tool("pg_restore"),
            "--no-owner",
            "--no-privileges",
            "--exit-on-error",
            "--single-transaction",
            f"--dbname={database['NAME']}",
            str(file),
        ]
        done = subprocess.run(command, env=libpq_env(database), capture_output=True, text=True)
        if done.returncode != 0:
            raise CommandError(f"pg_restore failed (nothing was restored): {done.stderr.strip()}")
        self.stdout.write(f"Restored {file} into database {database['NAME']}")

    def _create(self, database: dict[str, Any]) -> None:
        try:
            with _connect(database, "postgres") as conn:
                conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(database["NAME"])))
        except psycopg.errors.DuplicateDatabase:
            raise CommandError(f"Database {database['NAME']} exists already") from None
        except psycopg.Error as error:
            raise CommandError(f"Cannot create database {database['NAME']}: {error}") from None

    def _check_empty(self, database: dict[str, Any]) -> None:
        try:
            with _connect(database, database["NAME"]) as conn:
                row = conn.execute(
                    "SELECT count(*) FROM pg_tables WHERE schemaname NOT IN "
                    "('pg_catalog', 'information_schema')"
                ).fetchone()
        except psycopg.Error as error:
            raise CommandError(
                f"Cannot reach database {database['NAME']} (use --create to create it): {error}"
            ) from None
        if row is None or row[0]:
            raise CommandError(
                f"Database {database['NAME']} is not empty: restore into a new database"
            )
