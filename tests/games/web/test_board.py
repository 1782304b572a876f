"""The board page: what it shows to whom, the moves made through it, its poll."""

import html
import json
import random
import re

import pytest
from django.core.cache import caches
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from games.guildhall import Options, apply, decision, legal_actions, to_json
from games.guildhall.builder import build
from games.guildhall.cards import VP_CARD_KIND, VP_KINDS, parse_card
from games.guildhall.game import GUILDHALL
from games.guildhall.random_player import _WEIGHTS
from games.guildhall.views import view
from games.models import Game, Move, Seat
from games.play import invitations, moves
from games.reads import viewing
from games.web.board import poll_token_of
from tests.conftest import client_for
from tests.games.helpers import play_one, start_game, to_move, user_to_move
from tests.seeds import FixedSeed

ACTION_VALUE = re.compile(r'name="action" value="([^"]*)"')
# The CSRF token of a page, in its forms and in the htmx headers: it changes with each page.
CSRF_TOKEN = re.compile(r'(?<=value=")[\w]{64}(?=")|(?<="X-CSRFToken": ")[\w]{64}(?=")')


def board_url(game: Game) -> str:
    return reverse("games:board", args=[game.pk])


def move_url(game: Game) -> str:
    return reverse("games:board_move", args=[game.pk])


def poll_url(game: Game, token: str | None = None) -> str:
    if token is None:
        token = poll_token_of(game, None)  # a Guildhall game: nobody has private records
    return f"{reverse('games:board_poll', args=[game.pk])}?v={token}"


def offered(content: bytes) -> list[dict]:
    """The actions a board offers: the values of its action buttons."""
    return [json.loads(html.unescape(v)) for v in ACTION_VALUE.findall(content.decode())]


def _key(action: dict) -> str:
    return json.dumps(action, sort_keys=True)


def post_move(client, game: Game, action: dict, version: int | None = None, htmx=True):
    data = {"action": json.dumps(action), "version": game.version if version is None else version}
    headers = {"HX-Request": "true"} if htmx else {}
    return client.post(move_url(game), data, headers=headers)


def game_from_state(state, users, **fields) -> Game:
    """A game row holding a position set up with the engine's builder, waiting for the seat
    the engine says decides."""
    game = Game.objects.create(
        options=state.options.to_json(),
        names=list(state.names),
        seed=fields.pop("seed", 12345),
        status=Game.Status.PLAYING,
        version=0,
        snapshot=to_json(state),
        **fields,
    )
    waiting = GUILDHALL.deciders(state)
    for number, user in enumerate(users):
        Seat.objects.create(game=game, user=user, number=number, deciding=number in waiting)
    return game


class _InOrder:
    """Seats in the order people joined: the creator, Alice, plays first."""

    def shuffle(self, users):
        pass


@pytest.fixture
def game(alice, bob, monkeypatch):
    monkeypatch.setattr(invitations, "seat_random", _InOrder())
    return start_game(alice, bob)


class TestAccess:
    def test_it_requires_login(self, client, game):
        response = client.get(board_url(game))

        assert response.status_code == 302
        assert response.url.startswith(reverse("account_login"))

    def test_it_sends_a_logged_out_htmx_request_to_the_login_page(self, client, game):
        response = client.get(poll_url(game), headers={"HX-Request": "true"})

        assert response.status_code == 200
        assert response["HX-Redirect"].startswith(reverse("account_login"))

    def test_it_404s_for_a_missing_game(self, client, alice):
        client.force_login(alice)

        assert client.get(reverse("games:board", args=[999])).status_code == 404

    def test_it_shows_the_player_their_hand(self, client, alice, game):
        client.force_login(alice)

        response = client.get(board_url(game))

        content = response.content.decode()
        assert response.status_code == 200
        assert "Your hand <small>(9)</small>" in content
        assert "You are watching" not in content

    def test_an_outsider_watches_without_any_hand(self, client, charlie, game):
        client.force_login(charlie)

        response = client.get(board_url(game))

        content = response.content.decode()
        assert response.status_code == 200
        assert "You are watching" in content
        assert "Your hand" not in content
        assert 'class="card ' not in content  # hand cards are the only large cards
        assert offered(response.content) == []
        assert "Waiting for Alice" in content

    def test_an_outsider_cannot_move(self, client, charlie, game):
        client.force_login(charlie)

        response = post_move(client, game, {"kind": "done"})

        assert response.status_code == 403
        assert "You do not play in this game" in response.content.decode()
        assert Game.objects.get(pk=game.pk).version == 0

    def test_the_other_player_cannot_move_now(self, client, bob, game):
        client.force_login(bob)

        response = post_move(client, game, {"kind": "done"})

        assert response.status_code == 400
        assert "It is not your turn" in response.content.decode()
        assert Game.objects.get(pk=game.pk).version == 0


