"""The organiser's tools, on the pages and in the API (games.tournaments.organiser): create
(API), edit before the start, cancel, remove a player, enter or correct a result (logged with
its reason, shown on the page), extend a round, a message to every entrant (email and push,
3 a day); blocked players kept apart; the new-tournament form's defaults pass its rules."""

from __future__ import annotations

import random
from datetime import timedelta

import pytest
import time_machine
from django.core import mail
from django.urls import reverse
from django.utils import timezone

from accounts.models import User
from games.community.blocks import actions as blocks
from games.models import Game
from games.tournaments import organiser, services, tasks
from games.tournaments.models import Action, Entry, Notice, Round, Table, Tournament
from tests.conftest import client_for
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


def url(t: Tournament, action: str) -> str:
    return f"/api/v1/tournaments/{t.pk}/{action}/"


class TestCreateAndEdit:
    def test_create_through_the_api(self, alice):
        api = Api(alice)
        body = {
            "name": "Winter open",
            "game": "goofspiel",
            "options": {"cards": 3},
            "format": "league",
            "rounds": 2,
            "starts_at": (timezone.now() + timedelta(days=2)).isoformat(),
        }
        answer = api.post("/api/v1/tournaments/", body)
        assert answer.status_code == 201, answer.content
        assert answer.json()["format"] == "league" and answer.json()["min_players"] == 6
        bad = api.post("/api/v1/tournaments/", {**body, "format": "knockout", "advance": 2})
        assert bad.status_code == 400 and "advance" in bad.json()["fields"]
        assert Tournament.objects.count() == 1

    def test_edit_before_the_start_only(self, alice, bob, committed):
        t = tournament(alice, people(3), rounds=2)
        api = Api(alice)
        answer = api.post(url(t, "edit"), {"name": "Spring open II", "rounds": 3})
        assert answer.status_code == 200 and answer.json()["rounds"] == 3
        assert Api(bob).post(url(t, "edit"), {"rounds": 4}).status_code == 403
        too_small = api.post(url(t, "edit"), {"max_players": 2})
        assert too_small.status_code == 400 and "max_players" in too_small.json()["fields"]
        t.refresh_from_db()
        assert (t.name, t.rounds, t.max_players) == ("Spring open II", 3, 64)
        assert Action.objects.filter(tournament=t, kind="edit").count() == 1
        page = client_for(alice).get(reverse("tournaments:edit", args=[t.pk]))
        assert page.status_code == 200 and "Spring open II" in page.text
        form = page.context["form"]
        data = {"game": "goofspiel"}
        for name, field in form.fields.items():
            value = form[name].value()
            if value is None and getattr(field, "choices", None):
                value = list(field.choices)[0][0]
            if value is not None and value is not False:
                data[name] = value
        data["name"] = "Spring open III"
        saved = client_for(alice).post(reverse("tournaments:edit", args=[t.pk]), data)
        assert saved.status_code == 302
        t.refresh_from_db()
        assert t.name == "Spring open III" and t.rounds == 3
        seeded = client_for(alice).post(
            reverse("tournaments:seed", args=[t.pk]), {"usernames": "p03 p01"}
        )
        assert seeded.status_code == 302
        t.refresh_from_db()
        first = Entry.objects.get(tournament=t, user__username="p03").pk
        assert t.hand_seeds[0] == first
        detail = client_for(alice).get(reverse("tournaments:detail", args=[t.pk]))
        assert "Seed by hand" in detail.text and "Edit the settings" in detail.text
        assert "Seed by hand" not in client_for(bob).get(f"/tournaments/{t.pk}/").text
        with time_machine.travel(timezone.now(), tick=False) as clock:
            start_now(t, committed, clock)
        assert api.post(url(t, "edit"), {"rounds": 4}).status_code == 400

    def test_the_league_form_defaults_pass_its_rules(self, alice):
        client = client_for(alice)
        page = client.get(reverse("tournaments:new") + "?game=goofspiel")
        form = page.context["form"]
        data = {"game": "goofspiel", "name": "Autumn league", "format": "league"}
        for name, field in form.fields.items():
            if name in data:
                continue
            value = form[name].value()
            if value is None and getattr(field, "choices", None):
                value = list(field.choices)[0][0]  # what a browser sends: the first option
            if value is None or value is False:
                continue
            data[name] = value
        answer = client.post(reverse("tournaments:new"), data)
        assert answer.status_code == 302, answer.context["form"].errors
        assert Tournament.objects.get().format == "league"
        # The fields of the other formats are marked for the page's style to hide.
        assert 'data-formats="knockout"' in page.text and 'data-formats="swiss league"' in page.text


