"""Helpers for the games tests: start games through the services, play them by the engine."""

import random
import re

from games.models import Game, Seat
from games.play import invitations, moves, timeouts
from games.reads import viewing

# The arguments of invitations.do_create_invitation besides the game's own options.
INVITATION_FIELDS = {"kind", "move_days", "invitees", "chat_players_only"}


def start_game(creator, *others, **options) -> Game:
    """A game started from an invitation of ``creator`` accepted by ``others``. Keyword
    arguments are ``kind``, ``move_days`` and the game's options (``rules="classic"``)."""
    fields = {k: v for k, v in options.items() if k in INVITATION_FIELDS}
    game_options = {k: v for k, v in options.items() if k not in INVITATION_FIELDS}
    if fields.get("kind", "guildhall") == "guildhall":
        # These tests follow one seat at a time (``to_move``): Guildhall's setup in turn,
        # unless a test asks for the simultaneous setup (the site's default).
        game_options.setdefault("setup", "sequential")
    invitation = invitations.do_create_invitation(
        creator, players=1 + len(others), options=game_options, **fields
    )
    for user in others:
        invitations.do_accept_invitation(invitation.pk, user)
    invitation.refresh_from_db()
    return invitation.game


def deciding(game: Game) -> list[int]:
    """The seats the game waits for, as stored."""
    return list(
        Seat.objects.filter(game=game, deciding=True)
        .order_by("number")
        .values_list("number", flat=True)
    )


def to_move(game: Game) -> int | None:
    """The one seat a one-decider game (Guildhall) waits for; None when none."""
    seats = deciding(game)
    assert len(seats) <= 1, f"several seats decide: {seats}"
    return seats[0] if seats else None


def seat_to_move(game: Game) -> Seat:
    return Seat.objects.get(game=game, number=to_move(game))


def user_to_move(game: Game):
    return seat_to_move(game).user


def random_action(game: Game, rand: random.Random, seat: int | None = None) -> dict:
    """A random legal action of ``seat`` (by default the one seat to move)."""
    state = viewing.game_state(game)
    seat = to_move(game) if seat is None else seat
    actions = game.game_kind.legal_actions(state, seat)
    return (
        rand.choice(actions)
        if game.kind != "guildhall"
        else _guildhall_choice(state, rand, actions)
    )


def _guildhall_choice(state, rand, actions):
    # Guildhall's random player leans toward ending the game (else random games run long).
    from games.guildhall.random_player import choose

    return choose(state, rand, actions)


def play_one(game: Game, rand: random.Random) -> Game:
    """The player to move makes a random legal move."""
    action = random_action(game, rand)
    return moves.do_submit_action(game.pk, user_to_move(game), action, game.version)


def play_until(game: Game, rand: random.Random, done, limit: int = 5000) -> Game:
    """Random moves until ``done(game)``."""
    for _ in range(limit):
        if done(game):
            return game
        game = play_one(game, rand)
    raise AssertionError("the game did not get there")


def frozen(game: Game) -> tuple:
    """What must not change when a submission is refused."""
    game = Game.objects.get(pk=game.pk)
    seats = tuple(
        Seat.objects.filter(game=game)
        .order_by("number")
        .values_list("deciding", "deciding_since", "deadline", "decision_version")
    )
    return (game.version, game.snapshot, seats, game.status, game.moves.count())


def wait_version(game: Game) -> int:
    """The version at which the one seat to move began its wait (it keys its emails)."""
    return seat_to_move(game).wait_version


def deadline_of(game: Game):
    """The deadline of the one seat to move."""
    return seat_to_move(game).deadline


def time_out(game: Game, now=None):
    """``timeouts.do_time_out`` for the one seat to move, in its current wait."""
    return timeouts.do_time_out(game.pk, to_move(game), wait_version(game), now)


# A game's short title and number in an email's subject ("Guildhall #12 (Alice vs Bob)";
# in German "Guildhall Nr. 12 (Alice gegen Bob)").
_SUBJECT_TITLE = re.compile(r"(?:Renaissance Man|\w+) (?:#|Nr\. )\d+ \(([^()]*)\)")


def players_only(subject: str) -> str:
    """``subject`` with each game named by its players alone, as subjects named games before
    they had a number: "Your turn in Alice vs Bob" (the whole subject is checked by
    tests/games/notifications/test_emails_subjects.py)."""
    return _SUBJECT_TITLE.sub(r"\1", subject)
