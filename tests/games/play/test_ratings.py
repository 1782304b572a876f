"""Ratings (games.play.ratings): updates as openskill computes them, what is rated, the recompute
command, the leaderboard page and API, the profile, and the invitation's rated flag."""

import io
import random
import re

import pytest
from django.core.management import CommandError, call_command
from django.db.models import F
from django.urls import reverse
from django.utils import timezone
from openskill.models import PlackettLuce

from accounts.models import User
from games.core import registry
from games.models import Game, Invitation, Rating, RatingChange, Seat
from games.play import cancel_votes, invitations, moves, ratings
from games.web.forms import InvitationForm
from tests.conftest import make_person
from tests.games.api_helpers import Api
from tests.games.helpers import play_until, start_game

# The expected numbers come from openskill itself, from its default priors: not from
# games.play.ratings, whose use of it is what is tested.
openskill = PlackettLuce()


def past_setup(game: Game) -> Game:
    """Random moves until the setup is over (a game ended during its setup is not rated)."""
    return play_until(game, random.Random(game.pk), lambda g: g.status == Game.Status.PLAYING)


def finish(game: Game, *losers) -> Game:
    """``losers`` concede in this order once the setup is over: the first ranks last, and
    the one left wins."""
    game = past_setup(game)
    for user in losers:
        game = moves.do_concede(game.pk, user)
    assert game.status == Game.Status.FINISHED
    return game


def rating_of(user, kind: str = "guildhall") -> Rating:
    return Rating.objects.get(user=user, kind=kind)


def assert_rating(user, expected, games: int) -> None:
    row = rating_of(user)
    assert row.mu == pytest.approx(expected.mu, abs=1e-12)
    assert row.sigma == pytest.approx(expected.sigma, abs=1e-12)
    assert row.games == games
    assert row.rating == round((expected.mu - 3 * expected.sigma) * 40 + 1000)


def seats_by_number(game: Game) -> list[Seat]:
    return list(Seat.objects.filter(game=game).select_related("user").order_by("number"))


class TestRatingUpdates:
    def test_a_two_player_game_rates_both_players_as_openskill_does(self, alice, bob):
        game = finish(start_game(alice, bob), bob)

        [[winner], [loser]] = openskill.rate(
            [[openskill.rating()], [openskill.rating()]], ranks=[1, 2]
        )
        assert_rating(alice, winner, games=1)
        assert_rating(bob, loser, games=1)
        assert rating_of(alice).rating > 1000 > rating_of(bob).rating
        change = RatingChange.objects.get(game=game, user=bob)
        assert (change.rank, change.rating_before, change.rating_after) == (
            2,
            1000,
            rating_of(bob).rating,
        )
        assert change.mu_after == rating_of(bob).mu

        # The next game starts from these ratings.
        finish(start_game(alice, bob), alice)
        [[bob_2], [alice_2]] = openskill.rate([[loser], [winner]], ranks=[1, 2])
        assert_rating(alice, alice_2, games=2)
        assert_rating(bob, bob_2, games=2)

    def test_a_four_player_game_ranks_by_the_engines_result(self, db):
        people = [make_person(name) for name in ("ann", "ben", "cat", "dan")]
        # Resigned seats rank last, the first to resign lowest: dan, then cat, then ben.
        game = finish(start_game(*people), people[3], people[2], people[1])

        seats = seats_by_number(game)
        by_user = {s.user.username: s.rank for s in seats}
        assert by_user == {"ann": 1, "ben": 2, "cat": 3, "dan": 4}
        expected = openskill.rate([[openskill.rating()] for _ in seats], [s.rank for s in seats])
        for seat, [new] in zip(seats, expected, strict=True):
            assert_rating(seat.user, new, games=1)

    def test_a_tie_shares_the_place(self, db):
        people = [make_person(name) for name in ("ann", "ben", "cat", "dan")]
        game = past_setup(start_game(*people))
        # The engines rarely tie by chance: these ranks are what a result with a tie
        # for second gives, stored as games.play.change.Change.save stores a result.
        ranks = [2, 1, 4, 2]
        for number, rank in enumerate(ranks):
            Seat.objects.filter(game=game, number=number).update(rank=rank)
        Game.objects.filter(pk=game.pk).update(status=Game.Status.FINISHED, finished=timezone.now())

        changes = ratings.rate_finished_game(Game.objects.get(pk=game.pk))

        assert len(changes) == 4
        seats = seats_by_number(game)
        expected = openskill.rate([[openskill.rating()] for _ in seats], ranks=ranks)
        for seat, [new] in zip(seats, expected, strict=True):
            assert_rating(seat.user, new, games=1)
        # Equal places from equal ratings: equal ratings after.
        assert rating_of(seats[0].user).mu == rating_of(seats[3].user).mu
        assert rating_of(seats[1].user).rating > rating_of(seats[0].user).rating

    def test_a_rating_is_provisional_for_its_first_games(self):
        assert ratings.PROVISIONAL_GAMES == 10
        assert ratings.is_provisional(9)
        assert not ratings.is_provisional(10)

    def test_a_new_player_shows_a_thousand(self):
        assert ratings.shown(openskill.mu, openskill.sigma) == 1000