class TestDuringPlay:
    def test_cancel_remove_result_extend_and_the_log(self, alice, bob, committed):
        players = people(4, emails=True)
        t = tournament(alice, players, rounds=2, round_days=3)
        client = client_for(alice)
        with time_machine.travel(timezone.now(), tick=False) as clock:
            t = start_now(t, committed, clock)
            r1 = Round.objects.get(tournament=t, number=1)
            first, second = Table.objects.filter(round=r1).order_by("number")
            # Extend the round by 2 days.
            with committed():
                answer = client.post(
                    reverse("tournaments:extend", args=[t.pk]),
                    {"round": r1.pk, "days": "2", "reason": "Holidays"},
                )
            assert answer.status_code == 302
            r1.refresh_from_db()
            assert r1.deadline - r1.started == timedelta(days=5)
            # Enter the first table's result: it is decided, by the organiser.
            names = {e.pk: e.user.username for e in Entry.objects.filter(tournament=t)}
            a, b = first.entries
            with committed():
                api = Api(alice)
                answer = api.post(
                    url(t, "result"),
                    {
                        "round": r1.pk,
                        "table": 1,
                        "places": {names[a]: 2, names[b]: 1},
                        "reason": "Agreed by both",
                    },
                )
            assert answer.status_code == 200, answer.content
            first.refresh_from_db()
            assert first.decided_by == "organiser" and first.places == {str(a): 2, str(b): 1}
            log = answer.json()["log"]
            assert log[0]["action"] == "result" and log[0]["reason"] == "Agreed by both"
            # A bad result is a 400 naming it, nothing changed.
            bad = api.post(
                url(t, "result"),
                {"round": r1.pk, "table": 1, "places": {names[a]: 1}, "reason": "Oops"},
            )
            assert bad.status_code == 400 and "places" in bad.json()["fields"]
            # Someone else may not.
            assert (
                Api(bob)
                .post(url(t, "extend"), {"round": r1.pk, "days": 1, "reason": "Mine"})
                .status_code
                == 403
            )
            # Remove a player of the second table: they concede, the table is decided.
            c, d = second.entries
            with committed():
                answer = client.post(
                    reverse("tournaments:remove", args=[t.pk]),
                    {"username": names[c], "reason": "Cheating"},
                )
            assert Entry.objects.get(pk=c).status == Entry.Status.REMOVED
            assert not Game.objects.filter(pk=second.game_id, status__in=Game.ACTIVE).exists()
            assert Notice.objects.filter(kind="removed", user__username=names[c]).exists()
            # Round 2 is paired without them.
            assert Round.objects.filter(tournament=t, number=2).exists()
            page = client.get(reverse("tournaments:detail", args=[t.pk]))
            assert "Agreed by both" in page.text and "Cheating" in page.text
            assert "Holidays" in page.text
            # Cancel: everyone signed up hears it, with the reason.
            mail.outbox.clear()
            with committed():
                answer = client.post(
                    reverse("tournaments:cancel", args=[t.pk]), {"reason": "Server move"}
                )
            t.refresh_from_db()
            assert t.status == Tournament.Status.CANCELLED
            assert len(mail.outbox) == 4 and all("Server move" in m.body for m in mail.outbox)

    def test_correct_a_result_of_a_finished_swiss(self, alice, committed):
        players = people(4)
        t = tournament(alice, players, rounds=1)
        with time_machine.travel(timezone.now(), tick=False) as clock:
            t = start_now(t, committed, clock)
            play_round(t, committed, random.Random(5))
        t.refresh_from_db()
        assert t.status == Tournament.Status.FINISHED
        winner = t.winner
        table = next(
            tb
            for tb in Table.objects.filter(round__tournament=t)
            if Entry.objects.get(tournament=t, user=winner).pk in tb.entries
        )
        loser = next(p for p in table.entries if Entry.objects.get(pk=p).user_id != winner.pk)
        names = {e.pk: e.user.username for e in Entry.objects.filter(tournament=t)}
        places = {names[p]: (1 if p == loser else 2) for p in table.entries}
        round_id = table.round_id
        organiser.do_set_result(
            t.pk, alice, round_id=round_id, table=table.number, places=places, reason="Appeal"
        )
        t.refresh_from_db()
        assert t.winner != winner
        rows = {r.player: r for r in services.standings(t)}
        old = Entry.objects.get(tournament=t, user=winner).pk
        assert rows[old].points == 0 and rows[loser].points == 1
        assert Action.objects.filter(tournament=t, kind="result", text="Appeal").exists()

    def test_a_knockout_round_that_closed_stays(self, alice, committed):
        t = tournament(alice, people(4), format="knockout", rounds=0)
        with time_machine.travel(timezone.now(), tick=False) as clock:
            t = start_now(t, committed, clock)
            r1 = Round.objects.get(tournament=t, number=1)
            play_round(t, committed, random.Random(6), rounds=[r1.pk])
        table = Table.objects.filter(round=r1).first()
        names = {e.pk: e.user.username for e in Entry.objects.filter(tournament=t)}
        with pytest.raises(Exception) as refused:
            organiser.do_set_result(
                t.pk,
                alice,
                round_id=r1.pk,
                table=table.number,
                places={names[p]: i for i, p in enumerate(table.entries, 1)},
                reason="Too late",
            )
        assert "went on" in str(refused.value)


