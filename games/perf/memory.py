"""The resident memory of gunicorn's workers while the site serves a steady mix of requests,
for ``manage.py bench_memory``: which process is which, their RSS read from /proc, and the
mix (pages of many games, the dashboard, the API, moves that change the games, pages that do
not exist and queries that differ every time, which any cache keyed by URL would keep)."""

from __future__ import annotations

import http.client
import itertools
import json
import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from games.perf import load


def children(pid: int) -> list[int]:
    path = Path(f"/proc/{pid}/task/{pid}/children")
    try:
        return [int(p) for p in path.read_text().split()]
    except OSError:
        return []


def rss_kib(pid: int) -> int | None:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    except OSError:
        return None
    return None


def workers_rss(master: int) -> dict[int, int]:
    """Each worker of the gunicorn ``master``: its RSS in KiB."""
    found = {pid: rss_kib(pid) for pid in children(master)}
    return {pid: kib for pid, kib in found.items() if kib is not None}


@dataclass
class Mix:
    """The requests, in turn: ``pages`` (GETs of the viewer's games and lists, each with its
    headers), a page that does not exist and a query string that was never asked before
    (``n`` makes each new), and a move every ``move_every`` requests (``move``: posts one
    and says if one was made)."""

    pages: list[load.Target]
    move: Callable[[http.client.HTTPConnection], bool]
    move_every: int = 10

    def requests(self, rand: random.Random) -> Iterator[load.Target | None]:
        """The next target, or None for a move."""
        for n in itertools.count():
            if n % self.move_every == 0:
                yield None
            elif n % 7 == 0:
                headers = self.pages[0].headers
                yield load.Target("no such page", f"/no-such-page-{n}/", headers, expect=404)
            elif n % 11 == 0:
                page = self.pages[0]
                yield load.Target(
                    "a new query", f"{page.path}?seen={n}", page.headers, expect=page.expect
                )
            else:
                yield rand.choice(self.pages)


def api_move_target(game_id: int, version: int, action: dict[str, Any], token: str) -> load.Target:
    return load.Target(
        "API move",
        f"/api/v1/games/{game_id}/actions/",
        {
            "Authorization": f"Token {token}",
            "Content-Type": "application/json",
            "X-Forwarded-Proto": "https",
        },
        expect=201,
        method="POST",
        body=json.dumps({"version": version, "action": action}).encode(),
    )


def mib(kib: int | None) -> float | None:
    return None if kib is None else round(kib / 1024, 1)
