"""No hidden card in an error (issue 46): a refused action's answer and every log line it
causes name no card of a hand or of the deck, whatever card the action names (another
player's, one in the deck, no card at all); a stored state that is broken is refused with
a message naming the places, never the cards (it reaches the log and Sentry).

Real parts: the API, the engines, the database and the log records of every logger.
"""

from __future__ import annotations

import logging
import random
import re

import pytest

from games.models import Game, Seat
from games.play import moves
from games.reads import viewing
from tests.games.api_helpers import Api, game_url
from tests.games.helpers import deciding, start_game

pytestmark = pytest.mark.django_db

NO_CARD = 99999


@pytest.fixture(autouse=True)
def _unthrottled(settings):
    settings.API_THROTTLE_RATES = {
        **settings.API_THROTTLE_RATES,
        "api": "100000/minute",
        "actions": "100000/minute",
    }


def named(text: str, cards: set[int]) -> set[int]:
    """The cards of ``cards`` that ``text`` names as a number."""
    return {int(n) for n in re.findall(r"(?<![\w/])-?\d+(?![\w/])", text)} & cards


def a_card_decision(game: Game, rand: random.Random) -> tuple[int, list[dict]]:
    """Plays on (random legal actions) until a seat may act with a card of its hand: the seat
    and those actions."""
    for _ in range(200):
        game.refresh_from_db()
        state = viewing.game_state(game)
        for seat in deciding(game):
            actions = game.game_kind.legal_actions(state, seat)
            with_card = [a for a in actions if "card" in a]
            if with_card:
                return seat, with_card
        seat = deciding(game)[0]
        user = Seat.objects.get(game=game, number=seat).user
        action = rand.choice(game.game_kind.legal_actions(state, seat))
        moves.do_submit_action(game.pk, user, action, game.version)
    raise AssertionError("no decision with a card came")


@pytest.mark.parametrize("kind", ["guildhall", "renaissance"])
def test_a_refused_card_is_named_in_no_answer_and_no_log_line(kind, alice, bob, caplog):
    game = start_game(alice, bob, kind=kind)
    seat, actions = a_card_decision(game, random.Random(46))
    game.refresh_from_db()
    state = viewing.game_state(game)
    hidden = {c for q, p in enumerate(state.players) if q != seat for c in p.hand}
    hidden |= set(state.deck)
    own = set(state.players[seat].hand)
    api = Api(Seat.objects.get(game=game, number=seat).user)
    tried = sorted(hidden)[:6] + [NO_CARD, -1]
    caplog.set_level(logging.DEBUG)

    for action in {a["kind"]: a for a in actions}.values():
        for card in tried:
            response = api.post(
                game_url(game.pk, "actions"),
                {"version": game.version, "action": {**action, "card": card}},
            )
            assert response.status_code == 400, response.content
            answer = response.json()
            assert answer["rule"] in ("card_not_in_hand", "not_picked", "not_a_choice")
            assert not named(answer["message"], hidden | own | {NO_CARD, -1}), answer

    lines = [record.getMessage() for record in caplog.records]
    assert lines  # (each refusal is logged as a bad request)
    for line in lines:
        assert not named(line, hidden | own | {NO_CARD}), line
    game.refresh_from_db()
    assert viewing.game_state(game).players[seat].hand == state.players[seat].hand


@pytest.mark.parametrize("kind", ["guildhall", "renaissance"])
def test_a_broken_stored_state_names_places_not_cards(kind, alice, bob):
    game = start_game(alice, bob, kind=kind)
    good = game.snapshot
    state = viewing.game_state(game)
    # Cards whose number is no seat's, no count's: named only if the message names a card.
    in_deck, gone_card = [c for c in state.deck if c >= 20][:2]

    def twice(data: dict) -> int:
        data["players"][0]["hand"].append(in_deck)
        return in_deck

    def gone(data: dict) -> int:
        data["deck"].remove(gone_card)
        return gone_card

    def no_such(data: dict) -> int:
        data["players"][0]["hand"].append(NO_CARD)
        return NO_CARD

    for change in (twice, gone, no_such):
        data = {**good, "players": [dict(p) for p in good["players"]], "deck": good["deck"][:]}
        for p in data["players"]:
            p["hand"] = p["hand"][:]
        card = change(data)
        with pytest.raises(ValueError) as caught:
            game.game_kind.from_json(data)
        message = str(caught.value)
        assert not named(message, {card}), (change.__name__, message)
        assert re.search(r"hand|deck|missing|nowhere", message), message