class TestMessages:
    def test_every_entrant_hears_it_three_a_day(self, alice, committed):
        players = people(3, emails=True)
        t = tournament(alice, players)
        api = Api(alice)
        for i in range(3):
            with committed():
                answer = api.post(url(t, "message"), {"text": f"Welcome, note {i}"})
            assert answer.status_code == 200
        assert len(mail.outbox) == 9
        assert {m.to[0] for m in mail.outbox} == {p.email for p in players}
        assert "Welcome, note 0" in mail.outbox[0].body
        fourth = api.post(url(t, "message"), {"text": "One more"})
        assert fourth.status_code == 429 and int(fourth["Retry-After"]) > 0
        # Messages are not on the public log.
        assert not Api(players[0]).get(f"/api/v1/tournaments/{t.pk}/").json()["log"]


class TestBlocks:
    def test_a_blocked_player_cannot_sign_up_nor_sit_with_them(self, alice, bob, charlie):
        t = tournament(alice, [])
        blocks.do_block(alice, bob)
        with pytest.raises(Exception) as refused:
            services.do_join(t.pk, bob)
        assert "cannot join" in str(refused.value)
        services.do_join(t.pk, charlie)
        dave = people(1, prefix="dave")[0]
        blocks.do_block(dave, charlie)
        answer = Api(dave).post(f"/api/v1/tournaments/{t.pk}/join/", {})
        assert answer.status_code == 403
        assert not Entry.objects.filter(tournament=t, user__in=[bob, dave]).exists()

    def test_a_block_after_sign_up_keeps_a_swiss_pair_apart(self, alice, committed):
        players = people(4)
        t = tournament(alice, players, rounds=1)
        with time_machine.travel(timezone.now(), tick=False) as clock:
            clock.move_to(t.starts_at - timedelta(hours=1))
            # Seeds 1 and 3 would meet (the top half against the bottom half).
            blocks.do_block(players[0], players[2])
            t = start_now(t, committed, clock)
        users = [
            set(User.objects.filter(seats__game=tb.game).values_list("pk", flat=True))
            for tb in Table.objects.filter(round__tournament=t, bye=False)
        ]
        assert {players[0].pk, players[2].pk} not in users


class TestLinks:
    def test_the_site_links_to_tournaments(self, client, alice):
        """The header (every page, phone and desktop alike), the welcome page, the
        dashboard and the lobby link to /tournaments/."""
        link = 'href="/tournaments/"'
        welcome = client.get("/")
        assert welcome.text.count(link) >= 2  # header and the welcome page's buttons
        logged_in = client_for(alice)
        assert logged_in.get("/").text.count(link) >= 2
        assert logged_in.get(reverse("games:lobby")).text.count(link) >= 2
        assert link in logged_in.get(reverse("accounts:edit_profile")).text

    def test_a_block_after_sign_up_keeps_a_knockout_pair_apart(self, alice, committed):
        players = people(4)
        t = tournament(alice, players, format="knockout", rounds=0)
        with time_machine.travel(timezone.now(), tick=False) as clock:
            clock.move_to(t.starts_at - timedelta(hours=1))
            # Seeds 1 and 4 would meet (the best against the worst).
            blocks.do_block(players[3], players[0])
            t = start_now(t, committed, clock)
        users = [
            set(User.objects.filter(seats__game=tb.game).values_list("pk", flat=True))
            for tb in Table.objects.filter(round__tournament=t, bye=False)
        ]
        assert len(users) == 2 and {players[0].pk, players[3].pk} not in users
