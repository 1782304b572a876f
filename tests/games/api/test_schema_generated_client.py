"""A client nobody here wrote: openapi-python-client generates a Python package from the
site's schema, and bots built on it alone (its typed models and endpoints, no JSON of ours;
they play with the code of docs/api.md, "A generated client", run as written) play a whole
game of each game to its natural end, each told of its turns by webhook: a loopback receiver
(``tests/webhookserver.py``) checks every delivery's signature, and no bot ever reads the
list of its games.

Every answer is decoded by the generated models, and then checked against their type hints
(the generated code falls back to the raw JSON where a nullable choice fails to decode, so
a decode that went wrong shows there): an answer that disagrees with the schema fails.

Both seats are such bots, choosing with the games' own weighted random players (weights
that make random games end): some 300 moves a game.
"""

from __future__ import annotations

import enum
import importlib
import json
import random
import re
import subprocess
import sys
import types
from functools import cache
from pathlib import Path
from typing import Any, Union, get_args, get_origin, get_type_hints

import attrs
import pytest
from django.conf import settings

from accounts.tokens import do_create_token
from games.core import registry
from games.guildhall import random_player as guildhall_player
from games.models import Game
from games.play import invitations
from games.renaissance import random_player as renaissance_player
from games.webhooks.models import Webhook
from tests.games.api_validation import openapi
from tests.games.helpers import start_game
from tests.games.webhooks.test_delivery_docs_bot import bot_code, make_bot
from tests.seeds import FixedSeed
from tests.webhookserver import bots_allowed, receiver  # noqa: F401 (fixtures)

PACKAGE = "guildhall_api_client"  # the name openapi-python-client gives it (docs/api.md)
DOC = Path(settings.BASE_DIR) / "docs" / "api.md"
GAME_SEEDS = {"guildhall": 2, "renaissance": 3}
CHOOSERS = {
    "guildhall": lambda actions, rand: guildhall_player.choose(None, rand, actions),
    "renaissance": lambda actions, rand: renaissance_player.choose(None, 0, rand, actions),
}


@pytest.fixture(scope="session")
def client_package(tmp_path_factory) -> types.ModuleType:
    """The package openapi-python-client generates from the schema /api/schema/ serves
    (no post hooks: no formatter is needed to import it), imported."""
    where = tmp_path_factory.mktemp("client")
    schema = where / "schema.json"
    schema.write_text(json.dumps(openapi()))
    config = where / "config.yaml"
    config.write_text("post_hooks: []\n")
    command = Path(sys.executable).parent / "openapi-python-client"
    subprocess.run(
        [command, "generate", "--path", schema, "--config", config, "--meta", "none"]
        + ["--output-path", where / PACKAGE],
        check=True,
        capture_output=True,
    )
    sys.path.insert(0, str(where))
    try:
        for module in ("client", "models"):
            importlib.import_module(f"{PACKAGE}.{module}")
        return importlib.import_module(PACKAGE)
    finally:
        sys.path.remove(str(where))


# Checking a decoded answer against the generated type hints ----------------------------------


@cache
def _hints(cls: type) -> dict[str, Any]:
    """A generated model's field types (the models name each other only for type checkers:
    the package's namespace resolves them)."""
    package = sys.modules[cls.__module__.rsplit(".", 1)[0]]
    namespace = {**vars(package), **vars(sys.modules[cls.__module__])}
    return get_type_hints(cls, globalns=namespace)


def misfits(value: Any, hint: Any, where: str = "answer") -> list[str]:
    """Where ``value`` is not of type ``hint`` (empty if it is)."""
    origin, args = get_origin(hint), get_args(hint)
    if hint is Any:
        return []
    if origin in (Union, types.UnionType):
        found = [misfits(value, arg, where) for arg in args]
        return [] if [] in found else [f"{where}: {value!r} is none of {hint}"]
    if origin is list:
        if not isinstance(value, list):
            return [f"{where}: {value!r} is not a list"]
        return [m for i, v in enumerate(value) for m in misfits(v, args[0], f"{where}[{i}]")]
    if origin is dict:
        if not isinstance(value, dict):
            return [f"{where}: {value!r} is not an object"]
        return [m for k, v in value.items() for m in misfits(v, args[1], f"{where}.{k}")]
    if hint is type(None):
        return [] if value is None else [f"{where}: {value!r} is not null"]
    if hint is float:
        ok = isinstance(value, int | float) and not isinstance(value, bool)
        return [] if ok else [f"{where}: {value!r} is not a number"]
    if hint in (int, str, bool):
        ok = type(value) is hint
        return [] if ok else [f"{where}: {value!r} is not {hint.__name__}"]
    if isinstance(hint, type) and attrs.has(hint):
        if type(value) is not hint:
            return [f"{where}: {type(value).__name__} is not {hint.__name__}"]
        return [
            m
            for name, field_hint in _hints(hint).items()
            for m in misfits(getattr(value, name), field_hint, f"{where}.{name}")
        ]
    if isinstance(hint, type):  # an enum, Unset, a date
        return [] if isinstance(value, hint) else [f"{where}: {value!r} is not {hint.__name__}"]
    raise TypeError(f"{where}: no check for {hint!r}")


