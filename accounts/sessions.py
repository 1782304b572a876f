"""Django's database sessions, read in plain SQL (``SESSION_ENGINE = "accounts.sessions"``).

Every logged-in request reads its session before anything else. Built by the ORM, that read
costs more to compile than to run (about 0.45 ms against 0.2 ms on PostgreSQL: `manage.py
bench_render`), a good part of what a poll or a board from the cache costs; so, like the
board's own repeated reads (``games.reads.board``), it is written out here once, for every
database the site runs on. Everything else (saving, deleting, expiring, the session's data
and its signature) is Django's database backend, unchanged: the rows are the same.
"""

from __future__ import annotations

from typing import Any

from django.contrib.sessions.backends import db
from django.db import connections, router
from django.utils import timezone


class SessionStore(db.SessionStore):
    def load(self) -> dict[str, Any]:
        """The session's data, or nothing (and no key) when it is unknown or expired."""
        model = self.model
        connection = connections[router.db_for_read(model)]
        q = connection.ops.quote_name
        sql = (
            f"SELECT {q('session_data')} FROM {q(model._meta.db_table)} "
            f"WHERE {q('session_key')} = %s AND {q('expire_date')} > %s"
        )
        now = connection.ops.adapt_datetimefield_value(timezone.now())
        with connection.cursor() as cursor:
            cursor.execute(sql, [self.session_key, now])
            row = cursor.fetchone()
        if row is None:
            self._session_key = None
            return {}
        return self.decode(row[0])
