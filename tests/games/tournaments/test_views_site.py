"""The tournaments' pages, API, rules of joining, the deadline's adjudication, a knockout, a
cancelled tournament and the dashboard's names (games.tournaments: views, api, services)."""

from __future__ import annotations

import random
from datetime import timedelta

import pytest
import time_machine
from django.urls import reverse
from django.utils import timezone

from games.community.friends import actions as friends
from games.models import Game, Seat
from games.play import moves
from games.tournaments import services, tasks
from games.tournaments.formats import knockout
from games.tournaments.models import Entry, Notice, Round, Table, Tournament
from tests.games.api_helpers import Api
from tests.games.tournaments.helpers import people, play_round, tournament

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("seats_in_order")]


@pytest.fixture
def committed(django_capture_on_commit_callbacks):
    return lambda: django_capture_on_commit_callbacks(execute=True)


def start_now(t, committed, clock):
    clock.move_to(t.starts_at + timedelta(seconds=1))
    with committed():
        tasks.sweep()
    t.refresh_from_db()
    return t


class TestCreating:
    def test_the_form_creates_a_tournament(self, client, alice):
        client.force_login(alice)
        assert client.get(reverse("tournaments:new")).status_code == 200
        page = client.get(reverse("tournaments:new") + "?game=goofspiel")
        assert page.status_code == 200 and "option_cards" in page.content.decode()
        when = (timezone.localtime() + timedelta(days=2)).strftime("%Y-%m-%dT%H:%M")
        answer = client.post(
            reverse("tournaments:new"),
            {
                "game": "goofspiel",
                "name": "Winter cup",
                "format": "swiss",
                "table_size": 2,
                "rounds": 3,
                "move_days": 2,
                "round_days": 10,
                "rated": "on",
                "starts_at": when,
                "min_players": 4,
                "max_players": 16,
                "access": "anyone",
                "option_cards": 5,
            },
        )
        t = Tournament.objects.get()
        assert answer.status_code == 302 and answer["Location"] == reverse(
            "tournaments:detail", args=[t.pk]
        )
        assert (t.name, t.kind, t.options, t.rounds, t.move_days) == (
            "Winter cup",
            "goofspiel",
            {"cards": 5},
            3,
            2,
        )

    @pytest.mark.parametrize(
        ("field", "value", "message"),
        [
            ("table_size", 4, None),  # fine for Goofspiel
            ("rounds", 0, "A Swiss has 1 to 15 rounds."),
            ("round_days", 1, "A round must last at least as long as the time per move."),
            ("max_players", 600, "Between 2 and 512 players"),
            ("option_cards", 99, None),
        ],
    )
    def test_bad_input_is_a_400_naming_it_and_creates_nothing(
        self, client, alice, field, value, message
    ):
        client.force_login(alice)
        when = (timezone.localtime() + timedelta(days=2)).strftime("%Y-%m-%dT%H:%M")
        data = {
            "game": "goofspiel",
            "name": "Cup",
            "format": "swiss",
            "table_size": 2,
            "rounds": 3,
            "move_days": 2,
            "round_days": 10,
            "starts_at": when,
            "min_players": 4,
            "max_players": 16,
            "access": "anyone",
            "option_cards": 5,
        }
        data[field] = value
        answer = client.post(reverse("tournaments:new"), data)
        if field == "table_size":
            assert answer.status_code == 302
            return
        assert answer.status_code == 400
        assert Tournament.objects.count() == 0
        if message:
            assert message in answer.content.decode()

    def test_an_unknown_game_is_a_400(self, client, alice):
        client.force_login(alice)
        assert client.get(reverse("tournaments:new") + "?game=chess").status_code == 400

    def test_a_start_in_the_past_is_refused(self, alice):
        with pytest.raises(services.errors.Invalid):
            tournament(alice, [], starts_at=timezone.now() - timedelta(hours=1))


class TestJoining:
    def test_sign_up_and_leave_from_the_page(self, client, alice, bob):
        t = tournament(alice, [])
        client.force_login(bob)
        page = client.get(reverse("tournaments:detail", args=[t.pk]))
        assert "Sign up" in page.content.decode()
        client.post(reverse("tournaments:join", args=[t.pk]))
        assert Entry.objects.get(tournament=t).user == bob
        page = client.get(reverse("tournaments:detail", args=[t.pk]))
        assert "You are playing." in page.content.decode()
        client.post(reverse("tournaments:leave", args=[t.pk]))
        assert not Entry.objects.filter(tournament=t).exists()

    def test_friends_only(self, client, alice, bob, charlie):
        t = tournament(alice, [], access="friends")
        with pytest.raises(services.PermissionDenied):
            services.do_join(t.pk, bob)
        friends.do_add_friend(alice, bob)
        services.do_join(t.pk, bob)
        client.force_login(charlie)
        answer = client.post(reverse("tournaments:join", args=[t.pk]), follow=True)
        assert "Only the organiser&#x27;s friends may join" in answer.content.decode()
        assert Entry.objects.filter(tournament=t).count() == 1

    def test_invitation_code(self, client, alice, bob):
        t = tournament(alice, [], access="code")
        assert len(t.code) >= 8
        with pytest.raises(services.PermissionDenied):
            services.do_join(t.pk, bob, code="wrong")
        services.do_join(t.pk, bob, code=t.code)
        # The code is shown to the organiser alone.
        client.force_login(bob)
        assert t.code not in client.get(reverse("tournaments:detail", args=[t.pk])).content.decode()
        client.force_login(alice)
        assert t.code in client.get(reverse("tournaments:detail", args=[t.pk])).content.decode()

    def test_full_and_twice(self, alice, bob, charlie):
        t = tournament(alice, [bob, charlie], min_players=2, max_players=2)
        with pytest.raises(services.ValidationError, match="signed up already"):
            services.do_join(t.pk, bob)
        with pytest.raises(services.ValidationError, match="full"):
            services.do_join(t.pk, alice)

    def test_joining_a_missing_tournament_is_a_404(self, client, bob):
        client.force_login(bob)
        assert client.post(reverse("tournaments:join", args=[999])).status_code == 404
        assert client.get(reverse("tournaments:detail", args=[999])).status_code == 404