def decoded(response, status: int):
    """The answer the generated client decoded, which must have ``status`` and fit its type
    exactly (a model, not JSON it gave up on)."""
    assert response.status_code == status, (response.status_code, response.content[:500])
    answer = response.parsed
    assert answer is not None
    assert not misfits(answer, type(answer)), misfits(answer, type(answer))[:5]
    assert attrs.has(type(answer)) and not isinstance(answer, enum.Enum)
    return answer


# The bot ---------------------------------------------------------------------------------------


class Bot:
    """A player built on the generated client alone, waiting for webhooks."""

    EVENTS = ("turn", "game_started", "game_over", "invitation")

    def __init__(self, package, base: str, token: str, choose) -> None:
        self.package, self.choose = package, choose
        self.requests: list[str] = []  # "GET /api/v1/...", each request made
        self.heard: list[str] = []
        self.client = package.client.AuthenticatedClient(
            base_url=base,
            token=token,  # sent as "Authorization: Bearer <token>"
            raise_on_unexpected_status=True,
            httpx_args={"event_hooks": {"request": [self._record]}},
        )

    def _record(self, request) -> None:
        self.requests.append(f"{request.method} {request.url.path}")

    def endpoint(self, name: str):
        return importlib.import_module(f"{self.package.__name__}.api.{name}")

    def register(self, url: str, again: int | None = None) -> str:
        """A webhook for this bot's token (and no turn emails: the webhook tells it); the
        hook's secret. ``again``: the id of the hook registered before a restart, which
        the site gives back (200) with a new secret."""
        models = self.package.models
        quiet = models.PatchedPreferencesRequest(turn_emails=models.TurnEmailsEnum.NEVER)
        preferences = self.endpoint("account.preferences_update")
        assert (
            decoded(preferences.sync_detailed(client=self.client, body=quiet), 200).turn_emails
            == models.TurnEmailsEnum.NEVER
        )
        body = models.WebhookCreateRequest(
            url=url, events=[models.EventsEnum(event) for event in self.EVENTS]
        )
        hook = decoded(
            self.endpoint("webhooks.webhooks_create").sync_detailed(client=self.client, body=body),
            201 if again is None else 200,
        )
        assert hook.events == [models.EventsEnum(e) for e in self.EVENTS]
        assert again is None or hook.id == again
        self.hook = hook.id
        return hook.secret

    def invite(self, kind: str, username: str) -> int:
        models = self.package.models
        body = models.InvitationCreateRequest(
            game=models.GameId(kind), players=2, invitees=[username]
        )
        made = self.endpoint("invitations.invitation_create").sync_detailed(
            client=self.client, body=body
        )
        return decoded(made, 201).id

    def handle(self, event: dict, rand: random.Random) -> None:
        """One delivery (its JSON: deliveries are not API answers)."""
        self.heard.append(event["event"])
        if event["event"] in ("turn", "game_started"):
            self.play(event["game"], rand)
        elif event["event"] == "invitation":
            accept = self.endpoint("invitations.invitation_accept")
            decoded(accept.sync_detailed(event["invitation"], client=self.client), 200)

    def play(self, game_id: int, rand: random.Random) -> None:
        """Act while the game waits for a choice of mine: ``play`` of docs/api.md ("A
        generated client"), run as written, each of its answers checked."""

        self.documented["play"](game_id, self._chooser(rand))

    def resume(self, rand: random.Random) -> None:
        """At a (re)start: ``resume`` of docs/api.md, run as written."""
        self.documented["resume"](self._chooser(rand))

    def _chooser(self, rand: random.Random):
        def choose(actions):  # the policy reads JSON; the bot sends the models it chose
            as_json = [action.to_dict() for action in actions]
            chosen = self.choose(as_json, rand)
            return actions[next(i for i, a in enumerate(as_json) if a is chosen)]

        return choose

    @property
    def documented(self) -> dict:
        """The namespace of the documented code, on this bot's client, with every answer
        its endpoints give checked (``decoded``)."""
        if not hasattr(self, "_documented"):
            text = DOC.read_text()
            section = text[text.index("## A generated client") :]
            code = re.search(r"```python\n(.*?)```", section, re.S).group(1)
            namespace: dict = {"__name__": "documented", "TOKEN": "guild_..."}
            exec(code, namespace)  # our own documentation, run as written
            namespace["client"] = self.client
            for name, status in (
                ("game_actions_list", 200),
                ("game_action_submit", 201),
                ("games_list", 200),
            ):
                namespace[name] = Checked(namespace[name], status)
            self._documented = namespace
        return self._documented


