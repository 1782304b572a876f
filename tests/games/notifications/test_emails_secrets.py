"""No hidden information in any email: built from the recipient's view alone."""

import random
import re
from datetime import timedelta

import pytest

from games.guildhall.builder import build
from games.models import Game, Move, Seat
from games.notifications import delivery, rows
from games.notifications.models import Notification
from games.play import invitations
from tests.games.helpers import start_game, to_move, wait_version
from tests.games.notifications.helpers import InOrder, play_turn
from tests.games.web.test_board import game_from_state

Kind = Notification.Kind


def position(bob_hand, seed):
    return build(
        players=[
            {"hand": ["red trader", "blue weaver"], "guildhall": ["green farmer"]},
            {"hand": bob_hand, "guildhall": ["yellow dancer"]},
        ],
        discard=["purple historian"],
        seed=seed,
    )


def emails_for(game: Game, user, smtp) -> list[str]:
    """Every kind of game email to ``user`` about ``game``, as sent (text and HTML)."""
    smtp.clear()
    seat = Seat.objects.get(game=game, user=user).number
    since = game.created - timedelta(hours=2)
    game.seats.update(deciding=False, deciding_since=None, wait_version=0)
    game.seats.filter(number=seat).update(deciding=True, deciding_since=since)
    for kind in (Kind.TURN, Kind.REMINDER, Kind.STARTED):
        if kind == Kind.REMINDER:
            user.reminder_after_hours = 1
            user.save()
        row, _ = rows.record(kind, user, game=game, turn=0)
        assert delivery.deliver(row.pk) is delivery.Outcome.SENT, kind
    Game.objects.filter(pk=game.pk).update(status=Game.Status.FINISHED)
    row, _ = rows.record(Kind.FINISHED, user, game=game)
    assert delivery.deliver(row.pk) is delivery.Outcome.SENT
    out = []
    for m in smtp.messages:
        for part in m.walk():
            if part.get_content_maintype() == "text":
                out.append(part.get_content())
    return out


def normalise(text: str, game: Game) -> str:
    text = re.sub(rf"(?<=/games/){game.pk}(?=/)", "N", text)
    text = re.sub(r"/unsubscribe/[^/\s\"]+/", "/unsubscribe/T/", text)
    return re.sub(r"\d+ (minutes?|hours?|days?|weeks?)", "X", text)


class TestSecrets:
    def test_emails_depend_only_on_what_the_player_may_know(self, alice, bob, smtp):
        # Two positions that differ only in secrets (Bob's hand, the deck order, the seed):
        # Alice's emails must be the same, but for the game's number and the signed links.
        one = game_from_state(
            position(["red assassin", "blue assassin"], 1), [alice, bob], seed=111111111111
        )
        two = game_from_state(
            position(["green historian", "purple weaver"], 2), [alice, bob], seed=222222222222
        )
        for game in (one, two):
            Game.objects.filter(pk=game.pk).update(created=one.created)
            game.refresh_from_db()

        first = [normalise(t, one) for t in emails_for(one, alice, smtp)]
        Notification.objects.all().delete()
        second = [normalise(t, two) for t in emails_for(two, alice, smtp)]

        assert len(first) == 8
        assert first == second
        for text in first:
            assert "111111111111" not in text

    def test_a_turn_email_never_names_the_cards_others_drew(
        self, alice, bob, smtp, django_capture_on_commit_callbacks, monkeypatch
    ):
        monkeypatch.setattr(invitations, "seat_random", InOrder())
        game = start_game(alice, bob)
        rand = random.Random(11)
        for _ in range(60):
            game = play_turn(game, rand)
            if to_move(game) != 0 or game.status != Game.Status.PLAYING:
                continue
            # Did Bob draw in the turn that just ended? His cards are secret from Alice.
            since = Move.objects.filter(game=game, seat=0).order_by("-number")[0].number
            draws = [
                c
                for events in Move.objects.filter(game=game, number__gt=since).values_list(
                    "events", flat=True
                )
                for e in events
                if e["type"] == "draw" and e["player"] == 1
                for c in e["cards"]
            ]
            if draws:
                break
        else:
            raise AssertionError("Bob never drew")
        smtp.clear()
        Notification.objects.all().delete()

        row, _ = rows.record(Kind.TURN, alice, game=game, turn=wait_version(game))
        assert delivery.deliver(row.pk) is delivery.Outcome.SENT
        [message] = smtp.messages
        text = message.get_body(preferencelist=("plain",)).get_content()

        lines = [line for line in text.splitlines() if "Bob drew" in line]
        assert lines
        for line in lines:
            assert re.search(r"Bob drew \d+ cards?$", line.strip()), line
        assert str(game.seed) not in text


@pytest.fixture(autouse=True)
def _smtp(smtp):
    return smtp