class TestSecrets:
    def test_the_html_depends_only_on_what_the_viewer_may_know(self, client, alice, bob):
        # Two positions that differ only in secrets (Bob's hand, the deck's order, the seed)
        # must give Alice the same page, byte for byte (but for the game's number).
        def position(bob_hand, seed):
            return build(
                players=[
                    {"hand": ["red trader", "blue weaver"], "guildhall": ["green farmer"]},
                    {"hand": bob_hand, "guildhall": ["yellow dancer"]},
                ],
                discard=["purple historian"],
                seed=seed,
            )

        one = game_from_state(
            position(["red assassin", "blue assassin"], 1), [alice, bob], seed=111111111111, pk=701
        )
        two = game_from_state(
            position(["green historian", "purple weaver"], 2),
            [alice, bob],
            seed=222222222222,
            pk=702,
        )
        client.force_login(alice)

        pages = []
        for game in (one, two):
            content = client.get(board_url(game)).content.decode()
            assert str(game.seed) not in content
            content = re.sub(rf"(?<=[/=-]){game.pk}(?=[/\"])", "N", content)
            content = re.sub(rf"#{game.pk}\b", "#N", content)  # its short title
            pages.append(CSRF_TOKEN.sub("", content))

        assert pages[0] == pages[1]

    def test_a_started_game_never_shows_the_seed_or_the_other_hand(self, alice, bob, game):
        rand = random.Random(5)
        for _ in range(30):
            game = play_one(game, rand)
        state = viewing.game_state(game)
        bobs_hand = set(state.players[1].hand) - set(state.players[1].known)

        content = client_for(alice).get(board_url(game)).content.decode()

        assert str(game.seed) not in content
        for action in offered(content.encode()):
            assert action.get("card") not in bobs_hand


class TestWhatItShows:
    def test_it_shows_everything_public(self, client, alice, bob):
        state = build(
            players=[
                {
                    "hand": ["red trader", "blue weaver"],
                    "known": [1],
                    "guildhall": ["green farmer", "yellow farmer", "red historian"],
                    "action_area": ["blue assassin"],
                    "completed": ["dancer"],
                    "vp_cards": ["vp5"],
                    "tokens": 2,
                },
                {"hand": ["red assassin"], "known": [0], "completed": ["weaver", "trader"]},
            ],
            discard=["purple historian", "green weaver"],
            options=Options(players=2, names="fantasy"),
        )
        game = game_from_state(state, [alice, bob])
        client.force_login(alice)

        content = client.get(board_url(game)).content.decode()

        # Fantasy names: Marshal = Farmer, Wizard = Historian, Fighter = Assassin...
        assert "Marshal <small>2</small>" in content
        assert "Wizard <small>1</small>" in content
        assert "Farmer" not in content
        assert 'title="green Marshal"' in content
        assert "Completed <b>1</b>: Cleric" in content
        assert "Completed <b>2</b>: Monk, Rogue" in content  # Yucata: professions are public
        assert "Tokens <b>2</b>" in content
        vp5 = 'class="vp-mini" title="5-point VP card" popovertarget="help-vp5">5</button>'
        assert vp5 in content
        assert "Hand <b>1</b> (1 known)" in content  # Bob's red Fighter came from a guildhall
        assert "Action area" in content
        assert "Discard pile (2), top first" in content
        assert "Cards not yet seen" in content
        assert ">Deck <b>" in content
        assert "9</span>" in content  # the 9-point VP card of the center row

    def test_classic_rules_list_no_discard_pile_and_no_unseen_cards(self, client, alice, bob):
        state = build(
            players=[{"hand": ["red trader"]}, {"hand": ["red assassin"]}],
            discard=["purple historian", "green weaver"],
            options=Options(players=2, rules="classic"),
        )
        game = game_from_state(state, [alice, bob])
        client.force_login(alice)

        content = client.get(board_url(game)).content.decode()

        assert "Discard pile (" not in content
        assert "Cards not yet seen" not in content
        assert "top: " in content
        assert "green </span>Weaver" in content  # the top card

    def test_it_offers_exactly_the_legal_actions(self, alice, bob, game):
        rand = random.Random(7)

        for _ in range(60):
            state = viewing.game_state(game)
            user = user_to_move(game)
            v = view(state, to_move(game))
            content = client_for(user).get(board_url(game)).content

            expected = v["legal_actions"] + ([{"kind": "undo"}] if v["can_undo"] else [])
            assert sorted(map(_key, offered(content))) == sorted(map(_key, expected))
            game = play_one(game, rand)

    def test_it_returns_the_partial_to_htmx_and_the_page_otherwise(self, client, alice, game):
        client.force_login(alice)

        page = client.get(board_url(game)).content.decode()
        partial = client.get(board_url(game), headers={"HX-Request": "true"}).content.decode()

        assert page.startswith("<!DOCTYPE html>")
        assert partial.lstrip().startswith('<div id="board"')
        assert "<html" not in partial
        # The board as the page has it, then the concede and cancel buttons (out of band).
        board, actions = re.split(r'\s*(?=<div class="game-actions")', partial.strip(), maxsplit=1)
        assert f'id="game-actions-{game.pk}" hx-swap-oob="true"' in actions
        assert CSRF_TOKEN.sub("", board.strip()) in CSRF_TOKEN.sub("", page)
        assert "Vote to cancel the game" in actions

    def test_it_shows_the_log_for_the_viewer(self, alice, bob, game):
        # Alice discards a card and draws: she sees what she drew, Bob only how many.
        alice_client = client_for(alice)
        state = viewing.game_state(game)
        card = state.players[0].hand[0]
        post_move(alice_client, game, {"kind": "discard", "card": card})
        game.refresh_from_db()
        post_move(alice_client, game, {"kind": "done"})

        mine = alice_client.get(board_url(game)).content.decode()
        theirs = client_for(bob).get(board_url(game)).content.decode()

        assert "Alice drew 1 card<" in theirs
        assert "Alice drew " in mine and "Alice drew 1 card<" not in mine


