"""Reports and moderation (games.community.moderation): anyone reports a chat line they can
read or a profile, with a reason; a moderator (staff, in the admin) hides the text for everyone (its
author is told), warns, suspends for a time or for good (no login, no API, open invitations
withdrawn, the computer plays the seats) or dismisses; every action is logged; a suspension
that ran out is lifted by the sweep."""

from __future__ import annotations

from datetime import timedelta

import pytest
import time_machine
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from accounts.models import User
from games.community.chat import actions as chat
from games.community.chat import reads as chat_reads
from games.community.messages import actions as messages
from games.community.moderation import actions
from games.community.moderation.models import ModerationLog, ModerationNotice, Report, Suspension
from games.models import ChatLine, Game, Invitation, Seat
from games.play import invitations
from games.play.errors import Invalid, NotFound
from tests.conftest import PASSWORD, client_for, make_person
from tests.games.api_helpers import Api
from tests.games.helpers import start_game
from tests.mailserver import text_of

Action = ModerationLog.Action


@pytest.fixture
def moderator(db) -> User:
    return User.objects.create_user(
        "mod", "mod@example.org", PASSWORD, is_staff=True, is_superuser=True
    )


@pytest.fixture
def game(alice, bob) -> Game:
    return start_game(alice, bob)


@pytest.fixture
def rude_line(game, bob) -> ChatLine:
    return chat.do_write(game.pk, bob, "you are all idiots")


class TestReporting:
    def test_a_chat_line_a_reader_can_see(self, rude_line, alice, bob):
        report = actions.do_report(alice, "chat", str(rude_line.pk), "abuse", "  insults  ")

        assert (report.author, report.chat_line, report.text) == (
            bob,
            rude_line,
            "you are all idiots",
        )
        assert report.comment == "insults" and report.status == "open"
        again = actions.do_report(alice, "chat", str(rude_line.pk), "spam")
        assert again.pk == report.pk and Report.objects.count() == 1

    def test_not_a_line_one_cannot_read(self, alice, bob, charlie):
        game = start_game(alice, bob, chat_players_only=True)
        line = chat.do_write(game.pk, bob, "among us")

        with pytest.raises(NotFound):
            actions.do_report(charlie, "chat", str(line.pk), "abuse")
        with pytest.raises(NotFound):
            actions.do_report(alice, "chat", "999999", "abuse")
        assert not Report.objects.exists()

    def test_a_profile(self, alice, bob):
        bob.display_name = "Rude Name"
        bob.save()

        report = actions.do_report(alice, "profile", "bob", "name")

        assert report.author == bob and report.text == "Rude Name (bob)"

    @pytest.mark.parametrize(
        ("kind", "target", "reason", "comment"),
        [
            ("chat", "LINE", "bogus", ""),
            ("chat", "LINE", "abuse", "x" * 501),
            ("chat", "LINE", "abuse", "bell\x07"),
            ("nonsense", "LINE", "abuse", ""),
            ("profile", "alice", "abuse", ""),  # oneself
        ],
    )
    def test_refused_and_nothing_stored(self, rude_line, alice, kind, target, reason, comment):
        target = str(rude_line.pk) if target == "LINE" else target
        with pytest.raises(Invalid):
            actions.do_report(alice, kind, target, reason, comment)
        assert not Report.objects.exists()

    def test_the_page(self, rude_line, alice):
        client = client_for(alice)
        url = f"{reverse('moderation:report')}?chat={rude_line.pk}"
        form = client.get(url)
        assert form.status_code == 200 and "you are all idiots" in form.content.decode()

        sent = client.post(url, {"reason": "abuse", "comment": "please look"})

        assert sent.status_code == 302
        assert Report.objects.get().comment == "please look"
        assert client.post(url, {"reason": "nope"}).status_code == 400
        missing = client.get(f"{reverse('moderation:report')}?chat=424242")
        assert missing.status_code == 404

    def test_the_chat_offers_it_for_others_lines(self, game, rude_line, alice, bob):
        theirs = client_for(alice).get(
            reverse("games:chat", args=[game.pk]), headers={"HX-Request": "true"}
        )
        assert f"?chat={rude_line.pk}" in theirs.content.decode()
        own = client_for(bob).get(
            reverse("games:chat", args=[game.pk]), headers={"HX-Request": "true"}
        )
        assert f"?chat={rude_line.pk}" not in own.content.decode()

    def test_limited_per_user(self, game, alice, bob, settings):
        settings.API_THROTTLE_RATES = {**settings.API_THROTTLE_RATES, "reports": "2/hour"}
        lines = [chat.do_write(game.pk, bob, f"line {n}") for n in range(3)]
        client = client_for(alice)
        answers = [
            client.post(f"{reverse('moderation:report')}?chat={line.pk}", {"reason": "spam"})
            for line in lines
        ]

        assert [a.status_code for a in answers] == [302, 302, 429]
        assert "Too many requests" in answers[2].content.decode()
        assert Report.objects.count() == 2

    def test_limited_per_address(self, game, alice, bob, settings):
        settings.API_THROTTLE_RATES = {**settings.API_THROTTLE_RATES, "reports_address": "1/hour"}
        line = chat.do_write(game.pk, bob, "hm")
        url = f"{reverse('moderation:report')}?chat={line.pk}"
        make_person("eve")

        assert client_for(alice).post(url, {"reason": "spam"}).status_code == 302
        eve = User.objects.get(username="eve")
        assert client_for(eve).post(url, {"reason": "spam"}).status_code == 429


