"""Every kind of email speaks the recipient's language: German subject and body (text and
HTML) for a player whose language is German, and English for an English player.

(The game's own words in an email, its prompt or a log line, are the game's to translate:
these tests look at the email's own sentences.) Run ``bash /tmp/i18n/merge.sh`` (or compile
the catalogue) first: the German comes from locale/de.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
import time_machine
from django.conf import settings
from django.core.mail import EmailMultiAlternatives

from games.models import Game
from games.notifications import emails, rows
from games.notifications.models import Notification
from games.play import invitations, moves
from tests.games.helpers import deadline_of, players_only, start_game, wait_version
from tests.games.notifications.helpers import play_turn

Kind = Notification.Kind
T0 = datetime(2027, 3, 1, 12, 0, tzinfo=UTC)  # a Monday

# In every email, whatever its kind.
ENGLISH_FRAME = ["Hello ", "Your email settings", "with one click", "Stop "]
GERMAN_FRAME_TEXT = ["Hallo ", "Deine E-Mail-Einstellungen:", "Mit einem Klick abbestellen"]
GERMAN_FRAME_HTML = ["Hallo ", "Deine E-Mail-Einstellungen", "Abbestellen: "]


pytestmark = pytest.mark.usefixtures("seats_in_order")


@pytest.fixture
def clock():
    with time_machine.travel(T0, tick=False) as traveller:
        yield traveller


def email(kind, user, now, **row) -> tuple[str, str, str]:
    """Subject, text and HTML of the email of this notification, as prepared at ``now``."""
    notification, _ = rows.record(kind, user, **row)
    with time_machine.travel(now, tick=False):
        message = emails.prepare(notification, now)
    assert isinstance(message, EmailMultiAlternatives), message
    [(html, mimetype)] = message.alternatives
    assert mimetype == "text/html"
    subject = message.subject.removeprefix(settings.ACCOUNT_EMAIL_SUBJECT_PREFIX)
    return players_only(subject), message.body, html


# Each kind: how to make it (it returns the recipient and the email), and what it says in
# English and in German: the subject, then (English, German) pairs found in both parts, in the
# text only and in the HTML only. None: nothing to look for in that language.
def turn(alice, bob, charlie):
    game = play_turn(start_game(alice, bob, move_days=3))  # Alice set up: Bob's turn
    return bob, email(Kind.TURN, bob, T0, game=game, turn=wait_version(game))


def started(alice, bob, charlie):
    game = start_game(alice, bob, move_days=3)
    return bob, email(Kind.STARTED, bob, T0, game=game)


def finished(alice, bob, charlie):
    game = start_game(alice, bob, move_days=3)
    while game.status == Game.Status.SETUP:
        game = play_turn(game)
    moves.do_concede(game.pk, bob)
    return bob, email(Kind.FINISHED, bob, T0, game=Game.objects.get(pk=game.pk))


def invitation(alice, bob, charlie):
    invited = invitations.do_create_invitation(
        alice, players=3, invitees=[bob, charlie], move_days=2
    )
    return bob, email(Kind.INVITATION, bob, T0, invitation=invited)


def reminder(alice, bob, charlie):
    alice.reminder_after_hours = 12
    alice.save()
    game = start_game(alice, bob, move_days=3)
    now = T0 + timedelta(hours=13)
    return alice, email(Kind.REMINDER, alice, now, game=game, turn=wait_version(game))


def weekly(alice, bob, charlie):
    game = start_game(alice, bob)
    now = T0 + timedelta(days=14)
    return alice, email(Kind.WEEKLY, alice, now, game=game, turn=wait_version(game), number=2)


def deadline_24h(alice, bob, charlie):
    game = start_game(alice, bob, move_days=3)
    now = deadline_of(game) - timedelta(hours=23)
    return alice, email(Kind.DEADLINE_24H, alice, now, game=game, turn=wait_version(game))


def deadline_1h(alice, bob, charlie):
    game = start_game(alice, bob, move_days=3)
    now = deadline_of(game) - timedelta(minutes=50)
    return alice, email(Kind.DEADLINE_1H, alice, now, game=game, turn=wait_version(game))


def abandoned(alice, bob, charlie):
    game = start_game(alice, bob, charlie, move_days=3)
    return alice, email(Kind.ABANDONED, alice, T0, game=game, number=1)  # Bob dropped out


def digest(alice, bob, charlie):
    alice.turn_emails = "daily_digest"
    alice.save()
    start_game(alice, bob)
    start_game(alice, charlie, move_days=2)
    return alice, email(Kind.DIGEST, alice, T0, turn=T0.date().toordinal())


KINDS = {
    "turn": (
        turn,
        {
            "subject": ("Your turn in Alice vs Bob", "Du bist am Zug in Alice gegen Bob"),
            "both": [
                ("It is your turn in", "Du bist am Zug in"),
                ("Your time to move runs out on", "Deine Bedenkzeit läuft am"),
                ("(you)", "(du)"),
            ],
            "text": [("Scores:", "Punktestand:"), ("Play your move:", "Zug machen:")],
            "html": [("Play your move", "Zug machen")],
        },
    ),
    "started": (
        started,
        {
            "subject": (
                "Your game Alice vs Bob has started",
                "Deine Partie Alice gegen Bob hat begonnen",
            ),
            "both": [
                ("with Alice has started.", "mit Alice hat begonnen."),
                ("Seats, in playing order:", "Plätze in Spielreihenfolge:"),
                ("Each player has 3 days per move.", "Jeder Spieler hat 3 Tage pro Zug."),
                ("Alice begins; we will tell you", "Alice beginnt; wir sagen dir Bescheid"),
            ],
            "text": [("The game:", "Zur Partie:")],
            "html": [("Open the game", "Partie öffnen")],
        },
    ),
    "finished": (
        finished,
        {
            "subject": (
                "Game over: Alice vs Bob (you finished 2nd)",
                "Partie beendet: Alice gegen Bob (du bist 2. geworden)",
            ),
            "both": [("is over", "ist beendet"), ("(resigned)", "(aufgegeben)")],
            "text": [("Ranking:", "Ergebnis:"), ("you finished 2nd.", "Du bist 2. geworden.")],
            "html": [
                (">Rank<", ">Platz<"),
                (">Player<", ">Spieler<"),
                ("See the game", "Partie ansehen"),
                ("you finished <b>2nd</b>", "Du bist <b>2.</b> geworden"),
            ],
        },
    ),
    "invitation": (
        invitation,
        {
            "subject": (
                "Alice invites you to a 3-player game of Guildhall",
                "Alice lädt dich zu einer Partie Guildhall für 3 Spieler ein",
            ),
            "both": [
                ("2 days per move", "2 Tage pro Zug"),
                ("Also invited: charlie.", "Ebenfalls eingeladen: charlie."),
            ],
            "text": [("Accept or decline in the lobby:", "In der Lobby annehmen oder ablehnen:")],
            "html": [("Answer in the lobby", "In der Lobby antworten")],
        },
    ),
    "reminder": (
        reminder,
        {
            "subject": (
                "Reminder: Alice vs Bob is waiting for you",
                "Erinnerung: Alice gegen Bob wartet auf dich",
            ),
            "both": [
                (
                    "has been waiting for your move since Monday 1 March, 12:00",
                    "wartet seit Montag, 1. März, 12:00 Uhr auf deinen Zug",
                ),
                ("Your time to move runs out on", "Deine Bedenkzeit läuft am"),
                ("from now", "(noch "),
            ],
            "text": [("Play your move:", "Zug machen:")],
            "html": [],
        },
    ),
    "weekly": (
        weekly,
        {
            "subject": (
                "Alice vs Bob has waited for you for 2 weeks",
                "Alice gegen Bob wartet seit 2 Wochen auf dich",
            ),
            "both": [
                ("for 2 weeks, since Monday 1 March.", "schon 2 Wochen auf deinen Zug"),
                (None, "seit Montag, 1. März."),
                ("so the others wait for you", "also warten die anderen auf dich"),
                ("you can concede on the game's page", "auf der Seite der Partie aufgeben"),
            ],
            "text": [],
            "html": [],
        },
    ),
    "deadline_24h": (
        deadline_24h,
        {
            "subject": (
                "24 hours left to move in Alice vs Bob",
                "Noch 24 Stunden für deinen Zug in Alice gegen Bob",
            ),
            "both": [
                ("your time runs out on Thursday 4 March, 12:00", "am Donnerstag, 4. März"),
                ("the computer plays your turn for you", "spielt der Computer deinen Zug"),
            ],
            "text": [("Only 24 hours left", "Nur noch 24 Stunden")],
            "html": [("Only <b>24 hours</b> left", "Nur noch <b>24 Stunden</b>")],
        },
    ),
    "deadline_1h": (
        deadline_1h,
        {
            "subject": (
                "1 hour left to move in Alice vs Bob",
                "Noch 1 Stunde für deinen Zug in Alice gegen Bob",
            ),
            "both": [("the computer plays your turn for you", "spielt der Computer deinen Zug")],
            "text": [("Only 1 hour left", "Nur noch 1 Stunde für")],
            "html": [("Only <b>1 hour</b> left", "Nur noch <b>1 Stunde</b>")],
        },
    ),
    "abandoned": (
        abandoned,
        {
            "subject": ("Bob dropped out of Alice vs Bob vs charlie", "Bob ist aus Alice gegen"),
            "both": [
                ("Bob let their time run out three turns in a row", "dreimal in Folge"),
                ("The computer plays for Bob from now on", "Ab jetzt spielt der Computer für Bob"),
                ("It is your turn:", "Du bist am Zug:"),
            ],
            "text": [],
            "html": [],
        },
    ),
    "digest": (
        digest,
        {
            "subject": (
                "2 games are waiting for your move",
                "2 Partien warten auf deinen Zug",
            ),
            "both": [
                ("waiting since Monday 1 March, 12:00", "wartet seit Montag, 1. März, 12:00 Uhr"),
                ("time runs out Wednesday 3 March", "Bedenkzeit endet am Mittwoch, 3. März"),
            ],
            "text": [("All your games:", "Alle deine Partien:")],
            "html": [("All your games", "Alle deine Partien")],
        },
    ),
}


@pytest.mark.parametrize("kind", KINDS)
def test_a_german_player_gets_it_in_german(kind, clock, alice, bob, charlie):
    make, says = KINDS[kind]
    for person in (alice, bob, charlie):
        person.language = "de"
        person.save()

    _, (subject, text, html) = make(alice, bob, charlie)

    english_subject, german_subject = says["subject"]
    assert german_subject in subject
    assert english_subject not in subject
    for part, body, frame in (("text", text, GERMAN_FRAME_TEXT), ("html", html, GERMAN_FRAME_HTML)):
        for english, german in says["both"] + says[part]:
            assert german in body, (part, german)
            if english is not None:
                assert english not in body, (part, english)
        for german in frame:
            assert german in body, (part, german)
        for english in ENGLISH_FRAME:
            assert english not in body, (part, english)
    assert '<html lang="de">' in html


@pytest.mark.parametrize("kind", KINDS)
def test_an_english_player_still_gets_it_in_english(kind, clock, alice, bob, charlie):
    make, says = KINDS[kind]
    for person in (alice, bob, charlie):
        person.language = "en"
        person.save()

    _, (subject, text, html) = make(alice, bob, charlie)

    english_subject, german_subject = says["subject"]
    assert subject.startswith(english_subject)
    for part, body in (("text", text), ("html", html)):
        for english, _german in says["both"] + says[part]:
            if english is not None:
                assert english in body, (part, english)
        assert "Hello " in body
    assert "Hallo" not in text and "Deine" not in text


def test_places_are_ordinals_in_each_language():
    from django.utils import translation

    with translation.override("en"):
        assert [emails.ordinal(n) for n in (1, 2, 3, 4, 11, 12, 13, 21, 22, 101)] == [
            "1st",
            "2nd",
            "3rd",
            "4th",
            "11th",
            "12th",
            "13th",
            "21st",
            "22nd",
            "101st",
        ]
    with translation.override("de"):
        assert [emails.ordinal(n) for n in (1, 2, 11, 23)] == ["1.", "2.", "11.", "23."]


def test_the_unsubscribe_pages_speak_the_browsers_language(alice):
    from django.test import Client

    from games.notifications import preferences

    token = preferences.unsubscribe_token(alice, preferences.REMINDERS)
    client = Client(HTTP_ACCEPT_LANGUAGE="de")

    page = client.get(f"/emails/unsubscribe/{token}/").content.decode()
    assert "Diese E-Mails abbestellen?" in page
    assert "Erinnerungen an Partien, die auf dich warten" in page
    assert "Stop these emails?" not in page and "reminders about games" not in page

    done = client.post(f"/emails/unsubscribe/{token}/").content.decode()
    assert "Abbestellt" in done and "Unsubscribed" not in done

    invalid = client.get("/emails/unsubscribe/nonsense/").content.decode()
    assert "Dieser Link funktioniert nicht" in invalid and "does not work" not in invalid
