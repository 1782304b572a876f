"""The registry: the site offers the games that registered themselves."""

from __future__ import annotations

import dataclasses

import pytest

from games.core import registry
from games.guildhall.game import GUILDHALL
from tests.goofspiel.game import GOOFSPIEL


def test_the_games_under_games_register_themselves():
    registry.discover("games")

    assert registry.get("guildhall") is GUILDHALL


def test_the_tests_offer_their_proof_game_too():
    # By name: the site's two games and the tests' own.
    assert [g.id for g in registry.all_games()] == ["goofspiel", "guildhall", "renaissance"]
    assert registry.get("goofspiel") is GOOFSPIEL


@pytest.mark.parametrize("game_id", ["chess", "", None, ["guildhall"]])
def test_an_unknown_game_is_refused(game_id):
    with pytest.raises(registry.UnknownGame):
        registry.get(game_id)


def test_two_games_may_not_share_an_id():
    impostor = dataclasses.replace(GUILDHALL)  # equal in every part, but another object

    with pytest.raises(ValueError):
        registry.register(impostor)
    registry.register(GUILDHALL)  # the same object again is fine