class TestRunning:
    def test_too_few_players_cancel_it_with_a_notice(self, alice, committed, mailoutbox):
        players = people(2, emails=True)
        t = tournament(alice, players, min_players=4)
        with time_machine.travel(timezone.now(), tick=False) as clock:
            t = start_now(t, committed, clock)
        assert t.status == Tournament.Status.CANCELLED
        assert Game.objects.count() == 0
        assert {m.to[0] for m in mailoutbox if "was cancelled" in m.subject} == {
            u.email for u in players
        }

    def test_a_game_running_at_the_deadline_is_decided_by_its_scores(self, alice, committed):
        players = people(4)
        t = tournament(alice, players, rounds=2, move_days=None, round_days=3)
        rand = random.Random(1)
        with time_machine.travel(timezone.now(), tick=False) as clock:
            t = start_now(t, committed, clock)
            games = list(Game.objects.filter(tournament_table__round__number=1).order_by("pk"))
            # The first game ends; in the second, one bid round is played, then nobody moves.
            r1 = Round.objects.get(tournament=t, number=1)
            play_round(
                t,
                committed,
                rand,
                rounds=[r1.pk],
                absent=set(games[1].seats.values_list("user_id", flat=True)),
            )
            second = games[1]
            for seat in Seat.objects.filter(game=second).order_by("number"):
                second.refresh_from_db()
                state = second.game_kind.from_json(second.snapshot)
                with committed():
                    moves.do_submit_action(
                        second.pk,
                        seat.user,
                        second.game_kind.choose(state, seat.number, rand),
                        second.version,
                    )
            assert not Round.objects.filter(tournament=t, number=2).exists()
            clock.shift(timedelta(days=3, seconds=1))
            with committed():
                tasks.sweep()
        table = Table.objects.get(game=second)
        assert table.decided and table.decided_by == "deadline"
        view = second.game_kind.view(second.game_kind.from_json(second.snapshot), None)
        scores = second.game_kind.scores(view)
        by_entry = dict(Entry.objects.filter(tournament=t).values_list("user_id", "pk"))
        for seat in Seat.objects.filter(game=second):
            others = [s for n, s in scores.items() if n != seat.number]
            expected = 1 if scores[seat.number] >= others[0] else 2
            assert table.places[str(by_entry[seat.user_id])] == expected
        # The game goes on outside the tournament; round 2 is paired.
        second.refresh_from_db()
        assert second.is_active
        assert Round.objects.filter(tournament=t, number=2).count() == 1

    def test_a_knockout_of_five(self, alice, committed):
        players = people(5, emails=True)
        t = tournament(alice, players, format="knockout", rounds=0)
        rand = random.Random(3)
        with time_machine.travel(timezone.now(), tick=False) as clock:
            t = start_now(t, committed, clock)
            assert t.rounds == 3
            first = Table.objects.filter(round__tournament=t, round__number=1)
            # A standard bracket: the byes in round 1, to the best seeds; then 4, then 2.
            assert sorted(len(tb.entries) for tb in first) == [1, 1, 1, 2]
            assert sorted(entry_seed(tb) for tb in first if tb.bye) == [1, 2, 3]
            for _ in range(6):
                play_round(t, committed, rand)
                t.refresh_from_db()
                if t.status == Tournament.Status.FINISHED:
                    break
        assert t.status == Tournament.Status.FINISHED
        final = Round.objects.filter(tournament=t).order_by("-number").first()
        table = final.tables.get()
        assert len(table.entries) == 2
        winner = (
            next(int(p) for p, place in table.places.items() if place == 1)
            if len({v for v in table.places.values()}) == 2
            else min(table.entries, key=lambda p: Entry.objects.get(pk=p).seed)
        )
        assert t.winner_id == Entry.objects.get(pk=winner).user_id
        assert Entry.objects.filter(tournament=t, status="out").count() == 4
        assert Notice.objects.filter(tournament=t, kind="out").count() >= 3
        assert Notice.objects.filter(tournament=t, kind="advanced").exists()
        assert services.standings(t)[0].player == winner


