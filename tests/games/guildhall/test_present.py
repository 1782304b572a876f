"""The board's words and places for a Guildhall position (``games.guildhall.present``)."""

from games.guildhall import legal_actions, present
from games.guildhall.views import view

from .helpers import assassin_chooses_a_player


def subject(st, seat: int) -> str | None:
    return present.Board(view(st, seat)).subject()


class TestSubject:
    def test_choosing_the_other_player_keeps_the_first_to_choose_from_in_sight(self):
        # Alice (seat 0) uses the Assassin: Bob and Cleo have a card to lose, Dan none.
        st = assassin_chooses_a_player(
            [
                {"hand": ["red assassin"]},
                {"guildhall": ["blue trader"]},
                {"guildhall": ["green trader"]},
                {},
            ]
        )
        assert [a["player"] for a in legal_actions(st)] == [1, 2]

        assert subject(st, 0) == "player-1"  # not her own guildhall
        assert subject(st, 1) is None  # Bob does not decide

    def test_the_next_at_the_table_comes_first(self):
        # Cleo (seat 2) chooses between Dan (seat 3) and Alice (seat 0): Dan sits next.
        st = assassin_chooses_a_player(
            [
                {"guildhall": ["blue trader"]},
                {},
                {"hand": ["red assassin"]},
                {"guildhall": ["green trader"]},
            ],
            current=2,
        )
        assert [a["player"] for a in legal_actions(st)] == [0, 3]

        assert subject(st, 2) == "player-3"