class TestUnratedGames:
    def assert_unrated(self, game: Game) -> None:
        game.refresh_from_db()
        assert game.status == Game.Status.FINISHED or game.status == Game.Status.CANCELLED
        assert not Rating.objects.exists()
        assert not RatingChange.objects.exists()

    def test_a_game_with_a_computer_seat_is_not_rated(self, alice):
        invitation = invitations.do_create_invitation(
            alice, players=2, computers=["easy"], rated=True, options={"setup": "sequential"}
        )
        assert not invitation.rated
        game = invitation.game
        assert not game.rated

        game = past_setup(game)
        moves.do_concede(game.pk, alice)
        self.assert_unrated(game)

    def test_a_game_cancelled_by_vote_is_not_rated(self, alice, bob):
        game = past_setup(start_game(alice, bob))
        assert game.rated
        cancel_votes.do_vote_cancel(game.pk, alice)
        game = cancel_votes.do_vote_cancel(game.pk, bob)

        assert game.status == Game.Status.CANCELLED
        self.assert_unrated(game)

    def test_a_game_ended_during_its_setup_is_not_rated(self, alice, bob):
        game = start_game(alice, bob)
        assert game.status == Game.Status.SETUP and game.rated

        game = moves.do_concede(game.pk, alice)

        assert game.status == Game.Status.FINISHED
        assert not Game.objects.get(pk=game.pk).rated
        self.assert_unrated(game)

    def test_an_unrated_invitation_makes_an_unrated_game(self, alice, bob):
        invitation = invitations.do_create_invitation(
            alice, players=2, rated=False, options={"setup": "sequential"}
        )
        invitations.do_accept_invitation(invitation.pk, bob)
        invitation.refresh_from_db()

        game = finish(invitation.game, bob)

        assert not game.rated
        self.assert_unrated(game)

    def test_a_one_player_game_is_not_rated(self, alice):
        invitation = invitations.do_create_invitation(alice, kind="renaissance", players=1)
        assert not invitation.rated and not invitation.game.rated


