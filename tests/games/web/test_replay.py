"""The replay of a finished game: each step as its viewer saw it, every hand for its players
afterwards, never a secret, read-only, refused for unfinished games and unknown steps."""

import html
import random
import re
from unittest import mock

import pytest
from django.template.loader import render_to_string
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from games.core.match import Match
from games.guildhall.random_player import choose as guildhall_choice
from games.models import Game, Move, Seat
from games.reads import replay
from games.reads.movelog import describe_move
from tests.conftest import HTMX, client_for
from tests.games.helpers import start_game

SEED = 987_654_321_123  # distinctive, to look for on the pages
# A card of Guildhall's board as the template draws it: in a hand or a pile (its colour for
# screen readers, then its name), or as a chip of a guildhall (its label as a title).
CARD = re.compile(r'<span class="sr">(\w+) </span>([^<]+)</span>')
HAND_SECTION = re.compile(r'aria-label="Your hand"[^>]*>(.*?)</section>', re.S)


def finish(game: Game, *, seed: int = SEED, undo_every: int = 7) -> Game:
    """``game`` played to its end by the engine with random moves, stored as services store a
    game (a Move per record, the snapshot, the result), straight into the tables: a game
    played through ``services`` takes seconds, and only its record matters here. Some undos
    are taken so that the record replays them."""
    Game.objects.filter(pk=game.pk).update(seed=seed)
    game.refresh_from_db()
    kind = game.game_kind
    match = Match(kind, game.engine_options(), game.names, game.seed)
    rand = random.Random(seed)
    moves = []
    while kind.phase(match.state) != "over":
        seat = min(kind.deciders(match.state))
        if kind.can_undo(match.state, seat) and rand.randrange(undo_every) == 0:
            action = {"kind": "undo"}
        elif game.kind == "guildhall":
            action = guildhall_choice(match.state, rand, kind.legal_actions(match.state, seat))
        else:
            action = kind.choose(match.state, seat, rand)
        events = match.apply(action, seat)
        moves.append(
            Move(game=game, number=len(match.record), seat=seat, action=action, events=events)
        )
    Move.objects.bulk_create(moves)
    for row in kind.result(match.state):
        Seat.objects.filter(game=game, number=row["seat"]).update(
            rank=row["rank"], score=row["score"], deciding=False, deadline=None
        )
    Game.objects.filter(pk=game.pk).update(
        status=Game.Status.FINISHED,
        version=len(match.record),
        snapshot=kind.to_json(match.state),
        finished=timezone.now(),
    )
    game.refresh_from_db()
    return game


@pytest.fixture
def game(alice, bob) -> Game:
    return finish(start_game(alice, bob))


def step_url(game: Game, step: int, hands: bool = False) -> str:
    url = reverse("games:replay_step", args=[game.pk, step])
    return url + "?hands=all" if hands else url


def page(user, game: Game, step: int, *, hands: bool = False, htmx: bool = True) -> str:
    response = client_for(user).get(step_url(game, step, hands), headers=HTMX if htmx else {})
    assert response.status_code == 200, response.content.decode()[:500]
    return response.content.decode()


def state_at(game: Game, step: int):
    """The game after ``step`` records, rebuilt here from the record without games.reads.replay."""
    record = [m.record() for m in Move.objects.filter(game=game, number__lte=step)]
    return Match(game.game_kind, game.engine_options(), game.names, game.seed, record).state


def board_part(game: Game, state, seat: int | None) -> str:
    """The game's own board template for ``seat``'s view with nothing to decide."""
    kind = game.game_kind
    v = {**kind.view(state, seat), "legal_actions": [], "can_undo": False}
    seat_users = {s.number: {"computer": bool(s.computer_level)} for s in game.seats.all()}
    context = {**kind.board_context(v, seat_users), "v": v, "game": game, "game_kind": kind}
    return render_to_string(kind.board_template, context)


def hand_on_page(content: str) -> list[str]:
    """The cards of the "Your hand" section, as "colour name"."""
    sections = HAND_SECTION.findall(content)
    assert len(sections) <= 1
    return [f"{c} {n}" for c, n in CARD.findall(sections[0])] if sections else []


def seat_of(game: Game, user) -> int:
    return game.seats.get(user=user).number


