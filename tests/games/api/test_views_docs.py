"""The bot of docs/api.md, run as written against a live server: two bots play a game."""

import random
import re
from pathlib import Path

import pytest
from django.conf import settings

from accounts.tokens import do_create_token
from games.models import Game
from tests.games.helpers import start_game

DOC = Path(settings.BASE_DIR) / "docs" / "api.md"


def bot_code() -> str:
    text = DOC.read_text()
    section = text[text.index("## A bot") :]
    return re.search(r"```python\n(.*?)```", section, re.S).group(1)


def make_bot(base: str, token: str) -> dict:
    namespace = {"__name__": "bot"}
    exec(bot_code(), namespace)  # our own documentation, run as written
    namespace["BASE"], namespace["TOKEN"] = base, token
    return namespace


@pytest.mark.django_db(transaction=True)
def test_the_documented_bot_plays(live_server, alice, bob):
    game = start_game(alice, bob)
    bots = [
        make_bot(f"{live_server.url}/api/v1", do_create_token(u, "bot")[1]) for u in (alice, bob)
    ]
    rand = random.Random(1)
    moves = 0
    for _ in range(20):
        for bot in bots:
            moves += bot["play_one_round"](rand)
    game.refresh_from_db()
    # Each round, whoever decides makes one move.
    assert moves >= 20 and game.version == moves
    status, page = bots[0]["call"]("GET", "/games/")
    assert status == 200 and page["results"][0]["id"] == game.pk
    status, error = bots[0]["call"]("POST", f"/games/{game.pk}/actions/", {"version": 0})
    assert status == 400 and error["code"] == "invalid"
    assert Game.objects.get(pk=game.pk).version == game.version
