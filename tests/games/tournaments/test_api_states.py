"""The API's answers about events in every state, each checked against the served OpenAPI
schema (tests/conftest.py checks every answer of the API with tests/games/api_validation.py):
open for sign-up, cancelled, a round under way with nothing decided, a player gone, a knockout
after its first round, a round robin and a league under way, and over. Issue 44: the detail
and /standings/ answered 500 whenever a crosstable cell was empty."""

from __future__ import annotations

import random
from datetime import timedelta

import pytest
import time_machine
from django.utils import timezone

from games.tournaments import services, tasks
from games.tournaments.models import Tournament
from tests.games.api_helpers import Api
from tests.games.tournaments.helpers import people, play_round, tournament

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("seats_in_order")]


@pytest.fixture
def committed(django_capture_on_commit_callbacks):
    return lambda: django_capture_on_commit_callbacks(execute=True)


def read_everything(user, t: Tournament) -> dict:
    """The detail, the standings and the page; the API's answers fit the schema."""
    api = Api(user)
    detail = api.get(f"/api/v1/tournaments/{t.pk}/")
    assert detail.status_code == 200, detail.content
    standings = api.get(f"/api/v1/tournaments/{t.pk}/standings/")
    assert standings.status_code == 200, standings.content
    assert standings.json() == detail.json()["stages"]
    listed = api.get("/api/v1/tournaments/")
    assert listed.status_code == 200
    from django.test import Client

    page = Client().get(f"/tournaments/{t.pk}/")
    assert page.status_code == 200
    return detail.json()


def start(t: Tournament, committed, clock) -> Tournament:
    clock.move_to(t.starts_at + timedelta(seconds=1))
    with committed():
        tasks.sweep()
    t.refresh_from_db()
    return t


def cells(detail: dict) -> list:
    return [c for s in detail["stages"] for r in s["standings"] for c in r["rounds"]]


class TestEveryState:
    def test_sign_up_and_cancelled(self, alice, bob, committed):
        t = tournament(alice, people(1), min_players=4)
        assert read_everything(bob, t)["status"] == "signup"
        with time_machine.travel(timezone.now(), tick=False) as clock:
            t = start(t, committed, clock)
        assert read_everything(bob, t)["status"] == "cancelled"

    def test_a_swiss_under_way_with_a_player_gone_then_over(self, alice, bob, committed):
        players = people(5)
        t = tournament(alice, players, rounds=2)
        rand = random.Random(1)
        with time_machine.travel(timezone.now(), tick=False) as clock:
            t = start(t, committed, clock)
            detail = read_everything(bob, t)
            assert None in cells(detail)  # round 1 not decided yet
            services.do_leave(t.pk, players[0])
            read_everything(bob, t)
            play_round(t, committed, rand)
            t.refresh_from_db()
            detail = read_everything(bob, t)
            play_round(t, committed, rand)
        t.refresh_from_db()
        assert t.status == Tournament.Status.FINISHED
        detail = read_everything(bob, t)
        assert detail["winner"]

    def test_a_knockout_after_its_first_round(self, alice, bob, committed):
        t = tournament(alice, people(6), format="knockout", rounds=0)
        rand = random.Random(2)
        with time_machine.travel(timezone.now(), tick=False) as clock:
            t = start(t, committed, clock)
            read_everything(bob, t)
            play_round(t, committed, rand, rounds=list(t.round_set.values_list("pk", flat=True)))
        t.refresh_from_db()
        assert t.round_set.count() >= 2
        assert None in cells(read_everything(bob, t))  # those out have no later cells

    def test_a_round_robin_and_a_league_under_way(self, alice, bob, committed):
        robin = tournament(
            alice, people(7), format="round_robin", table_size=3, min_players=3, max_players=24
        )
        season = tournament(alice, people(7, prefix="l"), format="league", rounds=2, min_players=6)
        rand = random.Random(3)
        with time_machine.travel(timezone.now(), tick=False) as clock:
            robin = start(robin, committed, clock)
            season = start(season, committed, clock)
            for t in (robin, season):
                read_everything(bob, t)
                first = list(t.round_set.filter(number=1).values_list("pk", flat=True))
                play_round(t, committed, rand, rounds=first)
                t.refresh_from_db()
                detail = read_everything(bob, t)
                assert detail["status"] == "running"
                assert None in cells(detail)
