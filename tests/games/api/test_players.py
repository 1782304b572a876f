"""What a player does on the site beside moves, through the API (issue 48): cancel votes,
rematch, stand-ins, vacations, quiet hours, reports and the settings page's preferences.
Each with bad input (400, nothing changed) and someone without a seat (403) or nothing
there (404); every answer is checked against the schema (tests/conftest.py)."""

from __future__ import annotations

from datetime import timedelta

from django.utils import timezone

from accounts.models import User
from games.community.moderation.models import Report
from games.models import ChatLine, Game, Invitation, Seat, Vacation
from tests.games.api_helpers import Api, game_url
from tests.games.helpers import start_game


def _finished(game: Game) -> Game:
    Game.objects.filter(pk=game.pk).update(status=Game.Status.FINISHED, finished=timezone.now())
    return Game.objects.get(pk=game.pk)


class TestCancelVote:
    def test_every_player_agreeing_cancels_the_game(self, alice, bob):
        game = start_game(alice, bob)

        first = Api(alice).post(game_url(game.pk, "cancel-vote"), {"vote": True})
        assert first.status_code == 200
        assert first.json()["status"] != "cancelled"
        votes = {p["username"]: p["cancel_vote"] for p in first.json()["players"]}
        assert votes == {"alice": True, "bob": False}
        second = Api(bob).post(game_url(game.pk, "cancel-vote"), {})

        assert second.status_code == 200 and second.json()["status"] == "cancelled"

    def test_a_vote_is_taken_back(self, alice, bob):
        game = start_game(alice, bob)
        api = Api(alice)
        api.post(game_url(game.pk, "cancel-vote"), {"vote": True})

        answer = api.post(game_url(game.pk, "cancel-vote"), {"vote": False})

        assert answer.status_code == 200
        assert not Seat.objects.get(game=game, user=alice).cancel_vote

    def test_bad_input_and_outsiders_change_nothing(self, alice, bob, charlie):
        game = start_game(alice, bob)

        bad = Api(alice).post(game_url(game.pk, "cancel-vote"), {"vote": "yes"})
        outsider = Api(charlie).post(game_url(game.pk, "cancel-vote"), {"vote": True})
        nowhere = Api(alice).post(game_url(999_999, "cancel-vote"), {"vote": True})

        assert bad.status_code == 400 and bad.json()["fields"]["vote"]
        assert outsider.status_code == 403 and outsider.json()["code"] == "permission_denied"
        assert nowhere.status_code == 404
        assert not Seat.objects.filter(game=game, cancel_vote=True).exists()

    def test_a_finished_game_takes_no_vote(self, alice, bob):
        game = _finished(start_game(alice, bob))

        answer = Api(alice).post(game_url(game.pk, "cancel-vote"), {"vote": True})

        assert answer.status_code == 400 and answer.json()["rule"] == "game_over"


class TestRematch:
    def test_a_finished_game_is_offered_again_to_the_same_people(self, alice, bob):
        game = _finished(start_game(alice, bob, kind="renaissance"))

        answer = Api(bob).post(game_url(game.pk, "rematch"))

        assert answer.status_code == 201
        data = answer.json()
        assert data["kind"] == "renaissance" and data["creator"]["username"] == "bob"
        assert [u["username"] for u in data["invitees"]] == ["alice"]

    def test_a_game_going_on_or_someone_elses_has_none(self, alice, bob, charlie):
        game = start_game(alice, bob)

        going_on = Api(alice).post(game_url(game.pk, "rematch"))
        _finished(game)
        outsider = Api(charlie).post(game_url(game.pk, "rematch"))
        nowhere = Api(alice).post(game_url(999_999, "rematch"))

        assert going_on.status_code == 400
        assert outsider.status_code == 403 and outsider.json()["code"] == "permission_denied"
        assert nowhere.status_code == 404
        assert Invitation.objects.count() == 1  # the first game's