def _act(state, **action):
    apply(state, action)


def _buy(state, kind: str):
    vp = next(v for v in state.center if v is not None and VP_KINDS[VP_CARD_KIND[v]].key == kind)
    apply(state, {"kind": "buy", "vp": vp})


def _positions():
    """A position for each kind of decision the board must offer."""
    two = [
        {
            "hand": ["red trader", "red historian", "blue weaver"],
            "guildhall": ["green trader", "yellow trader", "blue trader", "purple trader"],
            "completed": ["dancer", "farmer"],
        },
        {"hand": ["red assassin"], "guildhall": ["blue weaver", "red weaver", "green farmer"]},
    ]
    historians = [
        {"hand": ["red historian"], "guildhall": ["green historian", "blue historian"]},
        {"guildhall": ["red farmer"]},
    ]
    out = {}

    st = build(players=two)
    _act(st, kind="play", card=parse_card("red trader"))
    out["ability"] = (st, "choose an effect, or no effect")

    st = build(players=two)
    _act(st, kind="play", card=parse_card("red trader"))
    _act(st, kind="use", level=4)
    out["pick_chapter"] = (st, "choose a chapter of your guildhall")

    st = build(players=two, center=["vp9", "vp5", "vp5", "vp3_draw", None])
    _buy(st, "vp5")
    out["pay"] = (st, "Choose 1 completed chapter to pay for the VP card")

    st = build(players=two, center=["vp9", "vp5", "vp5", "vp3_draw", None])
    _buy(st, "vp5")
    _act(st, kind="pay", chapter=0)
    out["order"] = (st, "Tap the cards in the order they go onto the discard pile")

    st = build(players=two, center=["vp3_draw", "vp5", "vp5", None, None])
    _buy(st, "vp3_draw")
    _act(st, kind="pay", chapter=0)
    while decision(st)["kind"] == "order":
        apply(st, legal_actions(st)[0])
    out["vp_ability"] = (st, "You bought a 3-point VP card. Draw 6 cards?")

    st = build(players=historians, discard=["purple historian", "red farmer #2", "blue dancer"])
    _act(st, kind="play", card=parse_card("red historian"))
    _act(st, kind="use", level=2)
    out["pick_from_the_discard_pile"] = (st, "tap 1 more card in the discard pile")

    st = build(
        players=[{"hand": ["red trader"]}, {"completed": ["dancer", "farmer", "weaver", "trader"]}],
        actions_left=0,
    )
    _act(st, kind="end_turn")
    out["discard_chapter"] = (st, "You have more than 3 completed chapters: discard 1")

    st = build(
        players=[
            {"hand": ["red trader"], "guildhall": ["blue farmer"]},
            {"guildhall": ["green weaver"]},
            {"guildhall": ["red weaver"]},
        ]
    )
    _act(st, kind="play", card=parse_card("red trader"))
    _act(st, kind="use", level=0)
    out["target"] = (st, "choose the other player")
    return out