class TestRecompute:
    @pytest.fixture
    def played(self, alice, bob, charlie):
        finish(start_game(alice, bob), bob)
        finish(start_game(alice, bob, charlie), alice, charlie)
        finish(start_game(charlie, bob), bob)
        assert Rating.objects.count() == 3

    @staticmethod
    def stored() -> tuple[list, list]:
        rows = list(
            Rating.objects.order_by("user_id", "kind").values_list(
                "user_id", "kind", "mu", "sigma", "games", "rating"
            )
        )
        changes = list(
            RatingChange.objects.order_by("game_id", "user_id").values_list(
                "game_id",
                "user_id",
                "rank",
                "mu_before",
                "sigma_before",
                "mu_after",
                "sigma_after",
                "rating_before",
                "rating_after",
            )
        )
        return rows, changes

    def test_it_finds_the_numbers_of_the_incremental_updates(self, played):
        before_rows, before_changes = self.stored()

        call_command("recompute_ratings", stdout=io.StringIO(), stderr=io.StringIO())

        after_rows, after_changes = self.stored()
        assert len(after_rows) == len(before_rows) == 3
        assert len(after_changes) == len(before_changes) == 7
        for old, new in zip(before_rows + before_changes, after_rows + after_changes, strict=True):
            assert old[:2] == new[:2]
            assert new == pytest.approx(old, abs=ratings.TOLERANCE)

    def test_check_exits_0_when_every_rating_agrees(self, played, capsys):
        call_command("recompute_ratings", "--check")

        assert "Checked 3 ratings: 0 differ." in capsys.readouterr().out

    def test_check_names_a_tampered_rating_and_changes_nothing(self, played, bob, capsys):
        Rating.objects.filter(user=bob).update(mu=F("mu") + 1e-6)
        tampered = self.stored()

        with pytest.raises(CommandError) as error:
            call_command("recompute_ratings", "--check")

        assert error.value.returncode == 1
        assert "1 differ" in str(error.value)
        assert capsys.readouterr().err.strip() == "bob at guildhall: the stored rating differs"
        assert self.stored() == tampered

        call_command("recompute_ratings", stdout=io.StringIO())
        call_command("recompute_ratings", "--check", stdout=io.StringIO())

    def test_check_finds_a_missing_rating(self, played, charlie):
        Rating.objects.filter(user=charlie).delete()

        with pytest.raises(CommandError):
            call_command("recompute_ratings", "--check", stderr=io.StringIO())

    def test_games_are_applied_in_finishing_order(self, played, alice, bob):
        # Swap the finishing times of the first two games: recomputing follows Game.finished,
        # so the same games give other numbers.
        first, second = Game.objects.order_by("finished")[:2]
        Game.objects.filter(pk=first.pk).update(finished=second.finished)
        Game.objects.filter(pk=second.pk).update(finished=first.finished)

        with pytest.raises(CommandError):
            call_command("recompute_ratings", "--check", stderr=io.StringIO())


def rate(user, kind: str, mu: float, sigma: float, games: int) -> Rating:
    return Rating.objects.create(
        user=user, kind=kind, mu=mu, sigma=sigma, games=games, rating=ratings.shown(mu, sigma)
    )


CELL = re.compile(r"<td>(.*?)</td>", re.S)


def table_rows(page: str) -> list[list[str]]:
    """The leaderboard's rows, each cell's text."""
    body = page.split("<tbody>")[1].split("</tbody>")[0]
    return [
        [
            " ".join(re.sub(r"<[^>]+>", "", cell).split())
            for cell in re.findall(r"<td>(.*?)</td>", row, re.S)
        ]
        for row in body.split("</tr>")
        if "<td>" in row
    ]


class TestLeaderboardPage:
    def test_established_players_come_first_best_first_then_provisional(self, client, db):
        rate(make_person("steady"), "guildhall", 30, 2, games=40)  # 1960
        rate(make_person("newcomer"), "guildhall", 40, 3, games=3)  # 2240, provisional
        rate(make_person("strong"), "guildhall", 35, 2, games=12)  # 2160
        rate(make_person("elsewhere"), "renaissance", 50, 1, games=50)

        page = client.get(reverse("games:leaderboard", args=["guildhall"])).content.decode()

        assert table_rows(page) == [
            ["1", "strong", "2160", "12"],
            ["2", "steady", "1960", "40"],
            ["3", "newcomer", "2240 (p)", "3"],
        ]

    def test_it_is_paginated_by_fifty(self, client, db):
        users = User.objects.bulk_create(User(username=f"player{i:02}") for i in range(51))
        for i, user in enumerate(users):
            rate(user, "guildhall", 20 + i / 10, 2, games=10)

        first = client.get(reverse("games:leaderboard", args=["guildhall"])).content.decode()
        second = client.get(
            reverse("games:leaderboard", args=["guildhall"]) + "?page=2"
        ).content.decode()

        assert len(table_rows(first)) == 50
        assert table_rows(first)[0][:2] == ["1", "player50"]
        assert table_rows(second) == [["51", "player00", str(ratings.shown(20, 2)), "10"]]
        assert "Page 2 of 2" in second
        # A page that does not exist shows the nearest one, never an error.
        for page in ("x", "99"):
            url = reverse("games:leaderboard", args=["guildhall"]) + f"?page={page}"
            assert client.get(url).status_code == 200

    def test_an_unknown_game_is_not_found(self, client, db):
        assert client.get("/leaderboard/chess/").status_code == 404

    def test_the_lobby_links_to_every_games_leaderboard(self, client, alice):
        client.force_login(alice)
        page = client.get(reverse("games:lobby")).content.decode()

        for game in registry.all_games():
            assert reverse("games:leaderboard", args=[game.id]) in page

    def test_the_profile_shows_the_rating_and_its_history(self, client, alice, bob):
        game = finish(start_game(alice, bob), bob)

        page = client.get(reverse("games:profile", args=["alice"])).content.decode()

        section = page.split('id="ratings-title"')[1].split("</section>")[0]
        assert f"<strong>{rating_of(alice).rating}</strong> (provisional)" in section
        assert reverse("games:board", args=[game.pk]) in section
        assert f"1000 → {rating_of(alice).rating}" in section