class Checked:
    """An endpoint module of the generated client whose ``sync`` answers are checked: the
    expected status (or a 409 with ``stale_version``), decoded into models that fit their
    types."""

    def __init__(self, module, status: int) -> None:
        self.module, self.status = module, status

    def sync(self, *args, **kwargs):
        response = self.module.sync_detailed(*args, **kwargs)
        if response.status_code == 409:
            answer = decoded(response, 409)
            assert answer.code.value == "stale_version"
            return answer
        return decoded(response, self.status)


# After how many deliveries a bot is stopped and started again (at its next turn told).
RESTART_AFTER = 6


def _restart_at_turn(handled: int, restarted: bool, event: dict) -> bool:
    return not restarted and handled >= RESTART_AFTER and event["event"] == "turn"


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("kind", ["guildhall", "renaissance"])
def test_a_generated_client_and_the_docs_bot_play_a_game_to_its_end_restarted_midway(
    monkeypatch,
    client_package,
    live_server,
    receiver,  # noqa: F811 (the fixture imported above)
    bots_allowed,  # noqa: F811 (likewise)
    alice,
    bob,
    kind,
):
    """Alice is a bot on the generated client, Bob the webhook bot of docs/api.md, both run
    as written. Midway each is stopped as its turn is told (that delivery dies with it) and
    started again from nothing but its token: a new client (a new namespace of the docs'
    code for Bob) registers its hook again, gets the same one with a new secret, and finds
    the game that waits for it through the API. The game goes on to its natural end."""
    # The game's seed (and so, with the bots' own, the whole game) is fixed: one of the
    # shorter games of a few tried, so that the test takes a steady time.
    monkeypatch.setattr(invitations, "seed_random", FixedSeed(GAME_SEEDS[kind]))
    # (127.0.0.1: "localhost" may be tried on IPv6 first, for every connection.)
    base = live_server.url.replace("localhost", "127.0.0.1")
    token = do_create_token(alice, "generated client")[1]

    def start_alice(again: int | None = None) -> Bot:
        bot = Bot(client_package, base, token, CHOOSERS[kind])
        receiver.secrets["/alice"] = bot.register(receiver.url("/alice"), again)
        return bot

    def waits_for(user) -> bool:
        game = Game.objects.get(kind=kind)
        return game.is_active and game.seats.filter(user=user, deciding=True).exists()

    alice_bot = start_alice()
    first_alice = alice_bot
    bob_bot = make_bot(f"{base}/api/v1", bob, kind)
    bob_hook, bob_server = bob_bot["start"]()
    rand = random.Random(28)
    heard: dict[str, list[str]] = {"alice": [], "bob": []}
    restarted = {"alice": False, "bob": False}
    try:
        alice_bot.invite(kind, "bob")
        # Each delivery is made (inline, after the commit) before the request that caused
        # it is answered: empty queues mean nobody was told of anything more.
        while not (receiver.events.empty() and bob_bot["events"].empty()):
            if not receiver.events.empty():
                event = receiver.events.get_nowait().payload
                if _restart_at_turn(len(heard["alice"]), restarted["alice"], event):
                    restarted["alice"] = True  # the delivery dies with the old client
                    alice_bot = start_alice(again=alice_bot.hook)
                    assert waits_for(alice)  # the turn told, that the old client missed
                    alice_bot.resume(rand)
                    assert not waits_for(alice)  # found it through the API, and played
                    continue
                heard["alice"].append(event["event"])
                alice_bot.handle(event, rand)
            if not bob_bot["events"].empty():
                event = bob_bot["events"].get_nowait()
                if _restart_at_turn(len(heard["bob"]), restarted["bob"], event):
                    restarted["bob"] = True
                    bob_server.shutdown()
                    bob_server.server_close()
                    old, bob_bot = bob_bot, {"__name__": "bot"}
                    exec(bot_code(), bob_bot)  # our own documentation, run as written
                    bob_bot.update({k: old[k] for k in ("BASE", "TOKEN", "PUBLIC_URL", "HOST")})
                    bob_bot.update(PORT=old["PORT"], choose=old["choose"])
                    # Its catch-up chooses with a fresh random.Random(): seeded here, so that
                    # the game (and the test's time) is the same at every run.
                    bob_bot["random"] = types.SimpleNamespace(Random=lambda: random.Random(5))
                    assert waits_for(bob)
                    rehook, bob_server = bob_bot["start"]()  # it catches up by itself
                    assert rehook["id"] == bob_hook["id"] and rehook["secret"] != bob_hook["secret"]
                    assert not waits_for(bob)
                    continue
                heard["bob"].append(bob_bot["handle"](event, rand))
    finally:
        bob_server.shutdown()
        bob_server.server_close()
    assert not receiver.errors
    assert restarted == {"alice": True, "bob": True}, heard
    assert Webhook.objects.filter(user=alice).count() == Webhook.objects.filter(user=bob).count()
    assert Webhook.objects.count() == 2  # each bot's one hook, kept through its restart
    game = Game.objects.get(kind=kind)
    assert game.status == Game.Status.FINISHED
    assert not game.seats.filter(resigned=True).exists()  # the natural end
    assert heard["bob"][0] == "invitation"
    for events in heard.values():
        assert events.count("game_started") == 1 and events[-1] == "game_over"
        assert events.count("game_over") == 1 and "turn" in events
    for bot in (first_alice, alice_bot):
        # The game list is read once, at the restart: the webhooks said when to read a game.
        lists = [r for r in bot.requests if r.startswith("GET") and r.endswith("/games/")]
        assert len(lists) == (bot is alice_bot)
    sent = [
        r
        for b in (first_alice, alice_bot)
        for r in b.requests
        if r.startswith("POST /api/v1/games/")
    ]
    assert len(sent) > 25


