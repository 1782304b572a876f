"""Nobody floods: one player's new games against the computer, invitations, moves and the
emails they cause are limited, on the pages as in the API (issue 31: 200 games against the
strong computer in 6.7 s starved everyone's workers; 100 invitations sent one player 100
emails; 300 posts of the board's form in 11 s met no limit)."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
import time_machine
from django.urls import reverse
from django.utils import timezone

from games.models import Game, Invitation
from games.notifications.models import Notification
from games.play import invitations, moves
from tests import mailserver
from tests.games.api_helpers import Api
from tests.games.helpers import start_game, user_to_move

pytestmark = pytest.mark.usefixtures("seats_in_order")
smtp = mailserver.smtp  # the fixture

COMPUTER_FORM = {
    "game": "guildhall",
    "players": 2,
    "rules": "yucata",
    "setup": "sequential",
    "move_days": 3,
    "computers": 1,
    "computer_level": "strong",
}


def against_the_computer(client):
    return client.post(reverse("games:invitation_new"), COMPUTER_FORM)


class TestGamesAgainstTheComputer:
    def test_so_many_an_hour_from_the_lobby(self, client, alice, settings):
        settings.COMPUTER_GAMES_PER_HOUR = 5
        client.force_login(alice)

        answers = [against_the_computer(client) for _ in range(6)]

        assert [a.status_code for a in answers] == [302] * 5 + [429]
        page = answers[-1].content.decode()
        assert "You have started 5 games against the computer in the last hour" in page
        assert "wait 60 minutes" in page
        assert Game.objects.count() == 5
        # An hour after the first, the next may start.
        with time_machine.travel(timezone.now() + timedelta(minutes=61)):
            assert against_the_computer(client).status_code == 302

    def test_so_many_under_way_at_once(self, client, alice, settings):
        settings.COMPUTER_GAMES_ACTIVE = 3
        client.force_login(alice)
        for _ in range(3):
            assert against_the_computer(client).status_code == 302

        refused = against_the_computer(client)

        assert refused.status_code == 200  # the form, with why
        assert "You have 3 games against the computer under way" in refused.content.decode()
        # One finished (conceded): room for the next.
        moves.do_concede(Game.objects.first().pk, alice)
        assert against_the_computer(client).status_code == 302

    def test_the_api_counts_the_same_games(self, client, alice, settings):
        settings.COMPUTER_GAMES_PER_HOUR = 2
        client.force_login(alice)
        against_the_computer(client)
        api = Api(alice)
        body = {"game": "guildhall", "players": 2, "computers": ["strong"]}

        made = api.post("/api/v1/invitations/", body)
        refused = api.post("/api/v1/invitations/", body)

        assert made.status_code == 201
        assert refused.status_code == 429
        assert refused.json()["code"] == "throttled"
        assert 0 < refused.json()["retry_after"] <= 3600
        assert refused["Retry-After"] == str(refused.json()["retry_after"])
        assert Game.objects.count() == 2

    def test_each_player_has_their_own_count(self, client, alice, bob, settings):
        settings.COMPUTER_GAMES_PER_HOUR = 1
        for person in (alice, bob):
            client.force_login(person)
            assert against_the_computer(client).status_code == 302


class TestInvitations:
    def test_so_many_an_hour_from_the_lobby_and_the_api_together(self, client, alice, settings):
        settings.INVITATIONS_PER_HOUR = 4
        client.force_login(alice)
        form = {
            "game": "guildhall",
            "players": 2,
            "rules": "yucata",
            "setup": "sequential",
            "move_days": 3,
        }
        api = Api(alice)

        pages = [client.post(reverse("games:invitation_new"), form) for _ in range(3)]
        made = api.post("/api/v1/invitations/", {"game": "guildhall", "players": 2})
        refused_page = client.post(reverse("games:invitation_new"), form)
        refused_api = api.post("/api/v1/invitations/", {"game": "guildhall", "players": 2})

        assert [p.status_code for p in pages] == [302] * 3 and made.status_code == 201
        assert refused_page.status_code == 429
        assert "You have made 4 invitations in the last hour" in refused_page.content.decode()
        assert refused_api.status_code == 429
        assert Invitation.objects.filter(creator=alice).count() == 4

    def test_a_player_hears_of_a_few_invitations_a_day_from_one_other(
        self, alice, bob, charlie, settings, smtp, run_hooks
    ):
        settings.INVITATIONS_PER_HOUR = 1000
        for _ in range(20):
            run_hooks(invitations.do_create_invitation, alice, invitees=[bob])
        run_hooks(invitations.do_create_invitation, charlie, invitees=[bob])

        senders = [m["Subject"].split("] ")[1].split(" invites")[0] for m in smtp.messages]
        assert senders == ["Alice"] * settings.INVITATION_EMAILS_PER_DAY + ["charlie"]
        rows = Notification.objects.filter(kind=Notification.Kind.INVITATION, user=bob)
        skipped = rows.filter(status=Notification.Status.SKIPPED)
        assert skipped.count() == 20 - settings.INVITATION_EMAILS_PER_DAY
        assert {row.note for row in skipped} == {"enough invitations from this player today"}
        # The invitations themselves wait in Bob's lobby; a day later Alice is heard again.
        with time_machine.travel(timezone.now() + timedelta(days=1, minutes=1)):
            run_hooks(invitations.do_create_invitation, alice, invitees=[bob])
        assert len(smtp.messages) == settings.INVITATION_EMAILS_PER_DAY + 2


class TestTheBoardsMoves:
    def test_the_board_form_counts_with_the_apis_moves(self, client, alice, bob, settings):
        settings.API_THROTTLE_RATES = {**settings.API_THROTTLE_RATES, "actions": "5/minute"}
        game = start_game(alice, bob)
        player = user_to_move(game)
        client.force_login(player)
        api = Api(player)
        url = reverse("games:board_move", args=[game.pk])
        # A move that is refused (stale) still counts: 300 posts in 11 s met no limit once.
        stale = {"action": json.dumps({"kind": "done"}), "version": game.version + 1}
        api_stale = {"action": {"kind": "done"}, "version": game.version + 1}
        api_url = f"/api/v1/games/{game.pk}/actions/"

        answers = [client.post(url, stale, HTTP_HX_REQUEST="true") for _ in range(3)]
        api_answers = [api.post(api_url, api_stale) for _ in range(2)]
        refused = client.post(url, stale, HTTP_HX_REQUEST="true")
        refused_api = api.post(api_url, api_stale)

        assert all(a.status_code != 429 for a in answers + api_answers)
        assert refused.status_code == 429
        assert "Too many requests: try again in" in refused.content.decode()
        assert 'id="board"' in refused.content.decode()  # the board, with the message
        assert refused_api.status_code == 429
        assert Game.objects.get(pk=game.pk).version == game.version
