"""Issue 44's additions for directors: a double round robin, a sign-up deadline before the
start, late entry to a Swiss, and seeds set by hand."""

from __future__ import annotations

import itertools
import random
from collections import Counter
from datetime import timedelta

import pytest
import time_machine
from django.core.exceptions import PermissionDenied
from django.utils import timezone

from games.models import Seat
from games.tournaments import organiser, services, tasks
from games.tournaments.formats import round_robin
from games.tournaments.models import Entry, Round, Table, Tournament
from tests.games.api_helpers import Api
from tests.games.tournaments.helpers import people, play_round, tournament

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("seats_in_order")]


@pytest.fixture
def committed(django_capture_on_commit_callbacks):
    return lambda: django_capture_on_commit_callbacks(execute=True)


def start_now(t: Tournament, committed, clock) -> Tournament:
    clock.move_to(t.starts_at + timedelta(seconds=1))
    with committed():
        tasks.sweep()
    t.refresh_from_db()
    return t


class TestDoubleRoundRobin:
    def test_the_schedule_twice_with_seats_swapped(self):
        rounds = round_robin.double(round_robin.berger([1, 2, 3, 4]))
        assert len(rounds) == 6
        met = Counter(t for r in rounds for t in r)
        assert all(met[(a, b)] == 1 and met[(b, a)] == 1 for a, b in met)

    def test_everyone_meets_everyone_twice_once_first_each(self, alice, committed):
        players = people(4)
        t = tournament(
            alice, players, format="double_robin", rounds=0, max_players=24, min_players=2
        )
        rand = random.Random(8)
        with time_machine.travel(timezone.now(), tick=False) as clock:
            t = start_now(t, committed, clock)
            assert t.rounds == 6
            for _ in range(6):
                play_round(t, committed, rand)
                t.refresh_from_db()
        assert t.status == Tournament.Status.FINISHED
        firsts: Counter = Counter()
        for table in Table.objects.filter(round__tournament=t):
            seats = list(Seat.objects.filter(game=table.game).order_by("number"))
            firsts[(seats[0].user_id, seats[1].user_id)] += 1
        for a, b in itertools.combinations([p.pk for p in players], 2):
            assert firsts[(a, b)] == 1 and firsts[(b, a)] == 1


class TestDoubleElimination:
    def test_tables_of_two_only_and_out_at_the_second_loss(self, alice, committed):
        from games.play import errors

        with pytest.raises(errors.Invalid):
            tournament(alice, [], format="double_elim", table_size=3, min_players=3)
        players = people(6)
        t = tournament(alice, players, format="double_elim", rounds=0)
        rand = random.Random(10)
        with time_machine.travel(timezone.now(), tick=False) as clock:
            t = start_now(t, committed, clock)
            for _ in range(11):
                play_round(t, committed, rand)
                t.refresh_from_db()
                if t.status == Tournament.Status.FINISHED:
                    break
        assert t.status == Tournament.Status.FINISHED
        lost = services.losses(t)
        winner = Entry.objects.get(tournament=t, user=t.winner)
        assert lost.get(winner.pk, 0) <= 1
        assert sorted(lost.get(e, 0) for e in lost if e != winner.pk) == [2] * 5
        assert Round.objects.filter(tournament=t).count() <= 11


class TestSignUpDeadline:
    def test_sign_up_closes_before_the_start(self, alice, bob, committed):
        now = timezone.now()
        t = tournament(
            alice,
            people(3),
            starts_at=now + timedelta(days=3),
            signup_until=now + timedelta(days=1),
        )
        with time_machine.travel(now + timedelta(days=2), tick=False):
            with pytest.raises(PermissionDenied):
                services.do_join(t.pk, bob)
        assert not Entry.objects.filter(tournament=t, user=bob).exists()
        late = Api(alice).post(
            "/api/v1/tournaments/",
            {
                "name": "Late",
                "game": "goofspiel",
                "rounds": 2,
                "starts_at": (now + timedelta(days=1)).isoformat(),
                "signup_until": (now + timedelta(days=2)).isoformat(),
            },
        )
        assert late.status_code == 400 and "signup_until" in late.json()["fields"]


class TestLateEntry:
    def test_a_late_entrant_plays_from_the_next_round(self, alice, committed):
        players = people(4)
        t = tournament(alice, players, rounds=3)
        late, too_late = people(2, prefix="late")
        rand = random.Random(9)
        with time_machine.travel(timezone.now(), tick=False) as clock:
            t = start_now(t, committed, clock)
            services.do_join(t.pk, late)
            entry = Entry.objects.get(tournament=t, user=late)
            assert entry.seed == 5
            play_round(t, committed, rand, rounds=[Round.objects.get(tournament=t, number=1).pk])
            second = Table.objects.filter(round__tournament=t, round__number=2)
            assert any(entry.pk in tb.entries for tb in second)
            # Nothing for round 1 (its points are round 2's bye, if they have it).
            row = {r.player: r for r in services.standings(t)}[entry.pk]
            assert row.played == 0 and row.points == row.byes
            play_round(t, committed, rand, rounds=[Round.objects.get(tournament=t, number=2).pk])
            assert Round.objects.filter(tournament=t, number=3).exists()
            with pytest.raises(PermissionDenied):
                services.do_join(t.pk, too_late)  # the last round is paired


class TestSeedsByHand:
    def test_the_organisers_order_then_ratings(self, alice, bob, committed):
        players = people(4)
        t = tournament(alice, players, rounds=1)
        names = [players[3].username, players[1].username]
        organiser.do_seed(t.pk, alice, names)
        assert (
            Api(bob).post(f"/api/v1/tournaments/{t.pk}/seed/", {"usernames": names}).status_code
            == 403
        )
        bad = Api(alice).post(f"/api/v1/tournaments/{t.pk}/seed/", {"usernames": ["nobody"]})
        assert bad.status_code == 400 and "usernames" in bad.json()["fields"]
        with time_machine.travel(timezone.now(), tick=False) as clock:
            t = start_now(t, committed, clock)
        seeds = dict(Entry.objects.filter(tournament=t).values_list("user_id", "seed"))
        assert seeds[players[3].pk] == 1 and seeds[players[1].pk] == 2
        assert {seeds[players[0].pk], seeds[players[2].pk]} == {3, 4}
