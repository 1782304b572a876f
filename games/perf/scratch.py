"""What a benchmark runs on: a scratch database of its own (``bench_<name>`` beside the site's,
created and dropped: never the site's own data) and an empty Redis database, emptied again at
the end."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any
from urllib.parse import quote

from django.conf import settings
from django.core.management.base import CommandError
from django.db import connection


@contextmanager
def scratch_database(what: str) -> Iterator[str]:
    """A new PostgreSQL database for the benchmark ``what``, dropped at the end; yields its
    name (for the site's processes the benchmark starts)."""
    if connection.vendor != "postgresql":
        raise CommandError(
            f"The database is {connection.vendor}: {what} measures on PostgreSQL, which the "
            "site's processes share with this command (set DATABASE_URL=postgres://...)."
        )
    db = settings.DATABASES["default"]
    old_name = db["NAME"]
    db.setdefault("TEST", {})["NAME"] = f"bench_{old_name}"
    name = connection.creation.create_test_db(verbosity=0, autoclobber=True, serialize=False)
    try:
        yield name
    finally:
        connection.creation.destroy_test_db(old_name, verbosity=0)


def database_url(name: str | None = None) -> str:
    """The URL of database ``name`` (default: the one connected to now) on the site's
    PostgreSQL server, for the processes a benchmark starts."""
    db = connection.settings_dict
    auth = quote(db["USER"] or "", safe="")
    if db["PASSWORD"]:
        auth += ":" + quote(db["PASSWORD"], safe="")
    host = db["HOST"] or "localhost"
    port = f":{db['PORT']}" if db["PORT"] else ""
    return f"postgres://{auth}@{host}{port}/{quote(name or db['NAME'], safe='')}"


@contextmanager
def empty_redis(url: str) -> Iterator[Any]:
    """A client of the empty Redis database ``url``, emptied at the end (a CommandError
    when it is not empty: a benchmark never empties someone's data)."""
    import redis

    client = redis.Redis.from_url(url, socket_connect_timeout=5)
    try:
        size = client.dbsize()
    except redis.RedisError as error:
        raise CommandError(f"Redis does not answer at {url}: {error}") from None
    if size:
        raise CommandError(
            f"The Redis database {url} holds {size} keys: give the benchmark an empty one "
            "(--redis redis://host:port/<db>), which it empties again at the end."
        )
    try:
        yield client
    finally:
        client.flushdb()


def percentile(values: list[float], share: float) -> float:
    """The ``share`` (0-1) percentile of ``values``, nearest rank; 0 for none."""
    if not values:
        return 0.0
    ordered = sorted(values)
    rank = max(0, min(len(ordered) - 1, round(share * len(ordered) + 0.5) - 1))
    return ordered[rank]