class TestStandIn:
    def test_the_computer_stands_in_and_is_taken_back(self, alice, bob):
        game = start_game(alice, bob, move_days=3)
        api = Api(alice)

        started = api.put(game_url(game.pk, "stand-in"), {"level": "easy"})
        assert started.status_code == 200 and started.json() == {"level": "easy", "until": None}
        shown = api.get(game_url(game.pk))
        assert {p["username"]: p["stand_in"] for p in shown.json()["players"]} == {
            "alice": True,
            "bob": False,
        }
        stopped = api.delete(game_url(game.pk, "stand-in"))
        again = api.delete(game_url(game.pk, "stand-in"))

        assert stopped.status_code == 204
        assert again.status_code == 404
        assert Seat.objects.get(game=game, user=alice).stand_in == ""

    def test_bad_input_and_outsiders_change_nothing(self, alice, bob, charlie):
        game = start_game(alice, bob)

        bad = Api(alice).put(game_url(game.pk, "stand-in"), {"level": "godlike"})
        not_text = Api(alice).put(game_url(game.pk, "stand-in"), {"level": 3})
        outsider = Api(charlie).put(game_url(game.pk, "stand-in"), {"level": "easy"})
        outsider_stop = Api(charlie).delete(game_url(game.pk, "stand-in"))

        assert bad.status_code == 400 and not_text.status_code == 400
        assert outsider.status_code == 403 and outsider_stop.status_code == 403
        assert not Seat.objects.exclude(stand_in="").exists()

    def test_everywhere_until_a_day(self, alice, bob, charlie):
        first, second = start_game(alice, bob), start_game(alice, charlie, kind="renaissance")
        api = Api(alice)
        day = (timezone.now() + timedelta(days=5)).date().isoformat()

        started = api.put("/api/v1/me/stand-in/", {"level": "normal", "until": day})
        assert started.status_code == 200
        assert sorted(started.json()["games"]) == sorted([first.pk, second.pk])
        assert api.get("/api/v1/me/stand-in/").json()["level"] == "normal"
        stopped = api.delete("/api/v1/me/stand-in/")

        assert stopped.status_code == 200 and stopped.json() == {"taken_back": 2}
        assert api.get("/api/v1/me/stand-in/").json() == {"level": "", "until": None}

    def test_everywhere_refuses_a_bad_day_or_strength(self, alice, bob):
        start_game(alice, bob)
        api = Api(alice)
        far = (timezone.now() + timedelta(days=90)).date().isoformat()
        past = (timezone.now() - timedelta(days=2)).date().isoformat()

        for body in (
            {"level": "normal", "until": far},
            {"level": "normal", "until": past},
            {"level": "normal", "until": "tomorrow"},
            {"level": "godlike", "until": past},
            {"level": "normal"},
        ):
            assert api.put("/api/v1/me/stand-in/", body).status_code == 400, body
        assert not Seat.objects.exclude(stand_in="").exists()
        assert User.objects.get(pk=alice.pk).stand_in_level == ""


class TestVacation:
    def test_a_vacation_starts_and_ends(self, alice):
        api = Api(alice)
        before = api.get("/api/v1/me/vacation/").json()
        assert before["start"] is None and before["days_left"] > 0

        started = api.post("/api/v1/me/vacation/", {"days": 3})
        assert started.status_code == 201 and started.json()["end"] is not None
        twice = api.post("/api/v1/me/vacation/", {"days": 3})
        stopped = api.delete("/api/v1/me/vacation/")
        again = api.delete("/api/v1/me/vacation/")

        assert twice.status_code == 400
        assert stopped.status_code == 200 and stopped.json()["start"] is None
        assert again.status_code == 404

    def test_bad_days_change_nothing(self, alice):
        api = Api(alice)

        for days in (0, -1, 10_000, "3", 2.5, None):
            assert api.post("/api/v1/me/vacation/", {"days": days}).status_code == 400, days
        assert not Vacation.objects.exists()