class TestLeaderboardApi:
    def test_it_lists_players_best_first_provisional_after(self, alice, bob, charlie):
        rate(alice, "guildhall", 30, 2, games=10)
        rate(bob, "guildhall", 40, 2, games=9)
        rate(charlie, "guildhall", 32, 2, games=11)

        response = Api(alice).get("/api/v1/leaderboard/guildhall/")

        assert response.status_code == 200
        assert response.json()["results"] == [
            {"username": "charlie", "rating": 2040, "games": 11, "provisional": False},
            {"username": "alice", "rating": 1960, "games": 10, "provisional": False},
            {"username": "bob", "rating": 2360, "games": 9, "provisional": True},
        ]

    def test_an_unknown_game_is_a_404(self, alice):
        assert Api(alice).get("/api/v1/leaderboard/chess/").status_code == 404


class TestRatedFlag:
    def form(self, alice, **data) -> InvitationForm:
        fields = {
            "players": "2",
            "rules": "yucata",
            "setup": "sequential",
            "move_days": "3",
            "invitees": "",
        }
        return InvitationForm(fields | data, creator=alice, game=registry.get("guildhall"))

    def test_the_form_offers_a_rated_game_by_default(self, alice):
        form = InvitationForm(creator=alice, game=registry.get("guildhall"))

        assert form.fields["rated"].initial is True
        assert "computer players" in form.fields["rated"].help_text

    def test_the_form_passes_the_choice_on(self, alice):
        rated, unrated = self.form(alice, rated="on"), self.form(alice)

        assert rated.is_valid() and unrated.is_valid()
        assert rated.invitation()["rated"] is True
        assert unrated.invitation()["rated"] is False

    def test_a_rated_game_with_computers_is_created_unrated(self, client, alice):
        client.force_login(alice)
        data = {"game": "guildhall", "players": "3", "rules": "yucata", "setup": "sequential"}
        data |= {"move_days": "3"}
        data |= {"computers": "1", "computer_level": "easy", "rated": "on"}

        client.post(reverse("games:invitation_new"), data)

        assert Invitation.objects.get().rated is False

    def test_the_api_takes_and_shows_the_flag(self, alice, bob):
        api = Api(alice)
        rated = api.post("/api/v1/invitations/", {"game": "guildhall", "players": 2})
        unrated = api.post("/api/v1/invitations/", {"players": 2, "rated": False})
        against = api.post("/api/v1/invitations/", {"players": 3, "computers": ["easy"]})

        assert [r.status_code for r in (rated, unrated, against)] == [201, 201, 201]
        assert [r.json()["rated"] for r in (rated, unrated, against)] == [True, False, False]
        assert api.post("/api/v1/invitations/", {"rated": "yes"}).status_code == 400

        invitations.do_accept_invitation(rated.json()["id"], bob)
        game_id = Invitation.objects.get(pk=rated.json()["id"]).game_id
        assert Api(bob).get(f"/api/v1/games/{game_id}/").json()["rated"] is True