class TestModerating:
    def test_hiding_a_line_hides_it_for_everyone_and_tells_its_author(
        self,
        game,
        rude_line,
        alice,
        bob,
        charlie,
        moderator,
        smtp,
        run_hooks,
    ):
        report = actions.do_report(alice, "chat", str(rude_line.pk), "abuse")
        actions.do_report(charlie, "chat", str(rude_line.pk), "abuse")

        assert run_hooks(actions.hide, moderator, report)

        for reader in (alice, bob, charlie):
            assert chat_reads.read(game, reader).lines == []
        assert set(Report.objects.values_list("status", flat=True)) == {"acted"}
        [notice] = ModerationNotice.objects.filter(user=bob)
        assert "you are all idiots" in notice.text
        [email] = smtp.messages
        assert email["To"] == bob.email and "A moderator hid something you wrote" in text_of(email)
        [entry] = ModerationLog.objects.all()
        assert (entry.moderator, entry.action, entry.user, entry.report) == (
            moderator,
            Action.HIDE,
            bob,
            report,
        )
        assert not actions.hide(moderator, report)  # hidden already: nothing more

    def test_warning(self, rude_line, alice, bob, moderator, smtp, run_hooks):
        report = actions.do_report(alice, "chat", str(rude_line.pk), "abuse")

        run_hooks(actions.warn, moderator, bob, "Be kind.", report)

        assert "Be kind." in text_of(smtp.messages[0])
        assert ModerationLog.objects.get().action == Action.WARN
        page = client_for(bob).get(reverse("moderation:notices")).content.decode()
        assert "Be kind." in page

    def test_suspension_locks_the_account_out_and_the_computer_plays_on(
        self, alice, bob, charlie, moderator
    ):
        game = start_game(alice, bob, charlie)
        mine = invitations.do_create_invitation(bob, players=2)
        theirs = invitations.do_create_invitation(charlie, players=3)
        invitations.do_accept_invitation(theirs.pk, bob)
        api = Api(bob)
        assert api.get("/api/v1/games/").status_code == 200  # the token works
        session = client_for(bob)

        actions.suspend(moderator, bob, timezone.now() + timedelta(days=7), "insults")

        bob.refresh_from_db()
        assert not bob.is_active
        mine.refresh_from_db()
        assert mine.status == Invitation.Status.WITHDRAWN
        assert not theirs.responses.filter(user=bob).exists()
        seat = Seat.objects.get(game=game, user=bob)
        assert seat.abandoned and seat.resigned
        game.refresh_from_db()
        assert game.status in Game.ACTIVE  # three players: Alice and Charlie play on
        # No login, no session, no API.
        assert not Client().login(username="bob", password=PASSWORD)
        assert api.get("/api/v1/games/").status_code == 401
        assert session.get(reverse("games:lobby")).status_code == 302  # logged out
        assert [e.action for e in ModerationLog.objects.all()] == [Action.SUSPEND]

    def test_a_two_player_game_ends_as_for_a_player_who_dropped_out(
        self, game, alice, bob, moderator
    ):
        actions.suspend(moderator, bob, None, "cheating")

        game.refresh_from_db()
        assert game.status == Game.Status.FINISHED

    def test_a_suspension_for_a_time_is_lifted_when_it_runs_out(self, bob, moderator):
        start = timezone.now()
        actions.suspend(moderator, bob, start + timedelta(days=1), "cool off")

        with time_machine.travel(start + timedelta(hours=23), tick=False):
            assert actions.lift_expired() == 0
        with time_machine.travel(start + timedelta(days=1, minutes=1), tick=False):
            assert actions.lift_expired() == 1
        bob.refresh_from_db()
        assert bob.is_active
        assert Client().login(username="bob", password=PASSWORD)
        assert [e.action for e in ModerationLog.objects.order_by("created")] == [
            Action.SUSPEND,
            Action.LIFT,
        ]

    def test_for_good_is_never_lifted_by_the_sweep(self, bob, moderator):
        actions.suspend(moderator, bob, None)

        with time_machine.travel(timezone.now() + timedelta(days=3650), tick=False):
            assert actions.lift_expired() == 0
        bob.refresh_from_db()
        assert not bob.is_active
        assert Suspension.objects.get().lifted is None

    def test_dismissing(self, rude_line, alice, moderator):
        report = actions.do_report(alice, "chat", str(rude_line.pk), "spam")

        actions.dismiss(moderator, report, "banter between friends")

        report.refresh_from_db()
        assert report.status == "dismissed" and report.handled_by == moderator
        assert ModerationLog.objects.get().note == "banter between friends"
        assert not rude_line.__class__.objects.get(pk=rude_line.pk).hidden


