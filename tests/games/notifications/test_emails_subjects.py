"""Email subjects name a game by its short title and number, so that two games of the same
players are told apart; nobody hears of what they did themselves, nor of the end of a game
against the computer they are watching (issue 26.8)."""

from django.conf import settings
from django.utils import timezone

from games.models import Game, Seat
from games.notifications import events
from games.notifications.models import Notification
from games.play import invitations, moves
from tests.games.helpers import start_game
from tests.games.notifications.helpers import play_turn

Kind = Notification.Kind


def test_two_games_of_the_same_players_have_two_subjects(
    alice, bob, smtp, run_hooks, seats_in_order
):
    first = run_hooks(start_game, alice, bob)
    second = run_hooks(start_game, alice, bob)
    smtp.clear()

    run_hooks(play_turn, first)
    run_hooks(play_turn, second)

    subjects = sorted(m["Subject"] for m in smtp.messages)
    prefix = f"[{settings.SITE_NAME}] Your turn in Guildhall"
    assert subjects == [
        f"{prefix} #{first.pk} (Alice vs Bob)",
        f"{prefix} #{second.pk} (Alice vs Bob)",
    ]


def test_the_player_who_starts_a_game_hears_nothing_of_its_start(alice, bob, charlie):
    invitation = invitations.do_create_invitation(alice, players=3)
    invitations.do_accept_invitation(invitation.pk, charlie)
    invitations.do_accept_invitation(invitation.pk, bob)  # the last seat: Bob starts it
    game = Game.objects.get(invitation=invitation)

    told = {row.user_id for row, _ in events.started_notifications(game)}
    told |= {row.user_id for row, _ in events.turn_notifications(game)}

    assert told == {alice.pk, charlie.pk}


def test_who_ends_a_game_hears_nothing_of_the_end(alice, bob, charlie):
    game = start_game(alice, bob)
    while game.status == Game.Status.SETUP:
        game = play_turn(game)

    game = moves.do_concede(game.pk, bob)

    assert {row.user_id for row, _ in events.finished_notifications(game)} == {alice.pk}


def test_a_game_against_the_computer_is_not_told_to_its_watching_player(alice):
    invitation = invitations.do_create_invitation(alice, players=2, computers=["normal"])
    game = Game.objects.get(invitation=invitation)
    assert events.started_notifications(game) == []  # she started it
    Game.objects.filter(pk=game.pk).update(status=Game.Status.FINISHED)
    game.refresh_from_db()
    Seat.objects.filter(game=game, user=alice).update(last_seen_at=timezone.now())
    assert events.finished_notifications(game) == []  # she has the board open

    # Away from the board, she hears of its end.
    Seat.objects.filter(game=game, user=alice).update(last_seen_at=None)
    assert {r.user_id for r, _ in events.finished_notifications(game)} == {alice.pk}
