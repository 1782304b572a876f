"""Record what the site answers over a few played games, to compare before and after a change
that must not change behaviour (issue 23's floor plan).

Not a test of its own (its name does not start with ``test_``): run it alone, then compare
two recordings::

    RECORD_TO=/tmp/before.json uv run pytest tests/record_answers.py -p no:xdist -q
    ... change the code ...
    RECORD_TO=/tmp/after.json uv run pytest tests/record_answers.py -p no:xdist -q
    diff <(python -m json.tool /tmp/before.json) <(python -m json.tool /tmp/after.json)

It goes only through URLs (pages, htmx partials, the JSON API) and the emails sent, so it
survives any move of the code behind them. Time is frozen, seats and seeds are drawn from
seeded generators, and the per-request tokens (CSRF, CSP nonces) are blanked.
"""

from __future__ import annotations

import json
import os
import random
import re
from datetime import UTC, datetime

import pytest
import time_machine
from django.core import mail
from django.test import Client

from tests.conftest import make_person

START = datetime(2026, 11, 2, 9, 0, tzinfo=UTC)

_BLANKS = [
    (
        re.compile(r'name="csrfmiddlewaretoken" value="[^"]+"'),
        'name="csrfmiddlewaretoken" value=""',
    ),
    (re.compile(r'"X-CSRFToken": ?"[^"]+"'), '"X-CSRFToken": ""'),
    (re.compile(r'csrf[-_]token[^>]*?content="[^"]+"'), "csrf-token"),
    (re.compile(r'nonce="[^"]+"'), 'nonce=""'),
]


class Recorder:
    def __init__(self) -> None:
        self.answers: dict[str, dict] = {}
        self.clients: dict[str, Client] = {}

    def client(self, who: str) -> Client:
        if who not in self.clients:
            client = Client()
            if who != "anonymous":
                from accounts.models import User

                client.force_login(User.objects.get(username=who))
            self.clients[who] = client
        return self.clients[who]

    def get(self, label: str, who: str, path: str, **headers) -> dict | None:
        response = self.client(who).get(path, **headers)
        body = response.content.decode("utf-8", "replace")
        for pattern, blank in _BLANKS:
            body = pattern.sub(blank, body)
        self.answers[f"{label} | {who} | GET {path}"] = {
            "status": response.status_code,
            "type": response.get("Content-Type", ""),
            "location": response.get("Location", ""),
            "body": body,
        }
        return response.json() if "json" in response.get("Content-Type", "") else None

    def post(self, who: str, path: str, data: dict) -> dict:
        response = self.client(who).post(path, data, content_type="application/json")
        assert response.status_code in (200, 201), (path, response.content[:500])
        return response.json()


def _pages(rec: Recorder, label: str, game_id: int, people: list[str]) -> None:
    for who in [*people, "anonymous"]:
        rec.get(label, who, f"/games/{game_id}/")
        rec.get(label, who, f"/games/{game_id}/", HTTP_HX_REQUEST="true")
        rec.get(label, who, f"/games/{game_id}/log/")
        rec.get(label, who, f"/api/v1/games/{game_id}/")
        rec.get(label, who, f"/api/v1/games/{game_id}/actions/")
        rec.get(label, who, f"/api/v1/games/{game_id}/moves/")
    for who in people:
        rec.get(label, who, "/")
        rec.get(label, who, "/lobby/")
        rec.get(label, who, "/api/v1/games/?my_turn=true")
        rec.get(label, who, "/api/v1/invitations/")


def _play(rec: Recorder, game_id: int, people: list[str], rand: random.Random, moves: int):
    """Random legal moves through the API, the first seat that owes a choice moving."""
    for _ in range(moves):
        for who in people:
            data = rec.client(who).get(f"/api/v1/games/{game_id}/actions/").json()
            if data.get("owes_choice", bool(data.get("actions"))) and data.get("actions"):
                break
        else:
            return True  # nobody decides: over
        actions = data["actions"]
        # Lean toward ending moves, as the tests' random player does, so games end.
        enders = [a for a in actions if a.get("type") in ("done", "pass", "end_turn")]
        action = rand.choice(enders) if enders and rand.random() < 0.3 else rand.choice(actions)
        rec.post(
            who, f"/api/v1/games/{game_id}/actions/", {"action": action, "version": data["version"]}
        )
        rec.clients[who].get("/")  # keeps the session's last-seen time like a visit
        if rec.client(who).get(f"/api/v1/games/{game_id}/").json()["status"] == "finished":
            return True
    return False


def _start(rec: Recorder, creator: str, invitees: list[str], body: dict) -> int:
    made = rec.post(creator, "/api/v1/invitations/", {**body, "invitees": invitees})
    answer = made
    for who in invitees:
        answer = rec.post(who, f"/api/v1/invitations/{made['id']}/accept/", {})
    return answer["game"]


@pytest.mark.django_db(transaction=True)
def test_record(monkeypatch, settings):
    out = os.environ.get("RECORD_TO")
    if not out:
        pytest.skip("RECORD_TO names the file to write")
    settings.API_THROTTLE_RATES = {k: "100000/minute" for k in settings.API_THROTTLE_RATES}
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    seeds = random.Random(23)
    monkeypatch.setattr("games.play.invitations.seed_random", seeds)
    for where in ("games.services", "games.play.invitations"):
        try:
            monkeypatch.setattr(f"{where}.seat_random", random.Random(5))
        except (ImportError, AttributeError):
            pass
    rec = Recorder()
    with time_machine.travel(START, tick=False) as clock:
        for name in ("alice", "bob", "charlie"):
            make_person(name, display_name=name.title())
        rand = random.Random(2026)
        guildhall = _start(rec, "alice", ["bob"], {"kind": "guildhall", "players": 2})
        renaissance = _start(
            rec, "alice", ["bob", "charlie"], {"kind": "renaissance", "players": 3}
        )
        rec.post("charlie", "/api/v1/invitations/", {"players": 2})  # an open one
        _pages(rec, "start gh", guildhall, ["alice", "bob"])
        _pages(rec, "start rm", renaissance, ["alice", "bob", "charlie"])
        for round_ in range(3):
            clock.shift(3600 * 7)
            _play(rec, guildhall, ["alice", "bob"], rand, 25)
            _play(rec, renaissance, ["alice", "bob", "charlie"], rand, 30)
            _pages(rec, f"round {round_} gh", guildhall, ["alice", "bob"])
            _pages(rec, f"round {round_} rm", renaissance, ["alice", "bob", "charlie"])
        clock.shift(3600 * 5)
        assert _play(rec, guildhall, ["alice", "bob"], rand, 3000), "Guildhall did not end"
        _pages(rec, "over gh", guildhall, ["alice", "bob"])
        for who in ("alice", "bob", "anonymous"):
            rec.get("over gh", who, f"/games/{guildhall}/replay/")
            rec.get("over gh", who, f"/games/{guildhall}/replay/5/")
            rec.get("over gh", who, "/u/alice/")
            rec.get("over gh", who, "/leaderboard/guildhall/")
            rec.get("over gh", who, "/api/v1/leaderboard/guildhall/")
        for game in ("guildhall", "renaissance"):
            rec.get("rules", "anonymous", f"/games/rules/{game}/")
        rec.get("catalog", "alice", "/api/v1/catalog/")
        rec.get("schema", "anonymous", "/api/schema/")
        rec.answers["emails"] = [
            {"to": m.to, "subject": m.subject, "body": m.body} for m in mail.outbox
        ]
    with open(out, "w") as f:
        json.dump(rec.answers, f, indent=1, sort_keys=True)
