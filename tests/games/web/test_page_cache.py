"""Boards and dashboards kept in the cache (games.web.page_cache): a page from the cache is the
page its viewer would have been rendered, never another viewer's, and never an old one."""

from __future__ import annotations

import json
import random
import re
from datetime import timedelta

import pytest
import time_machine
from django.core.cache import caches
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from games.models import Game, Seat
from games.play import cancel_votes, invitations, vacations
from games.reads import cache_keys, list_stamps, viewing
from games.web import page_cache
from tests.games.helpers import play_one, start_game, user_to_move

CSRF_INPUT = re.compile(r'(name="csrfmiddlewaretoken" value=")[^"]+(")')
CSRF_HEADER = re.compile(r'("X-CSRFToken": ")[^"]+(")')


def board_url(game: Game) -> str:
    return reverse("games:board", args=[game.pk])


def client_for(user, **kwargs) -> Client:
    client = Client(**kwargs)
    client.force_login(user)
    return client


def without_tokens(content: bytes) -> str:
    """The page with its CSRF tokens (masked anew for every request) blanked out."""
    text = CSRF_INPUT.sub(r"\1-\2", content.decode())
    return CSRF_HEADER.sub(r"\1-\2", text)


def fresh(client: Client, url: str, settings, **kwargs) -> str:
    """The page rendered without the cache."""
    settings.PAGE_CACHE_SECONDS = 0
    try:
        return without_tokens(client.get(url, **kwargs).content)
    finally:
        settings.PAGE_CACHE_SECONDS = 600


@pytest.fixture
def game(alice, bob, charlie):
    game = start_game(alice, bob, charlie)
    rand = random.Random(3)
    for _ in range(12):
        game = play_one(game, rand)
    return game


HX = {"headers": {"HX-Request": "true"}}


@pytest.fixture
def committed(django_capture_on_commit_callbacks):
    """Changes made inside run their on-commit hooks, as they do outside a test's
    transaction (the cache's stamps are renewed there)."""
    return lambda: django_capture_on_commit_callbacks(execute=True)


def _page_keys() -> list[str]:
    """The pages in the cache (not the marks of pages asked for once, nor the lists'
    stamps kept beside them)."""
    cache = caches["pages"]
    if hasattr(cache, "_cache") and isinstance(cache._cache, dict):  # locmem
        keys = list(cache._cache)
    else:
        import redis
        from django.conf import settings as django_settings

        client = redis.Redis.from_url(django_settings.PAGES_REDIS_URL)
        keys = [k.decode() for k in client.scan_iter("*pages*")]
    return [k for k in keys if page_cache.SEEN_PREFIX not in k and ":lists:" not in k]


