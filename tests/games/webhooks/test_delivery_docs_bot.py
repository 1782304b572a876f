"""The webhook bot of docs/api.md, run as written against a live server: two such bots play a
game of each game from the invitation to its end, each told of its turns by webhook (no poll
of the API), their receivers checking every delivery's signature.

To keep the suite fast the first bot concedes after ``RESIGN_AFTER`` of its choices (a random
game of either lasts some 300 moves, 20 to 30 s each here on a loaded machine): the game
still ends, and both bots hear of it by webhook like of every turn before it. The games
played through webhooks to their natural end are those of the bots on a generated client
(``tests/games/api/test_schema_generated_client.py``); ``RESIGN_AFTER = None`` plays these to it
too."""

import random
import re
from pathlib import Path

import pytest
from django.conf import settings

from accounts.tokens import do_create_token
from games.guildhall import random_player as guildhall_player
from games.models import Game
from games.renaissance import random_player as renaissance_player
from tests.mailserver import free_port
from tests.webhookserver import bots_allowed  # noqa: F401 (a fixture)

DOC = Path(settings.BASE_DIR) / "docs" / "api.md"
# Weighted random choices that make random games end (docs/api.md: "a real bot thinks here").
CHOOSERS = {
    "guildhall": lambda legal, rand: guildhall_player.choose(None, rand, legal["actions"]),
    "renaissance": lambda legal, rand: renaissance_player.choose(None, 0, rand, legal["actions"]),
}


def bot_code() -> str:
    text = DOC.read_text()
    section = text[text.index("## A bot that waits for webhooks") :]
    return re.search(r"```python\n(.*?)```", section, re.S).group(1)


RESIGN_AFTER = 25


def conceding(choose, after: int | None):
    """``choose``, until it has chosen ``after`` times: then a concession."""
    made = [0]

    def chooser(legal, rand):
        made[0] += 1
        if after is not None and made[0] > after:
            return {"kind": "resign"}
        return choose(legal, rand)

    return chooser


def make_bot(base: str, user, kind: str, resign_after: int | None = None) -> dict:
    namespace = {"__name__": "bot"}
    exec(bot_code(), namespace)  # our own documentation, run as written
    port = free_port()
    namespace.update(
        BASE=base,
        TOKEN=do_create_token(user, "webhook bot")[1],
        PUBLIC_URL=f"http://127.0.0.1:{port}/hook",
        HOST="127.0.0.1",
        PORT=port,
        choose=conceding(CHOOSERS[kind], resign_after),
    )
    return namespace


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("kind", ["guildhall", "renaissance"])
def test_two_documented_webhook_bots_play_a_game_to_its_end(
    live_server,
    bots_allowed,  # noqa: F811 (the fixture imported above)
    alice,
    bob,
    kind,
):
    base = f"{live_server.url}/api/v1"
    bots = [make_bot(base, alice, kind, RESIGN_AFTER), make_bot(base, bob, kind)]
    servers = [bot["start"]()[1] for bot in bots]
    try:
        status, invitation = bots[0]["call"](
            "POST", "/invitations/", {"game": kind, "players": 2, "invitees": ["bob"]}
        )
        assert status == 201, invitation
        rand = random.Random(7)
        heard: list[list[str]] = [[], []]
        # Each delivery is made (inline, after the commit) before the request that caused
        # it is answered: an empty queue on both sides means nobody was told of a turn.
        for _ in range(20_000):
            pending = [i for i, bot in enumerate(bots) if not bot["events"].empty()]
            if not pending:
                break
            for i in pending:
                heard[i].append(bots[i]["handle"](bots[i]["events"].get_nowait(), rand))
        game = Game.objects.get(kind=kind)
        assert game.status == Game.Status.FINISHED, (game, heard)
        assert heard[1][0] == "invitation"
        for events in heard:
            assert events.count("game_over") == 1 and events.count("game_started") == 1
            assert events.count("turn") >= 1
        assert sum(events.count("turn") for events in heard) >= 4
        assert game.seats.get(user=alice).resigned
    finally:
        for server in servers:
            server.shutdown()
            server.server_close()


@pytest.mark.django_db(transaction=True)
def test_the_documented_bot_restarts_with_the_same_hook(
    live_server,
    bots_allowed,  # noqa: F811 (the fixture imported above)
    alice,
):
    """Stopped and started again with the same token and address, the bot gets the same
    hook (200) with a new secret, and its new receiver takes the deliveries signed with it."""
    from games.webhooks.models import Webhook

    base = f"{live_server.url}/api/v1"
    first = make_bot(base, alice, "guildhall")
    hook, server = first["start"]()
    server.shutdown()
    server.server_close()
    again = {"__name__": "bot"}
    exec(bot_code(), again)  # our own documentation, run as written: a new process
    again.update({k: first[k] for k in ("BASE", "TOKEN", "PUBLIC_URL", "HOST", "PORT")})
    try:
        rehook, server = again["start"]()
        assert rehook["id"] == hook["id"] and rehook["secret"] != hook["secret"]
        assert Webhook.objects.filter(user=alice).count() == 1
        status, _delivery = again["call"]("POST", f"/webhooks/{hook['id']}/ping/")
        assert status == 202
        assert again["events"].get(timeout=30)["event"] == "ping"  # signed with the new one
    finally:
        server.shutdown()
        server.server_close()