def sample_steps(game: Game) -> list[int]:
    return sorted({0, 1, 2, game.version // 3, game.version // 2, game.version - 1, game.version})


class TestSteps:
    def test_each_step_is_the_record_replayed_up_to_it(self, game):
        kind = game.game_kind
        for number in sample_steps(game):
            step = replay.step_at(game, number)
            assert (step.number, step.total) == (number, game.version)
            assert kind.to_json(step.state) == kind.to_json(state_at(game, number))
        assert kind.to_json(replay.step_at(game, game.version).state) == game.snapshot
        assert any(m.action["kind"] == "undo" for m in game.moves.all())

    def test_a_step_carries_its_own_moves_events(self, game):
        step = replay.step_at(game, 5)
        move = game.moves.get(number=5)
        assert (step.events, step.seat) == (move.events, move.seat)
        assert (replay.step_at(game, 0).events, replay.step_at(game, 0).seat) == ([], None)

    def test_a_step_outside_the_game_is_refused(self, game):
        for number in (-1, game.version + 1):
            with pytest.raises(ValueError):
                replay.step_at(game, number)

    def test_only_finished_games_can_be_replayed(self, game, alice, bob):
        assert replay.can_replay(game)
        active = start_game(alice, bob)
        assert not replay.can_replay(active)
        Game.objects.filter(pk=active.pk).update(status=Game.Status.CANCELLED)
        active.refresh_from_db()
        assert not replay.can_replay(active)


class TestWhatEachViewerSees:
    def test_a_players_board_is_their_view_at_that_step(self, game, alice):
        kind = game.game_kind
        seat = seat_of(game, alice)
        for number in sample_steps(game):
            state = state_at(game, number)
            content = page(alice, game, number)
            assert board_part(game, state, seat) in content
            assert hand_on_page(content) == kind.hand_summary(kind.view(state, seat))
            assert hand_on_page(content)  # a hand to compare at every step

    def test_another_seats_hidden_cards_never_show_before_the_end(self, game, alice):
        kind = game.game_kind
        checked = 0
        for number in range(0, game.version, 20):
            state = state_at(game, number)
            mine = kind.view(state, seat_of(game, alice))
            # Bob's cards that nothing Alice sees shows: no copy of the same colour and name
            # anywhere in her view (a hand, a pile, a guildhall, a known card...).
            seen = _labels(mine)
            theirs = kind.view(state, 1 - seat_of(game, alice))
            hidden = [c for c in kind.hand_summary(theirs) if c not in seen]
            content = page(alice, game, number)
            for label in hidden:
                color, name = label.split(" ", 1)
                assert f'<span class="sr">{color} </span>{name}</span>' not in content
                assert f'title="{label}"' not in content
                assert f'<span class="replay-card">{label}</span>' not in content
                checked += 1
        assert checked > 5

    def test_a_spectator_sees_the_spectator_view(self, game, charlie):
        for number in sample_steps(game):
            state = state_at(game, number)
            content = page(charlie, game, number)
            assert board_part(game, state, None) in content
            assert hand_on_page(content) == []
            assert "You are watching" in content

    def test_the_steps_move_is_described_for_its_viewer(self, game, alice, charlie):
        for number in (1, game.version // 2, game.version):
            move = game.moves.get(number=number)
            state = state_at(game, number)
            for user, seat in ((alice, seat_of(game, alice)), (charlie, None)):
                content = page(user, game, number)
                assert f"Move {number}" in content
                for line in describe_move(game, state, move.events, seat):
                    assert _escaped(line) in content
        assert "The start of the game" in page(alice, game, 0)

    def test_no_step_offers_a_decision(self, game, alice, bob):
        kind = game.game_kind
        decided = 0
        for number in range(0, game.version, 25):
            state = state_at(game, number)
            for user in (alice, bob):
                seat = seat_of(game, user)
                if not kind.legal_actions(state, seat):
                    continue
                content = page(user, game, number)
                assert 'name="action"' not in content
                # Only the GET forms of the replay: the slider and the turn picker.
                assert content.count("<form") == content.count('method="get"') == 2
                assert 'method="post"' not in content
                decided += 1
        assert decided > 5

    def test_a_renaissance_game_replays_too(self, alice, bob, charlie):
        game = finish(start_game(alice, bob, kind="renaissance"))
        kind = game.game_kind
        for number in sample_steps(game):
            state = state_at(game, number)
            for user, seat in ((alice, seat_of(game, alice)), (charlie, None)):
                content = page(user, game, number)
                assert board_part(game, state, seat) in content
                assert 'name="action"' not in content
            every = page(alice, game, number, hands=True)
            for seat in (0, 1):
                for card in kind.hand_summary(kind.view(state, seat)):
                    assert _escaped(card) in every


class TestEveryHand:
    def test_a_player_may_show_every_seats_hand_at_each_step(self, game, alice):
        kind = game.game_kind
        for number in sample_steps(game):
            state = state_at(game, number)
            content = page(alice, game, number, hands=True)
            listed = re.findall(
                r'<li class="replay-hand" data-seat="(\d)">(.*?)</li>', content, re.S
            )
            assert [int(seat) for seat, _ in listed] == [0, 1]
            for seat, row in listed:
                cards = re.findall(r'<span class="replay-card">([^<]+)</span>', row)
                assert cards == kind.hand_summary(kind.view(state, int(seat)))
            # Beside the player's own board.
            assert board_part(game, state, seat_of(game, alice)) in content

    def test_the_other_player_may_too(self, game, bob):
        content = page(bob, game, 3, hands=True)
        assert "Every hand at this step" in content
        assert "Hide the other hands" in content

    def test_a_spectator_asking_for_every_hand_gets_the_plain_page(self, game, charlie):
        number = game.version // 2
        content = page(charlie, game, number, hands=True)
        assert "Every hand" not in content and "replay-card" not in content
        assert "Show every hand" not in content
        assert content == page(charlie, game, number)

    def test_players_are_offered_the_choice(self, game, alice):
        content = page(alice, game, 4)
        assert "Show every hand" in content and "replay-card" not in content
        assert f'href="{step_url(game, 4, hands=True)}"' in content

    def test_the_seed_and_the_deck_order_are_never_shown(self, game, alice, charlie):
        kind = game.game_kind
        for number in (0, game.version // 2, game.version):
            state = state_at(game, number)
            deck = [f"{c['color']} {c['name']}" for c in _cards(state.deck, game)]
            for user in (alice, charlie):
                for hands in (False, True):
                    content = page(user, game, number, hands=hands, htmx=False)
                    assert str(SEED) not in content
                    if len(deck) > 2:
                        assert ", ".join(deck[-3:]) not in content
                        assert ", ".join(deck[:3]) not in content
            assert str(SEED) not in str(kind.view(state, seat_of(game, alice)))


class TestRefused:
    def test_an_active_games_replay_is_refused(self, alice, bob):
        active = start_game(alice, bob)
        for url in (
            reverse("games:replay", args=[active.pk]),
            step_url(active, 0),
            step_url(active, 0, hands=True),
        ):
            response = client_for(alice).get(url)
            assert response.status_code == 404
            assert "only finished games can be replayed" in response.content.decode()
            assert str(active.seed) not in response.content.decode()

    def test_a_cancelled_games_replay_is_refused(self, alice, bob):
        cancelled = start_game(alice, bob)
        Game.objects.filter(pk=cancelled.pk).update(status=Game.Status.CANCELLED)
        assert client_for(alice).get(step_url(cancelled, 0)).status_code == 404

    def test_an_unknown_game_is_not_found(self, alice):
        assert client_for(alice).get(reverse("games:replay", args=[999_999])).status_code == 404
        assert client_for(alice).get(step_url(Game(pk=999_999), 0)).status_code == 404

    def test_a_step_the_game_does_not_have_is_not_found(self, game, alice):
        client = client_for(alice)
        base = reverse("games:replay", args=[game.pk])
        response = client.get(step_url(game, game.version + 1))
        assert response.status_code == 404
        assert f"its steps are 0 to {game.version}" in response.content.decode()
        assert client.get(f"{base}-1/").status_code == 404
        assert client.get(f"{base}{'9' * 30}/").status_code == 404
        assert client.get(f"{base}?step={game.version + 1}", headers=HTMX).status_code == 404

    def test_a_step_that_is_no_whole_number_is_a_bad_request(self, game, alice):
        client = client_for(alice)
        for step in ("abc", "-1", "", "1.5", "²", "9" * 40):
            for headers in ({}, HTMX):
                response = client.get(
                    reverse("games:replay", args=[game.pk]), {"step": step}, headers=headers
                )
                assert response.status_code == 400, step
                assert "The step must be a whole number" in response.content.decode()

    def test_it_needs_a_login(self, game):
        response = Client().get(step_url(game, 1))
        assert response.status_code == 302 and "login" in response["Location"]

    def test_it_only_reads(self, game, alice):
        response = client_for(alice).post(step_url(game, 1))
        assert response.status_code == 405


class TestNavigation:
    def links(self, content: str) -> dict[str, str]:
        """The step links (first, prev, next, last) a page offers, by their rel."""
        found = re.findall(r'href="([^"]+)" hx-get="([^"]+)" rel="(\w+)"', content)
        assert all(href == hx_get for href, hx_get, _ in found)
        return {rel: _unescaped(href) for href, _, rel in found}

    def test_the_start_is_step_zero(self, game, alice):
        response = client_for(alice).get(reverse("games:replay", args=[game.pk]))
        assert response.status_code == 200
        content = response.content.decode()
        last = step_url(game, game.version)
        assert self.links(content) == {"next": step_url(game, 1), "last": last}
        assert f'type="range" name="step" min="0" max="{game.version}" value="0"' in content

    def test_a_middle_step_links_to_its_neighbours(self, game, alice):
        content = page(alice, game, 10)
        assert self.links(content) == {
            "first": step_url(game, 0),
            "prev": step_url(game, 9),
            "next": step_url(game, 11),
            "last": step_url(game, game.version),
        }
        assert f"Step <b>10</b> of {game.version}" in content

    def test_the_last_step_has_no_next(self, game, alice):
        content = page(alice, game, game.version)
        previous = step_url(game, game.version - 1)
        assert self.links(content) == {"first": step_url(game, 0), "prev": previous}
        assert "The game is over." in content

    def test_showing_every_hand_is_kept_from_step_to_step(self, game, alice):
        content = page(alice, game, 10, hands=True)
        assert self.links(content)["next"] == step_url(game, 11, hands=True)
        assert '<input type="hidden" name="hands" value="all">' in content
        assert f'href="{step_url(game, 10)}"' in content  # hide them again

    def test_the_slider_without_javascript_goes_to_the_steps_address(self, game, alice):
        base = reverse("games:replay", args=[game.pk])
        response = client_for(alice).get(base, {"step": "12", "hands": "all"})
        assert response.status_code == 302
        assert response["Location"] == step_url(game, 12, hands=True)

    def test_the_slider_with_htmx_gets_the_step_and_its_address(self, game, alice):
        base = reverse("games:replay", args=[game.pk])
        response = client_for(alice).get(base, {"step": "12"}, headers=HTMX)
        assert response.status_code == 200
        assert response["HX-Push-Url"] == step_url(game, 12)
        content = response.content.decode()
        assert content.lstrip().startswith('<div id="replay"')
        assert "<html" not in content
        assert f"Step <b>12</b> of {game.version}" in content

    def test_the_whole_page_without_htmx(self, game, alice):
        content = page(alice, game, 12, htmx=False)
        assert "<html" in content and 'id="replay"' in content
        assert "site/replay.css" in content

    def test_a_finished_games_board_links_to_its_replay(self, game, alice, bob):
        link = f'href="{reverse("games:replay", args=[game.pk])}"'
        board = client_for(alice).get(reverse("games:board", args=[game.pk])).content.decode()
        assert link in board and "Replay this game" in board
        active = start_game(alice, bob)
        board = client_for(alice).get(reverse("games:board", args=[active.pk])).content.decode()
        assert "Replay this game" not in board


class TestCache:
    def test_a_step_seen_again_is_not_replayed(self, game, alice, bob, settings):
        settings.PAGE_CACHE_SECONDS = 600
        with mock.patch.object(replay, "step_at", wraps=replay.step_at) as step_at:
            first = page(alice, game, 7)  # replayed; stored once asked for again
            assert page(alice, game, 7) == first
            assert page(alice, game, 7) == first
            assert step_at.call_count == 2
            page(bob, game, 7)  # another viewer: another page
            page(alice, game, 7, hands=True)  # another page of the same viewer
            assert step_at.call_count == 4

    def test_without_the_cache_each_request_replays(self, game, alice, settings):
        settings.PAGE_CACHE_SECONDS = 0
        with mock.patch.object(replay, "step_at", wraps=replay.step_at) as step_at:
            page(alice, game, 7)
            page(alice, game, 7)
            assert step_at.call_count == 2


# Helpers ----------------------------------------------------------------------------------------


def _escaped(text: str) -> str:
    return html.escape(text)


def _unescaped(text: str) -> str:
    return html.unescape(text)


def _labels(value) -> set[str]:
    """Every "colour name" of a card shown in a Guildhall view. Its ``unseen`` table counts
    the cards nobody has seen (the deck and the hidden hands): no card in it is shown."""
    out: set[str] = set()
    if isinstance(value, dict):
        if "color" in value and "name" in value:
            out.add(f"{value['color']} {value['name']}")
        for key, x in value.items():
            if key != "unseen":
                out |= _labels(x)
    elif isinstance(value, list):
        for x in value:
            out |= _labels(x)
    return out


def _cards(ids: list[int], game: Game) -> list[dict]:
    from games.guildhall.views import card_json

    return [card_json(c, game.engine_options().fantasy) for c in ids]