@pytest.mark.django_db(transaction=True)
def test_the_generated_client_builds_and_sends_every_action_kind(
    client_package,
    live_server,
    bots_allowed,  # noqa: F811 (the fixture imported above)
    alice,
    bob,
):
    """Each game's example of each of its action kinds (from the schema) becomes the
    generated model of that kind, which the request decodes it as too, and is sent: the
    site reads its shape as an action of the game (the game is over, so nothing is done)."""
    models, schemas = client_package.models, openapi()["components"]["schemas"]
    token = do_create_token(alice, "generated client")[1]
    bot = Bot(client_package, live_server.url.replace("localhost", "127.0.0.1"), token, None)
    submit = bot.endpoint("games.game_action_submit")
    sent, expected = set(), set()
    for game in registry.all_games():
        members = schemas[game.action_component].get("oneOf", [])
        if not members:
            continue  # (a test game whose actions are one object: no model per kind)
        played = start_game(alice, bob, kind=game.id)
        Game.objects.filter(pk=played.pk).update(status=Game.Status.FINISHED)
        for member in members:
            name = member["$ref"].rsplit("/", 1)[1]
            action = getattr(models, name).from_dict(schemas[name]["example"])
            body = models.SubmitActionRequest(version=0, action=action)
            # Read back as the schema sent for its kind (`Action`'s): the game's own, or one
            # several games share (Action<Kind>), with the same fields.
            target = schemas["Action"]["discriminator"]["mapping"][action.kind.value]
            back = models.SubmitActionRequest.from_dict(body.to_dict()).action
            assert type(back) is getattr(models, target.rsplit("/", 1)[1])
            assert back.to_dict() == action.to_dict()
            error = decoded(submit.sync_detailed(played.pk, client=bot.client, body=body), 400)
            assert error.rule not in ("malformed_action", "unknown_action"), (name, error)
            sent.add(action.kind.value)
        expected |= set(schemas[game.action_component]["discriminator"]["mapping"])
    assert sent == expected and {"play", "hire", "place", "undo"} <= sent