POSITIONS = _positions()


class TestDecisions:
    @pytest.mark.parametrize("name", POSITIONS)
    def test_each_kind_of_decision_offers_its_legal_actions(self, alice, bob, charlie, name):
        state, prompt = POSITIONS[name]
        users = [alice, bob, charlie][: len(state.players)]
        game = game_from_state(state.clone(), users)
        seat = decision(state)["player"]
        v = view(state, seat)

        content = client_for(users[seat]).get(board_url(game)).content

        expected = v["legal_actions"] + ([{"kind": "undo"}] if v["can_undo"] else [])
        assert sorted(map(_key, offered(content))) == sorted(map(_key, expected))
        assert prompt in html.unescape(content.decode())

        # Each offered action is accepted, and moves the game on.
        choice = v["legal_actions"][-1]
        response = post_move(client_for(users[seat]), game, choice)
        assert response.status_code == 200, response.content.decode()[:2000]
        assert Game.objects.get(pk=game.pk).version == 1


class TestMoves:
    def test_htmx_gets_the_new_board(self, client, alice, game):
        client.force_login(alice)
        card = viewing.game_state(game).players[0].hand[0]

        response = post_move(client, game, {"kind": "discard", "card": card})

        assert response.status_code == 200
        assert response.content.decode().lstrip().startswith('<div id="board"')
        game.refresh_from_db()
        assert game.version == 1
        assert card in viewing.game_state(game).discard

    def test_without_htmx_it_redirects_to_the_board(self, client, alice, game):
        client.force_login(alice)

        response = post_move(client, game, {"kind": "done"}, htmx=False)

        assert response.status_code == 302
        assert response.url == board_url(game)
        assert Game.objects.get(pk=game.pk).version == 1

    def test_it_rejects_a_stale_version_and_changes_nothing(self, client, alice, game):
        client.force_login(alice)
        post_move(client, game, {"kind": "done"})  # version 0 -> 1
        snapshot = Game.objects.get(pk=game.pk).snapshot

        response = post_move(client, game, {"kind": "done"}, version=0)

        assert response.status_code == 409
        assert "The game changed before your move arrived" in response.content.decode()
        game.refresh_from_db()
        assert game.version == 1
        assert game.snapshot == snapshot
        assert Move.objects.filter(game=game).count() == 1

    def test_a_stale_page_without_htmx_gets_the_whole_page(self, client, alice, game):
        client.force_login(alice)
        post_move(client, game, {"kind": "done"})

        response = post_move(client, game, {"kind": "done"}, version=0, htmx=False)

        assert response.status_code == 409
        assert response.content.decode().startswith("<!DOCTYPE html>")

    def test_it_shows_the_engine_message_for_an_illegal_action(self, client, alice, game):
        client.force_login(alice)
        card = viewing.game_state(game).players[1].hand[0]  # Bob's card

        response = post_move(client, game, {"kind": "discard", "card": card})

        assert response.status_code == 400
        assert "That card is not in your hand. Nothing was done." in response.content.decode()
        game.refresh_from_db()
        assert game.version == 0
        assert not Move.objects.filter(game=game).exists()

    def test_it_rejects_an_action_it_cannot_read(self, client, alice, game):
        client.force_login(alice)

        response = client.post(move_url(game), {"action": "{nope", "version": "0"})

        assert response.status_code == 400
        assert "That move could not be read." in response.content.decode()

    def test_it_enforces_csrf(self, alice, game):
        client = Client(enforce_csrf_checks=True)
        client.force_login(alice)
        data = {"action": '{"kind":"done"}', "version": "0"}

        refused = client.post(move_url(game), data)
        page = client.get(board_url(game)).content.decode()
        token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page).group(1)
        done = client.post(move_url(game), {**data, "csrfmiddlewaretoken": token})

        assert refused.status_code == 403
        assert done.status_code == 302
        assert Game.objects.get(pk=game.pk).version == 1

    def test_it_accepts_the_csrf_token_of_the_htmx_header(self, alice, game):
        client = Client(enforce_csrf_checks=True)
        client.force_login(alice)
        page = client.get(board_url(game)).content.decode()
        token = re.search(r"hx-headers='\{\"X-CSRFToken\": \"([^\"]+)\"\}'", page).group(1)

        response = client.post(
            move_url(game),
            {"action": '{"kind":"done"}', "version": "0"},
            headers={"HX-Request": "true", "X-CSRFToken": token},
        )

        assert response.status_code == 200

    def test_undo_takes_back_the_last_step(self, client, alice, game):
        client.force_login(alice)
        card = viewing.game_state(game).players[0].hand[0]
        board = post_move(client, game, {"kind": "discard", "card": card}).content
        game.refresh_from_db()
        assert {"kind": "undo"} in offered(board)

        response = post_move(client, game, {"kind": "undo"})

        assert response.status_code == 200
        game.refresh_from_db()
        assert game.version == 2
        assert card in viewing.game_state(game).players[0].hand
        assert {"kind": "undo"} not in offered(response.content)

    def test_the_end_of_a_turn_is_confirmed_with_a_button(self, client, alice, bob):
        state = build(
            players=[{"hand": ["red trader"]}, {"hand": ["red assassin"]}], actions_left=0
        )
        game = game_from_state(state, [alice, bob])
        client.force_login(alice)

        content = client.get(board_url(game)).content.decode()

        assert "No actions left: end your turn" in content
        assert "End turn</button>" in content
        assert offered(content.encode()) == [{"kind": "end_turn"}]