class TestQuietHours:
    def test_set_read_and_turned_off(self, alice):
        api = Api(alice)

        set_ = api.put("/api/v1/me/quiet-hours/", {"start": 23, "end": 7})
        assert set_.status_code == 200 and set_.json() == {"start": 23, "end": 7}
        assert api.get("/api/v1/me/quiet-hours/").json() == {"start": 23, "end": 7}
        changed_again = api.put("/api/v1/me/quiet-hours/", {"start": 22, "end": 6})
        off = api.put("/api/v1/me/quiet-hours/", {"start": None, "end": None})

        assert changed_again.status_code == 429 and changed_again["Retry-After"]
        assert off.status_code == 200 and off.json() == {"start": None, "end": None}

    def test_bad_hours_change_nothing(self, alice):
        api = Api(alice)

        for body in (
            {"start": 23, "end": None},
            {"start": 8, "end": 20},  # twelve hours
            {"start": 24, "end": 7},
            {"start": "23", "end": 7},
            {},
        ):
            assert api.put("/api/v1/me/quiet-hours/", body).status_code == 400, body
        assert User.objects.get(pk=alice.pk).quiet_from is None


class TestReport:
    def test_a_chat_line_is_reported_once(self, alice, bob):
        game = start_game(alice, bob)
        line = Api(bob).post(game_url(game.pk, "chat"), {"text": "you cheat"}).json()
        api = Api(alice)
        body = {"kind": "chat", "target": str(line["id"]), "reason": "abuse"}

        first = api.post("/api/v1/reports/", body)
        again = api.post("/api/v1/reports/", body | {"comment": "again"})

        assert first.status_code == again.status_code == 201
        assert first.json()["id"] == again.json()["id"]
        report = Report.objects.get()
        assert report.author == bob and report.chat_line_id == line["id"]

    def test_a_profile_is_reported(self, alice, bob):
        answer = Api(alice).post(
            "/api/v1/reports/", {"kind": "profile", "target": "bob", "reason": "name"}
        )

        assert answer.status_code == 201 and answer.json()["status"] == "open"

    def test_what_cannot_be_reported_changes_nothing(self, alice, bob, charlie):
        game = start_game(alice, bob, chat_players_only=True)
        line = ChatLine.objects.create(game=game, author=bob, text="hi", version=game.version)
        api = Api(charlie)

        unreadable = api.post(
            "/api/v1/reports/", {"kind": "chat", "target": str(line.pk), "reason": "spam"}
        )
        nobody = api.post(
            "/api/v1/reports/", {"kind": "profile", "target": "nobody", "reason": "spam"}
        )
        myself = api.post(
            "/api/v1/reports/", {"kind": "profile", "target": "charlie", "reason": "spam"}
        )
        bad_reason = api.post(
            "/api/v1/reports/", {"kind": "profile", "target": "bob", "reason": "ugly"}
        )
        long_comment = api.post(
            "/api/v1/reports/",
            {"kind": "profile", "target": "bob", "reason": "spam", "comment": "x" * 501},
        )

        assert unreadable.status_code == nobody.status_code == 404
        assert myself.status_code == bad_reason.status_code == long_comment.status_code == 400
        assert not Report.objects.exists()


class TestPreferences:
    def test_the_settings_pages_fields_are_changed(self, alice):
        api = Api(alice)

        answer = api.patch(
            "/api/v1/me/preferences/",
            {"display_name": "Alice B.", "chat_emails": False, "weekly_reminders": False},
        )

        assert answer.status_code == 200
        alice.refresh_from_db()
        assert alice.display_name == "Alice B." and not alice.chat_emails
        assert not alice.weekly_reminders and alice.message_emails

    def test_bad_values_change_nothing(self, alice):
        api = Api(alice)

        assert api.patch("/api/v1/me/preferences/", {"chat_emails": "no"}).status_code == 400
        assert api.patch("/api/v1/me/preferences/", {"display_name": "x" * 51}).status_code == 400
        alice.refresh_from_db()
        assert alice.chat_emails and alice.display_name == "Alice"
