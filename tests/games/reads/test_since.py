"""Since you last looked: what the others did since a player's previous look at the board,
on the board, in the turn email and in the push; never a line that player may not read."""

import random

import pytest

from games.models import Game, Move, Seat
from games.play import moves, presence
from games.reads import since, viewing
from games.reads.movelog import describe_move
from tests import mailserver
from tests.conftest import client_for
from tests.games.helpers import deciding, start_game
from tests.games.notifications.helpers import play_turn

pytestmark = pytest.mark.usefixtures("seats_in_order")
smtp = mailserver.smtp  # the fixture


def seat_of(game, user) -> Seat:
    return Seat.objects.select_related("user").get(game=game, user=user)


def step(game: Game, rand: random.Random) -> Game:
    """One random legal decision of one of the seats the game waits for."""
    number = rand.choice(deciding(game))
    state = viewing.game_state(game)
    action = rand.choice(game.game_kind.legal_actions(state, number))
    user = Seat.objects.get(game=game, number=number).user
    return moves.do_submit_action(game.pk, user, action, game.version)


class TestSummary:
    def test_the_others_moves_since_the_last_look_then_nothing(self, alice, bob):
        game = start_game(alice, bob)
        presence.do_look(game.pk, bob)
        game = play_turn(game)  # Alice sets up
        game = play_turn(game)  # Bob sets up: his own moves are not news to him
        game = play_turn(game)  # Alice's first turn

        told = presence.do_look(game.pk, bob)

        assert any(line.startswith("Alice") for line in told.lines)
        assert not any(line.startswith("Bob") for line in told.lines)
        assert not presence.do_look(game.pk, bob)  # nothing since this look

    def test_the_board_loads_it_for_its_players_only(self, alice, bob, charlie):
        game = play_turn(start_game(alice, bob))
        answer = client_for(bob).get(f"/games/{game.pk}/since/", headers={"HX-Request": "true"})
        assert answer.status_code == 200
        assert "Since you last looked" in answer.content.decode()
        assert "Alice" in answer.content.decode()
        assert f'hx-get="/games/{game.pk}/since/"' in (
            client_for(bob).get(f"/games/{game.pk}/").content.decode()
        )
        assert client_for(charlie).get(f"/games/{game.pk}/since/").status_code == 403
        assert client_for(bob).get("/games/999999/since/").status_code == 404

    def test_the_turn_email_says_it(self, alice, bob, smtp, run_hooks):
        game = start_game(alice, bob)
        presence.do_look(game.pk, bob)
        smtp.clear()
        run_hooks(play_turn, game)  # Alice sets up: Bob's turn

        bobs = [m for m in smtp.messages if m["To"] == bob.email]
        assert bobs
        assert "Since you last looked: Alice" in mailserver.text_of(bobs[-1])


class TestNoSecrets:
    @pytest.mark.parametrize("kind", ["guildhall", "renaissance"])
    def test_no_viewer_is_told_a_line_of_anothers(self, kind, alice, bob, charlie):
        """Over random play, each player's summary holds only lines of their own log, and
        none of the lines only another seat may read (there are such lines)."""
        rand = random.Random(7)
        game = start_game(alice, bob, charlie, kind=kind)
        users = [alice, bob, charlie]
        private_seen = 0
        for _round in range(12):
            for _ in range(rand.randint(1, 6)):
                if game.status not in Game.ACTIVE:
                    break
                game = step(game, rand)
            state = viewing.game_state(game)
            records = list(Move.objects.filter(game=game).values_list("events", flat=True))
            lines = {
                viewer: {line for ev in records for line in describe_move(game, state, ev, viewer)}
                for viewer in (0, 1, 2, None)
            }
            for number, user in enumerate(users):
                if rand.random() < 0.5:
                    continue  # this player does not look this time
                told = presence.do_look(game.pk, user)
                others_only = set().union(*(lines[q] for q in (0, 1, 2) if q != number))
                others_only -= lines[number]
                private_seen += len(others_only)
                assert set(told.lines) <= lines[number]
                assert not set(told.lines) & others_only
                sentence = told.sentence(most=len(told.lines))
                assert not any(secret in sentence for secret in others_only)
        assert private_seen  # the check had secrets to find


def test_summary_of_a_player_who_never_looked_names_the_others(alice, bob):
    game = play_turn(start_game(alice, bob))
    found = since.summary(game, seat_of(game, bob))
    assert found.lines and found.sentence().startswith("Alice")


def test_points_gained_and_chat_lines_since_the_last_look(alice, bob):
    from games.community.chat import actions as chat

    game = play_turn(start_game(alice, bob))
    presence.do_look(game.pk, bob)
    # As if Alice had 3 points fewer when Bob looked.
    seat = seat_of(game, bob)
    scores = {q: points - 3 if q == "0" else points for q, points in seat.looked_scores.items()}
    Seat.objects.filter(pk=seat.pk).update(looked_scores=scores)
    chat.do_write(game.pk, alice, "Your move!")
    chat.do_write(game.pk, bob, "Thinking.")  # his own line is no news to him

    told = presence.do_look(game.pk, bob)

    assert told.gains == [("Alice", 3)] and told.chat == 1
    assert told.sentence() == "Alice gained 3 VP; 1 new line in the chat."