class TestPoll:
    def test_it_answers_204_while_nothing_changed(self, client, alice, game):
        client.force_login(alice)

        response = client.get(poll_url(game), headers={"HX-Request": "true"})

        assert response.status_code == 204

    def test_it_sends_the_new_board_when_the_game_changed(self, client, alice, bob, game):
        client.force_login(bob)
        token = poll_token_of(game, None)
        post_move(client_for(alice), game, {"kind": "done"})

        response = client.get(poll_url(game, token), headers={"HX-Request": "true"})

        assert response.status_code == 200
        content = response.content.decode()
        assert content.lstrip().startswith('<div id="board"')
        assert 'data-version="1"' in content

    def test_the_end_takes_the_concede_and_cancel_buttons_away(self, client, alice, bob, game):
        # Issue 26.3: the buttons outside #board come with the new board (hx-swap-oob), so
        # that an open page offers no "Vote to cancel" once the game has ended.
        client.force_login(alice)
        token = poll_token_of(game, None)
        post_move(client_for(alice), game, {"kind": "done"})
        during = client.get(poll_url(game, token), headers={"HX-Request": "true"})
        assert f'id="game-actions-{game.pk}" hx-swap-oob="true"' in during.content.decode()
        assert "Vote to cancel the game" in during.content.decode()
        game.refresh_from_db()
        token = poll_token_of(game, None)

        moves.do_concede(game.pk, bob)
        response = client.get(poll_url(game, token), headers={"HX-Request": "true"})

        content = response.content.decode()
        assert response.status_code == 200
        assert f'id="game-actions-{game.pk}" hx-swap-oob="true"' in content
        assert "Vote to cancel" not in content
        assert "concede this game" not in content

    def test_it_marks_the_seat_as_seen(self, client, alice, game):
        client.force_login(alice)

        client.get(poll_url(game), headers={"HX-Request": "true"})

        seat = Seat.objects.get(game=game, user=alice)
        assert seat.last_seen_at is not None

    def test_it_costs_few_queries(self, client, alice, game, django_assert_num_queries):
        client.force_login(alice)
        client.get(poll_url(game))  # the first poll writes last_seen_at

        # The session, the user, the game's version with the seat's last_seen_at.
        with django_assert_num_queries(3):
            response = client.get(poll_url(game), headers={"HX-Request": "true"})

        assert response.status_code == 204

    @pytest.mark.parametrize("language", ["en", "de"])
    def test_a_game_under_way_is_polled_every_three_seconds(self, client, alice, game, language):
        client.force_login(alice)

        content = client.get(board_url(game), headers={"Accept-Language": language}).content
        # Whole milliseconds: a period written "0,25s" in German would be read as 0.
        assert 'hx-trigger="every 3000ms' in content.decode()

    def test_a_finished_game_is_not_polled(self, client, alice, game):
        Game.objects.filter(pk=game.pk).update(status=Game.Status.CANCELLED)
        client.force_login(alice)

        content = client.get(board_url(game)).content.decode()

        assert 'class="poll"' not in content
        assert "Cancelled" in content