class TestTheQueue:
    def test_staff_only(self, alice):
        answer = client_for(alice).get(reverse("admin:moderation_report_changelist"))
        assert answer.status_code == 302  # to the admin's login

    def test_the_report_shows_the_text_in_context_and_acts(self, game, alice, bob, moderator):
        chat.do_write(game.pk, alice, "before it")
        line = chat.do_write(game.pk, bob, "you are all idiots")
        chat.do_write(game.pk, alice, "after it")
        report = actions.do_report(alice, "chat", str(line.pk), "abuse")
        client = client_for(moderator)

        page = client.get(reverse("admin:moderation_report_change", args=[report.pk]))
        body = page.content.decode()
        assert page.status_code == 200
        assert "before it" in body and "you are all idiots" in body and "after it" in body

        listing = reverse("admin:moderation_report_changelist")
        client.post(listing, {"action": "hide_text", "_selected_action": [report.pk]})

        line.refresh_from_db()
        assert line.hidden
        assert ModerationLog.objects.get().moderator == moderator

    def test_the_log_cannot_be_changed(self, moderator):
        client = client_for(moderator)
        assert client.get(reverse("admin:moderation_moderationlog_add")).status_code == 403


def test_a_reported_message_is_shown_in_its_conversation(alice, bob, moderator):
    messages.do_send(bob, alice, "hello there")
    rude = messages.do_send(bob, alice, "you cheat")
    messages.do_send(alice, bob, "please stop")
    report = actions.do_report(alice, "message", str(rude.pk), "abuse")
    assert report.author == bob and report.text == "you cheat"

    page = client_for(moderator).get(reverse("admin:moderation_report_change", args=[report.pk]))

    body = page.content.decode()
    assert "hello there" in body and "you cheat" in body and "please stop" in body
