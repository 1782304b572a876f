"""The site's game pages in German: a player who reads German sees the dashboard, the lobby,
the new-game form, a board, an invitation, the leaderboard, a replay and the move log in
German, with none of the English sentences of the same templates; the site's messages, dates
and times ("seit 3 Tagen", "vor 2 Stunden") are German too. Only after the catalogue is
compiled (bash /tmp/i18n/merge.sh, or django-admin compilemessages)."""

from datetime import UTC, datetime, timedelta

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone, translation

from games.models import Game, Invitation, Seat
from games.play import invitations, vacations
from games.reads.stats import duration_label
from games.templatetags.game_tags import time_since
from games.web.board import game_title, rules_label
from tests.games.helpers import start_game
from tests.games.web.test_replay import finish

pytestmark = pytest.mark.django_db


def german(client: Client, user) -> Client:
    """``client`` logged in as ``user``, who reads German (their preference and browser)."""
    user.language = "de"
    user.save(update_fields=["language"])
    client.force_login(user)
    client.defaults["HTTP_ACCEPT_LANGUAGE"] = "de"
    return client


def page(client: Client, url: str, status: int = 200) -> str:
    response = client.get(url)
    assert response.status_code == status, url
    return response.content.decode()


def check(text: str, german_texts: list[str], english_texts: list[str]) -> None:
    for t in german_texts:
        assert t in text, f"no German {t!r}"
    for t in english_texts:
        assert t not in text, f"English left: {t!r}"


def test_dashboard_in_german(client, alice, bob):
    game = start_game(alice, bob)
    waiting = Seat.objects.get(game=game, deciding=True)
    Seat.objects.filter(pk=waiting.pk).update(deciding_since=timezone.now() - timedelta(days=3))
    finished = start_game(alice, bob)
    Game.objects.filter(pk=finished.pk).update(
        status=Game.Status.FINISHED, finished=datetime(2025, 3, 5, 12, tzinfo=UTC)
    )
    Seat.objects.filter(game=finished, user=alice).update(rank=1, score=21)
    text = page(german(client, alice), reverse("home"))
    check(
        text,
        ["Deine Partien", "Neue Partie", "Gegen den Computer spielen", "Offene Einladungen"],
        ["Your games", "Play against the computer", "Waiting for others", "Open invitations"],
    )
    # Django's durations keep their number and unit together (a no-break space).
    assert "Du bist am Zug, seit 3\xa0Tagen" in text or "Bob am Zug, seit 3\xa0Tagen" in text
    check(
        text,
        [f"Partie {finished.pk}", "mit Bob", "<strong>gewonnen</strong>", "5. Mär 2025"],
        ["<strong>won</strong>", "Mar 2025"],
    )


def test_welcome_in_german(client):
    text = client.get(reverse("home"), HTTP_ACCEPT_LANGUAGE="de").content.decode()
    check(
        text,
        ["Kartenspiele, Zug um Zug", "Die Spiele", "Als Gast spielen"],
        ["one move at a time", "Play as guest", "No email needed"],
    )


def test_lobby_and_invitation_in_german(client, alice, bob, charlie):
    invitation = invitations.do_create_invitation(bob, players=3, move_days=3)
    client = german(client, alice)
    text = page(client, reverse("games:lobby"))
    check(
        text,
        ["Ranglisten:", "Regeln:", "3 Spieler", "3 Tage pro Zug", "Von Bob", "2 Plätze frei"],
        ["Leaderboards:", "per move", "seats left", "Take a seat", "Open invitations"],
    )
    assert "Platz nehmen" in text
    # Taking a seat answers with the invitation's row, in German.
    response = client.post(reverse("games:accept", args=[invitation.pk]), HTTP_HX_REQUEST="true")
    check(response.content.decode(), ["Du hast einen Platz.", "1 Platz frei"], ["You have a seat"])
    Invitation.objects.filter(pk=invitation.pk).update(created=timezone.now() - timedelta(days=2))
    text = page(client, reverse("games:lobby"))
    assert "vor 2\xa0Tagen" in text and " ago" not in text


def test_new_game_form_in_german(client, alice, bob):
    client = german(client, alice)
    text = page(client, reverse("games:invitation_new") + "?game=guildhall")
    check(
        text,
        ["Neue Partie: Guildhall", "Bedenkzeit pro Zug", "Einladen", "Gewertete Partie"],
        ["New game of", "Time per move", "Rated game", "Open the invitation", "Their strength"],
    )
    assert "Einladung eröffnen" in text and "Unbegrenzt" in text and "5 Tage" in text
    response = client.post(
        reverse("games:invitation_new"),
        {"game": "guildhall", "players": 2, "move_days": 3, "invitees": "nobody"},
    )
    check(response.content.decode(), ["Es gibt keinen Spieler namens nobody."], ["No player"])
    choose = page(client, reverse("games:invitation_new"))
    check(choose, ["Welches Spiel?", "Zurück zur Lobby"], ["Which game?", "Back to the lobby"])