class TestTheBoard:
    @pytest.mark.parametrize("kwargs", [{}, HX], ids=["page", "partial"])
    def test_each_viewer_gets_their_own_board_whoever_was_served_first(
        self, game, alice, bob, charlie, dave, settings, kwargs
    ):
        url = board_url(game)
        clients = [client_for(u) for u in (alice, bob, charlie, dave)]  # dave watches
        for client in clients:  # every board in the cache, each after the others'
            client.get(url, **kwargs)

        for client in reversed(clients):
            cached = client.get(url, **kwargs)
            assert cached.status_code == 200
            assert without_tokens(cached.content) == fresh(client, url, settings, **kwargs)

    def test_the_header_follows_a_new_name(self, game, alice, settings):
        # The header is a fragment shared between the viewer's boards (fragment_tags.frame_key):
        # a new display name is a new key.
        settings.PAGE_CACHE_SECONDS = 0
        client = client_for(alice)

        def header() -> str:
            page = client.get(board_url(game)).content.decode()
            return page[page.index('<header class="site-header">') : page.index("</header>")]

        assert ">Alice</a>" in header()
        alice.display_name = "Alicia"
        alice.save()
        assert ">Alicia</a>" in header()

    def test_a_board_is_served_from_the_cache_until_the_game_changes(self, game, settings):
        user = user_to_move(game)
        client = client_for(user)
        client.get(board_url(game))  # (asked once: not stored yet)
        first = client.get(board_url(game))
        # Changed under the cache's feet (never done by the site): the cached page is served.
        Game.objects.filter(pk=game.pk).update(names=["X", "Y", "Z"])
        assert without_tokens(client.get(board_url(game)).content) == without_tokens(first.content)

        game = play_one(Game.objects.get(pk=game.pk), random.Random(1))

        assert "X vs Y vs Z" in client.get(board_url(game)).content.decode()

    def test_a_page_is_stored_only_when_asked_for_again(self, game, settings):
        """A board read once (then a move) never fills the cache; one read again is kept."""
        user = user_to_move(game)
        client = client_for(user)
        before = set(_page_keys())

        client.get(board_url(game))
        assert set(_page_keys()) == before  # only the mark that it was asked for
        Game.objects.filter(pk=game.pk).update(names=["X", "Y", "Z"])  # (under its feet)
        second = client.get(board_url(game))
        assert "X vs Y vs Z" in second.content.decode()  # rendered, and now stored
        assert len(set(_page_keys()) - before) == 1
        Game.objects.filter(pk=game.pk).update(names=["P", "Q", "R"])
        assert "X vs Y vs Z" in client.get(board_url(game)).content.decode()  # from the cache

    def test_every_page_is_stored_at_once_when_the_setting_says_so(self, game, settings):
        settings.PAGE_CACHE_ADMIT_AFTER = 1
        client = client_for(user_to_move(game))
        client.get(board_url(game))
        Game.objects.filter(pk=game.pk).update(names=["X", "Y", "Z"])
        assert "X vs Y vs Z" not in client.get(board_url(game)).content.decode()

    def test_the_token_of_a_cached_board_is_the_requesters_own(self, game):
        user = user_to_move(game)
        client_for(user).get(board_url(game))  # cached by another session
        client = client_for(user, enforce_csrf_checks=True)

        content = client.get(board_url(game)).content.decode()
        token = CSRF_INPUT.search(content).group(0).split('value="')[1].rstrip('"')
        action = viewing.game_view(game, game.seats.get(user=user).number)["legal_actions"][0]
        response = client.post(
            reverse("games:board_move", args=[game.pk]),
            {"action": json.dumps(action), "version": game.version, "csrfmiddlewaretoken": token},
        )

        assert response.status_code == 302
        assert Game.objects.get(pk=game.pk).version > game.version
        assert page_cache.CSRF_PLACEHOLDER not in content

    @pytest.mark.parametrize("page_cache_seconds", [0, 600])
    def test_every_form_of_a_board_carries_the_requesters_own_token(
        self, game, alice, bob, settings, page_cache_seconds
    ):
        # The concede, cancel-vote and stand-in forms are fragments shared between viewers
        # ({% cached_partial %}): stored by the buttons' own page, which has Alice's real
        # token, and by her board, Bob's board still has his own token in each of them.
        settings.PAGE_CACHE_SECONDS = page_cache_seconds
        alice_client = client_for(alice)
        buttons = alice_client.get(reverse("games:actions", args=[game.pk])).content.decode()
        assert "csrfmiddlewaretoken" in buttons
        alice_client.get(board_url(game))
        buttons = alice_client.get(reverse("games:actions", args=[game.pk])).content.decode()
        assert page_cache.CSRF_PLACEHOLDER not in buttons
        client = client_for(bob, enforce_csrf_checks=True)

        content = client.get(board_url(game)).content.decode()

        tokens = {m.group(0).split('value="')[1].rstrip('"') for m in CSRF_INPUT.finditer(content)}
        assert len(tokens) == 1, "every form of one answer gets the same token"
        assert page_cache.CSRF_PLACEHOLDER not in content
        for action in ("games:vote_cancel", "games:stand_in"):
            assert reverse(action, args=[game.pk]) in content
        response = client.post(
            reverse("games:vote_cancel", args=[game.pk]),
            {"vote": "1", "csrfmiddlewaretoken": tokens.pop()},
        )
        assert response.status_code in (200, 302)
        assert Seat.objects.get(game=game, user=bob).cancel_vote

    def test_another_player_coming_online_shows(self, game, alice, bob, settings):
        alice_client = client_for(alice)
        assert "online now" not in alice_client.get(board_url(game)).content.decode()

        client_for(bob).get(board_url(game))

        assert "online now" in alice_client.get(board_url(game)).content.decode()

    def test_a_vacation_shows(self, game, alice, bob):
        alice_client = client_for(alice)
        alice_client.get(board_url(game))

        vacations.do_start_vacation(bob, 3)

        assert "on vacation until" in alice_client.get(board_url(game)).content.decode()

    def test_a_vote_to_cancel_shows_on_the_page(self, game, alice, bob):
        client = client_for(alice)
        assert "Take back my vote" not in client.get(board_url(game)).content.decode()

        cancel_votes.do_vote_cancel(game.pk, alice)

        assert "Take back my vote" in client.get(board_url(game)).content.decode()

    def test_a_refused_move_is_never_stored(self, game):
        user = user_to_move(game)
        client = client_for(user)
        # A choice made before this seat's decision began (the seat may have decided the
        # last step too, in Guildhall's setup: the game's previous version is not stale).
        began = Seat.objects.get(game=game, user=user).decision_version
        assert began >= 1
        stale = client.post(
            reverse("games:board_move", args=[game.pk]),
            {"action": json.dumps({"kind": "end_turn"}), "version": began - 1},
            headers={"HX-Request": "true"},
        )
        assert stale.status_code == 409

        again = client.get(board_url(game), **HX).content.decode()

        assert "Nothing was done" in stale.content.decode()
        assert "Nothing was done" not in again

    def test_a_message_is_shown_once_and_never_stored(self, game, alice):
        client = client_for(alice)
        client.get(reverse("home"))  # the dashboard in the cache
        Seat.objects.filter(user=alice).update(deciding=False)

        # No game waits for Alice: the dashboard, with a message.
        response = client.get(reverse("games:next"), follow=True)

        assert "No game is waiting for your move." in response.content.decode()
        assert (
            "No game is waiting for your move." not in client.get(reverse("home")).content.decode()
        )