@pytest.mark.parametrize(("n", "size", "advance"), [(6, 3, 2), (5, 4, 1), (6, 4, 3), (7, 4, 2)])
def test_knockouts_that_never_started_run_to_their_end(alice, committed, n, size, advance):
    """Issue 44: 6 at tables of 3 with 2 going on counted its rounds for ever; at tables of
    4 with 2 going on, 2 players left were dealt two byes again and again."""
    t = tournament(
        alice,
        people(n),
        format="knockout",
        rounds=0,
        table_size=size,
        advance=advance,
        min_players=size,
    )
    rand = random.Random(n)
    with time_machine.travel(timezone.now(), tick=False) as clock:
        t = start_now(t, committed, clock)
        assert t.rounds == len(knockout.plan(n, size, advance))
        for _ in range(t.rounds + 1):
            play_round(t, committed, rand)
            t.refresh_from_db()
            if t.status == Tournament.Status.FINISHED:
                break
    assert t.status == Tournament.Status.FINISHED and t.winner is not None
    last = Round.objects.filter(tournament=t).order_by("-number").first()
    assert last.number <= t.rounds
    assert [tb.bye for tb in last.tables.all()] == [False]  # the final is a game


def entry_seed(table: Table) -> int:
    return Entry.objects.get(pk=table.entries[0]).seed


class TestApi:
    def test_list_detail_standings_join_and_leave(self, alice, bob, committed):
        players = people(4)
        t = tournament(alice, players, rounds=1)
        api = Api(bob)
        rows = api.get("/api/v1/tournaments/").json()["results"]
        assert [(r["id"], r["players"], r["joined"]) for r in rows] == [(t.pk, 4, False)]
        assert api.get("/api/v1/tournaments/", status="signup").json()["count"] == 1
        assert api.get("/api/v1/tournaments/", status="running").json()["count"] == 0
        answer = api.post(f"/api/v1/tournaments/{t.pk}/join/", {})
        assert answer.status_code == 200 and answer.json()["joined"] is True
        again = api.post(f"/api/v1/tournaments/{t.pk}/join/", {})
        assert again.status_code == 400 and again.json()["code"] == "invalid"
        assert api.post(f"/api/v1/tournaments/{t.pk}/leave/").json()["joined"] is False
        api.post(f"/api/v1/tournaments/{t.pk}/join/", {})
        with time_machine.travel(timezone.now(), tick=False) as clock:
            start_now(t, committed, clock)
            play_round(t, committed, random.Random(2))
        detail = api.get(f"/api/v1/tournaments/{t.pk}/").json()
        assert detail["status"] == "finished" and detail["winner"]
        assert detail["stages"][0]["standings"][0]["username"] == detail["winner"]
        assert len(detail["rounds_played"][0]["tables"]) == 3  # 5 players: 2 games and a bye
        standings = api.get(f"/api/v1/tournaments/{t.pk}/standings/").json()
        assert standings == detail["stages"]
        assert "code" not in detail

    @pytest.mark.parametrize(
        ("path", "status"),
        [
            ("/api/v1/tournaments/999/", 404),
            ("/api/v1/tournaments/999/standings/", 404),
            ("/api/v1/tournaments/?status=nonsense", 400),
        ],
    )
    def test_bad_requests(self, bob, path, status):
        answer = Api(bob).get(path)
        assert answer.status_code == status and "message" in answer.json()

    def test_joining_refused(self, alice, bob):
        t = tournament(alice, [], access="code")
        api = Api(bob)
        assert api.post(f"/api/v1/tournaments/{t.pk}/join/", {"code": "x"}).status_code == 403
        assert api.post(f"/api/v1/tournaments/{t.pk}/join/", {"code": 5}).status_code == 400
        assert api.post("/api/v1/tournaments/999/join/", {}).status_code == 404
        assert api.post(f"/api/v1/tournaments/{t.pk}/leave/").status_code == 400
        assert not Entry.objects.exists()
        ok = api.post(f"/api/v1/tournaments/{t.pk}/join/", {"code": t.code})
        assert ok.status_code == 200


class TestDashboard:
    def test_tournament_games_show_their_tournament(self, client, alice, committed):
        players = people(2)
        t = tournament(alice, players, rounds=1, name="Autumn open")
        with time_machine.travel(timezone.now(), tick=False) as clock:
            start_now(t, committed, clock)
            client.force_login(players[0])
            page = client.get(reverse("home")).content.decode()
        assert "Autumn open" in page
        assert reverse("tournaments:detail", args=[t.pk]) in page

    def test_the_list_and_the_page_show_the_standings(self, client, alice, committed):
        players = people(3)
        t = tournament(alice, players, rounds=2, name="Night cup")
        with time_machine.travel(timezone.now(), tick=False) as clock:
            start_now(t, committed, clock)
            play_round(t, committed, random.Random(1))
        t.refresh_from_db()
        assert t.status == "finished"
        assert "Night cup" in client.get(reverse("tournaments:list")).content.decode()
        page = client.get(reverse("tournaments:detail", args=[t.pk])).content.decode()
        assert "Winner:" in page and t.winner.name in page
        assert "Buch." in page and "R2" in page
