"""Conditional reads: a game and the list of my games carry an ETag, and If-None-Match with
it answers 304 (no body) until something the reader would see changes, and never across
viewers."""

import random
from datetime import timedelta

import pytest
from django.utils import timezone

from games.models import Game, Seat
from games.play import moves
from tests.games.api_helpers import Api, game_url
from tests.games.helpers import play_one, start_game, user_to_move

DAY = timedelta(days=1)


@pytest.fixture
def game(alice, bob):
    return start_game(alice, bob)


def test_a_game_unchanged_is_304_and_a_move_changes_its_tag(alice, bob, game, run_hooks):
    api = Api(alice)
    first = api.get(game_url(game.pk))
    tag = first["ETag"]
    assert first.status_code == 200 and tag.startswith('"')
    again = api.client.get(game_url(game.pk), HTTP_IF_NONE_MATCH=tag)
    assert again.status_code == 304 and again.content == b"" and again["ETag"] == tag
    # A list of tags, and a weak one, match too (If-None-Match compares weakly).
    listed = api.client.get(game_url(game.pk), HTTP_IF_NONE_MATCH=f'"x", W/{tag}')
    assert listed.status_code == 304

    run_hooks(play_one, Game.objects.get(pk=game.pk), random.Random(1))
    moved = api.client.get(game_url(game.pk), HTTP_IF_NONE_MATCH=tag)
    assert moved.status_code == 200 and moved["ETag"] != tag
    assert moved.json()["version"] == game.version + 1


def test_the_tag_is_the_viewers_own(alice, bob, charlie, game):
    tags = {user.username: Api(user).get(game_url(game.pk))["ETag"] for user in (alice, bob)}
    spectator = Api(charlie)
    assert len(set(tags.values())) == 2
    # Another player's tag never answers 304 to me: their answer holds their hand.
    for tag in tags.values():
        response = spectator.client.get(game_url(game.pk), HTTP_IF_NONE_MATCH=tag)
        assert response.status_code == 200 and response["ETag"] not in tags.values()


def test_what_changes_without_a_move_changes_the_tag(alice, bob, game):
    api = Api(alice)
    tag = api.get(game_url(game.pk))["ETag"]
    # A deadline pushed back by a vacation moves no version, but the answer shows it.
    Seat.objects.filter(game=game, deciding=True).update(deadline=timezone.now() + DAY)
    assert api.client.get(game_url(game.pk), HTTP_IF_NONE_MATCH=tag).status_code == 200


def test_no_such_game_is_still_404(alice):
    response = Api(alice).client.get(game_url(999999), HTTP_IF_NONE_MATCH="*")
    assert response.status_code == 404


def test_my_turn_list_is_304_until_one_of_my_games_changes(alice, bob, game, run_hooks):
    mover = user_to_move(game)
    api = Api(mover)
    first = api.get("/api/v1/games/", my_turn="true")
    tag = first["ETag"]
    assert [g["id"] for g in first.json()["results"]] == [game.pk]
    same = api.client.get("/api/v1/games/", {"my_turn": "true"}, HTTP_IF_NONE_MATCH=tag)
    assert same.status_code == 304
    # Another query is another answer.
    other = api.client.get("/api/v1/games/", {"my_turn": "false"}, HTTP_IF_NONE_MATCH=tag)
    assert other.status_code == 200

    state = Game.objects.get(pk=game.pk)
    run_hooks(play_one, state, random.Random(2))
    changed = api.client.get("/api/v1/games/", {"my_turn": "true"}, HTTP_IF_NONE_MATCH=tag)
    assert changed.status_code == 200 and changed["ETag"] != tag


def test_a_304_still_counts_as_looking_at_the_game(alice, bob, game):
    api = Api(alice)
    tag = api.get(game_url(game.pk))["ETag"]
    Seat.objects.filter(game=game).update(last_seen_at=None)
    assert api.client.get(game_url(game.pk), HTTP_IF_NONE_MATCH=tag).status_code == 304
    assert Seat.objects.get(game=game, user=alice).last_seen_at is not None
    assert Seat.objects.get(game=game, user=bob).last_seen_at is None


def test_a_move_through_the_api_then_a_304(alice, bob, game, run_hooks):
    """The ETag of the answer read after my own move is the one to send next."""
    mover = user_to_move(game)
    api = Api(mover)
    action = api.get(game_url(game.pk, "actions")).json()["actions"][0]
    run_hooks(moves.do_submit_action, game.pk, mover, action, game.version)
    tag = api.get(game_url(game.pk))["ETag"]
    assert api.client.get(game_url(game.pk), HTTP_IF_NONE_MATCH=tag).status_code == 304


def test_a_bad_query_is_refused_whatever_tag_comes_with_it(alice, bob, game):
    api = Api(alice)
    for query in ({"page": "x"}, {"page_size": "9999"}, {"my_turn": "maybe"}):
        answer = api.client.get("/api/v1/games/", query, HTTP_IF_NONE_MATCH="*")
        assert answer.status_code == 400, query
    # "*" names no page of a list: a page past the end is still a 404.
    assert api.client.get("/api/v1/games/", {"page": 9}, HTTP_IF_NONE_MATCH="*").status_code == 404