class TestTheDashboard:
    def test_it_follows_every_move(self, game, alice, bob, charlie, committed):
        rand = random.Random(5)
        clients = {u.pk: client_for(u) for u in (alice, bob, charlie)}
        for _ in range(6):
            for client in clients.values():
                client.get(reverse("home"))  # cached as it is
            with committed():
                game = play_one(game, rand)
            mover = user_to_move(game)
            for user_id, client in clients.items():
                content = client.get(reverse("home")).content.decode()
                turn = content.split("<h2>Waiting for others</h2>")[0]
                assert (f"Game {game.pk}<" in turn) == (user_id == mover.pk)

    def test_it_shows_a_new_invitation_and_its_answers(self, alice, bob, charlie, committed):
        client = client_for(alice)
        assert "Open invitations" in client.get(reverse("home")).content.decode()

        with committed():
            invitation = invitations.do_create_invitation(bob, players=3)
        assert f"invitation-{invitation.pk}" in client.get(reverse("home")).content.decode()

        with committed():
            invitations.do_accept_invitation(invitation.pk, charlie)
        assert "charlie" in client.get(reverse("home")).content.decode()
        with committed():
            invitations.do_accept_invitation(invitation.pk, alice)
        content = client.get(reverse("home")).content.decode()
        game = Game.objects.get(invitation=invitation)
        assert f"invitation-{invitation.pk}" not in content
        assert f"Game {game.pk}<" in content

    def test_it_shows_a_cancelled_game_no_more(self, game, alice, bob, charlie, committed):
        client = client_for(alice)
        assert f"Game {game.pk}<" in client.get(reverse("home")).content.decode()

        for user in (alice, bob, charlie):
            with committed():
                cancel_votes.do_vote_cancel(game.pk, user)

        assert f"Game {game.pk}<" not in client.get(reverse("home")).content.decode()

    def test_a_deadline_moved_by_a_vacation_shows(self, alice, bob, committed):
        game = start_game(alice, bob, move_days=3)
        mover = user_to_move(game)
        other = bob if mover == alice else alice
        client = client_for(other)
        before = client.get(reverse("home")).content.decode()
        assert "time left 2\xa0days" in before

        with committed():
            vacations.do_start_vacation(mover, 10)

        assert "time left 1\xa0week" in client.get(reverse("home")).content.decode()

    def test_the_times_shown_follow_the_clock(self, game, alice):
        client = client_for(alice)
        first = client.get(reverse("home")).content.decode()

        with time_machine.travel(timezone.now() + timedelta(hours=5)):
            later = client.get(reverse("home")).content.decode()

        assert "5\xa0hours" in later
        assert "5\xa0hours" not in first

    def test_each_user_gets_their_own(self, game, alice, bob, settings):
        clients = [client_for(alice), client_for(bob)]
        for client in clients:
            client.get(reverse("home"))
        for client in clients:
            cached = without_tokens(client.get(reverse("home")).content)
            assert cached == fresh(client, reverse("home"), settings)


class TestStamps:
    def test_a_stamp_lost_from_the_cache_never_comes_back(self, alice):
        first = list_stamps.stamps(alice.pk)
        caches["pages"].clear()

        assert list_stamps.stamps(alice.pk)[0] != first[0]
        assert list_stamps.stamps(alice.pk) == list_stamps.stamps(alice.pk)

    def test_a_build_has_its_own_keys(self, settings):
        cache_keys.build_id.cache_clear()
        try:
            one = cache_keys.key("board", [1, 2])
            settings.PAGE_CACHE_BUILD = "another"
            cache_keys.build_id.cache_clear()
            assert cache_keys.key("board", [1, 2]) != one
        finally:
            cache_keys.build_id.cache_clear()