def test_board_in_german(client, alice, bob):
    game = start_game(alice, bob)
    text = page(german(client, alice), reverse("games:board", args=[game.pk]))
    check(
        text,
        [" gegen ", "2 Spieler", "Züge"],
        [" vs ", "2 players", "Vote to cancel the game", "all, on a page of their own"],
    )
    check(text, ["Für den Abbruch der Partie stimmen", "Aufgeben…"], ["Concede…"])


def test_refused_move_in_german(client, alice, bob):
    game = start_game(alice, bob)
    client = german(client, alice)
    url = reverse("games:board_move", args=[game.pk])
    response = client.post(url, {"action": "not json", "version": game.version})
    assert response.status_code == 400
    check(response.content.decode(), ["Dieser Zug konnte nicht gelesen werden."], ["could not"])


def test_leaderboard_in_german(client, alice):
    text = page(german(client, alice), reverse("games:leaderboard", args=["guildhall"]))
    check(
        text,
        ["Rangliste: Guildhall", "Es ist noch keine gewertete Partie Guildhall beendet."],
        ["Leaderboard of", "Ratings from rated games", "has finished yet"],
    )


def test_replay_and_log_in_german(client, alice, bob):
    game = finish(start_game(alice, bob))
    client = german(client, alice)
    text = page(client, reverse("games:replay_step", args=[game.pk, 1]))
    check(
        text,
        ["Wiederholung", "Zurück zur Partie", "Alle Hände zeigen", "Zug 1", "Schritt <b>1</b>"],
        ["Back to the game", "Show every hand", "Steps of the replay", "Previous", "Move 1"],
    )
    board = page(client, reverse("games:board", args=[game.pk]))
    check(board, ["Diese Partie wiederholen", "im Lauf der Züge"], ["over the turns", "Replay"])
    log = page(client, reverse("games:log", args=[game.pk]))
    check(log, ["Züge von", "Zurück zum Spielbrett"], ["Moves of", "Back to the board"])
    refused = page(client, reverse("games:replay_step", args=[game.pk, 10_000]), 404)
    check(refused, ["Diese Partie hat keinen Schritt 10000"], ["This game has no step"])


def test_vacation_in_german(client, alice):
    client = german(client, alice)
    response = client.post(reverse("games:vacation_start"), {"days": "3"}, follow=True)
    text = response.content.decode()
    check(text, ["Schönen Urlaub!", "Du bist im Urlaub bis"], ["Enjoy your vacation"])
    vacations.do_stop_vacation(alice)
    text = page(client, reverse("accounts:edit_profile"))
    check(text, ["Verreist du?", "Urlaub jetzt beginnen"], ["Going away?", "Start a vacation"])


def test_python_texts_in_german():
    with translation.override("de"):
        assert game_title(["Ann", "Ben"]) == "Ann gegen Ben"
        assert rules_label(1, "") == "1 Spieler"
        assert duration_label(timedelta(days=2, hours=1)) == "2 Tage 1 Stunde"
        assert time_since(timezone.now() - timedelta(days=3)) == "3\xa0Tagen"
    with translation.override("en"):
        assert game_title(["Ann", "Ben"]) == "Ann vs Ben"
        assert rules_label(2, "Yucata rules") == "2 players, Yucata rules"
        assert time_since(timezone.now() - timedelta(days=3)) == "3\xa0days"


def test_colour_initials_dates_and_the_sites_name_in_german(client, alice, bob, settings):
    """Issue 47: the colours' initials are German (gelb Ge, grün Gr, lila L), a date reads
    "28. Nov., 22:10", and the site's default name is translated (a name the site sets stays)."""
    from games.guildhall.cards import color_letter

    with translation.override("de"):
        assert [color_letter(c) for c in ("red", "blue", "yellow", "green", "purple")] == [
            "R",
            "B",
            "Ge",
            "Gr",
            "L",
        ]
    with translation.override("en"):
        assert color_letter("yellow") == "Y"
    from django.template import engines

    template = engines["django"].from_string('{{ d|date:_("j M, H:i") }}')
    moment = datetime(2026, 11, 28, 22, 10, tzinfo=UTC)
    with translation.override("de"), timezone.override(UTC):
        assert template.render({"d": moment}).strip() == "28. Nov, 22:10"
    game = start_game(alice, bob)
    text = page(german(client, alice), reverse("games:board", args=[game.pk]))
    check(text, ["Kartenspiele per Post"], ["Card games by post"])
    settings.SITE_NAME = "Spieltisch"
    assert "Spieltisch" in page(client, reverse("home"))