class TestQueries:
    def test_the_board_costs_the_same_after_few_and_many_moves(self, alice, bob, monkeypatch):
        # One deal, so that the reads are the same in every run (the log's newest turns, for
        # one, are one read of 24 records unless a turn is longer).
        monkeypatch.setattr(invitations, "seed_random", FixedSeed(20261128))
        rand = random.Random(11)
        game = start_game(alice, bob)
        other = start_game(alice, bob)
        for _ in range(5):
            game = play_one(game, rand)
        for _ in range(150):
            other = play_one(other, rand)
        assert Move.objects.filter(game=other).count() >= 150
        client = client_for(alice)
        for g in (game, other):
            client.get(board_url(g))  # the first visit writes last_seen_at
            caches["pages"].clear()

            # Rendered: session, user, the seats (with the game's version: the page's key),
            # then the game (the seats are not read again while it is the version they
            # said) and the last moves; when the game waits for others, how many of Alice's
            # games wait for her.
            waiting = not Seat.objects.get(game=g, user=alice).deciding
            sql = _queries(client, board_url(g))
            assert len(sql) == 5 + waiting, "\n".join(sql)
            # Asked for again: rendered as dearly, and stored (page_cache: a page is kept
            # once it is asked for a second time).
            sql = _queries(client, board_url(g))
            assert len(sql) == 5 + waiting, "\n".join(sql)
            # The same board again comes from the cache: session, user, the seats.
            sql = _queries(client, board_url(g))
            assert len(sql) == 3, "\n".join(sql)


def _queries(client: Client, url: str) -> list[str]:
    """The SQL of the queries a GET of ``url`` makes (CI runs without -v: a failure shows
    them this way)."""
    with CaptureQueriesContext(connection) as captured:
        client.get(url)
    return [q["sql"] for q in captured.captured_queries]


def _weighted(actions: list[dict], rand: random.Random) -> dict:
    weights = [_WEIGHTS.get(a["kind"], 1.0) for a in actions]
    return rand.choices(actions, weights)[0]


@pytest.mark.usefixtures("moves_at_machine_speed")
class TestAWholeGame:
    @pytest.mark.parametrize("seed", [1])
    def test_a_game_is_played_to_its_end_through_the_board(self, alice, bob, game, seed):
        """Every decision is read from the page (its buttons) and posted as htmx does."""
        clients = {alice.pk: client_for(alice), bob.pk: client_for(bob)}
        rand = random.Random(seed)
        decisions = 0
        while game.status != Game.Status.FINISHED:
            client = clients[user_to_move(game).pk]
            board = client.get(board_url(game), headers={"HX-Request": "true"}).content
            actions = [a for a in offered(board) if a["kind"] != "undo"]
            legal = view(viewing.game_state(game), to_move(game))["legal_actions"]
            assert sorted(map(_key, actions)) == sorted(map(_key, legal))
            response = post_move(client, game, _weighted(actions, rand))
            assert response.status_code == 200, response.content.decode()[:2000]
            game.refresh_from_db()
            decisions += 1
            assert decisions < 3000

        content = clients[alice.pk].get(board_url(game)).content.decode()
        assert "Result" in content
        assert "The game is over." in content
        assert 'class="poll"' not in content
        assert game.version == Move.objects.filter(game=game).count()


class TestTheSeatsReadOnce:
    """A fresh board reads the seats once, and again only when a move landed between the
    page's key and the render (games.web.board._render_fresh)."""

    def counted_reads(self, monkeypatch, first=None) -> list:
        from games.reads import board as board_reads

        real = board_reads.seats
        calls: list = []

        def seats(game_id, now):
            calls.append(game_id)
            return first if first is not None and len(calls) == 1 else real(game_id, now)

        monkeypatch.setattr(board_reads, "seats", seats)
        return calls

    def test_once_while_the_game_stands_still(self, game, alice, monkeypatch):
        client = client_for(alice)
        client.get(board_url(game))  # the first visit writes last_seen_at
        caches["pages"].clear()
        calls = self.counted_reads(monkeypatch)

        client.get(board_url(game))

        assert len(calls) == 1

    def test_again_when_a_move_landed_in_between(self, game, alice, monkeypatch):
        from django.utils import timezone

        from games.reads import board as board_reads

        before = board_reads.seats(game.pk, timezone.now())
        game = play_one(game, random.Random(2))
        calls = self.counted_reads(monkeypatch, first=before)

        page = client_for(alice).get(board_url(game)).content.decode()

        assert len(calls) == 2
        assert f'data-version="{game.version}"' in page
