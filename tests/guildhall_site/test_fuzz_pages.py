"""Every form and query parameter of the site's pages, fed hostile values: never a 5xx.

schemathesis does this for the API from its schema (tests/games/api/test_schema_schemathesis.py);
the pages have no schema, so the list below names each page's parameters, read from its view
and form. Values: Unicode digits ("²" passes ``str.isdigit``), numbers too big for a database
column, negative and empty ones, NUL bytes, long text, JSON nested thousands deep, broken
percent-encodings, repeated parameters. People: a visitor, a seated player, an outsider and a
guest. A view that raises makes the test client raise, so a 5xx fails with its traceback.
"""

from __future__ import annotations

import json
import string
from urllib.parse import quote

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import settings as settings_
from hypothesis import strategies as st

from accounts.forms import ProfileForm
from accounts.services import do_create_guest
from games.models import Game, Move
from games.play import invitations
from tests.games.helpers import start_game
from tests.games.notifications.helpers import InOrder

HUGE = ["9" * 30, str(2**63), str(2**64 + 1), "-" + "9" * 30]
ODD_DIGITS = ["²", "٣", "１２", "⁹⁹", "1e9", "0x10", " 7", "+7", "7 ", "1_000"]
ODD_TEXT = ["", "\x00", "a\x00b", "a" * 5000, "💥", "null", "true", "[]", "{}", "-1", "0"]
DEEP_JSON = ['{"kind":' * 5000 + "1" + "}" * 5000, "[" * 5000 + "]" * 5000, '{"kind": NaN}']
# JSON that spells what no answer or database can hold: a lone surrogate, a NUL.
UNUSABLE_JSON = ['{"kind": "\\ud800"}', '{"\\udc00": 1}', '{"kind": "a\\u0000"}']
# Written into the query or body as they are: not percent-encodings of anything.
RAW = ["%", "%ff%fe", "%zz", "%00", "%C0%80", "%ED%A0%80"]

value = st.one_of(
    st.sampled_from(HUGE + ODD_DIGITS + ODD_TEXT + DEEP_JSON + UNUSABLE_JSON + RAW),
    st.text(max_size=40),
    st.text(alphabet=string.digits, min_size=1, max_size=25),
    st.integers(min_value=-(2**70), max_value=2**70).map(str),
)

# (method, path, parameters): {g} a game, {i} an invitation, {u} a username, {t} a token.
PAGES = [
    ("GET", "/", []),
    ("GET", "/games/next/", ["after"]),
    ("GET", "/games/{g}/", []),
    ("GET", "/games/{g}/poll/", ["v"]),
    ("POST", "/games/{g}/move/", ["action", "version"]),
    ("GET", "/games/{g}/actions/", []),
    ("POST", "/games/{g}/cancel-vote/", ["vote"]),
    ("POST", "/vacation/start/", ["days"]),
    ("POST", "/vacation/stop/", []),
    ("POST", "/quiet-hours/", ["start", "end", "off"]),
    ("GET", "/games/{g}/since/", []),
    ("POST", "/games/{g}/stand-in/", ["level"]),
    ("POST", "/games/{g}/stand-in/stop/", []),
    ("POST", "/stand-in/", ["level", "until"]),
    ("POST", "/stand-in/stop/", []),
    ("GET", "/lobby/", []),
    (
        "POST",
        "/lobby/new/",
        ["players", "rules", "advanced", "fantasy_names", "move_days", "invitees"],
    ),
    ("POST", "/invitations/{i}/accept/", ["next"]),
    ("POST", "/invitations/{i}/decline/", ["next"]),
    ("POST", "/invitations/{i}/withdraw/", ["next"]),
    ("GET", "/u/{u}/", []),
    ("POST", "/accounts/profile/", ProfileForm.Meta.fields),
    ("POST", "/accounts/guest/save/", ["username", "email", "password1", "password2"]),
    ("POST", "/accounts/tokens/", ["name"]),
    ("POST", "/accounts/tokens/{t}/revoke/", []),
    ("GET", "/emails/unsubscribe/{t}/", []),
    ("POST", "/emails/unsubscribe/{t}/", []),
    ("POST", "/accounts/login/", ["login", "password", "remember"]),
    ("POST", "/accounts/signup/", ["username", "email", "password1", "password2"]),
    ("POST", "/accounts/password/reset/", ["email"]),
    ("GET", "/accounts/confirm-email/{t}/", []),
    ("GET", "/api/v1/games/{g}/moves/", ["after", "page", "page_size"]),
    ("GET", "/api/v1/games/", ["my_turn", "status", "page"]),
    ("POST", "/push/preferences/", ["push_turn", "push_finished", "push_invitation"]),
    ("GET", "/push/devices/", []),
    ("POST", "/push/devices/{g}/remove/", []),
]


def _encode(name: str, text: str) -> str:
    return f"{name}={text if text in RAW else quote(text, safe='')}"


@st.composite
def requests(draw, ids: dict):
    method, path, names = draw(st.sampled_from(PAGES))
    path = path.format(
        g=draw(st.sampled_from([ids["game"], 0, "9" * 18, "9" * 30])),
        i=draw(st.sampled_from([ids["invitation"], "9" * 30])),
        u=quote(draw(st.sampled_from(["alice", *ODD_TEXT[1:4], "..", "%"])), safe=""),
        t=quote(draw(st.sampled_from(["x", "a" * 300, "%00", ".."])), safe=""),
    )
    pairs = []
    for name in names:
        if draw(st.booleans()):  # left out, given once, or given twice
            pairs += [_encode(name, draw(value)) for _ in range(draw(st.integers(1, 2)))]
    if draw(st.integers(0, 9)) == 0:
        pairs.append(_encode(draw(st.sampled_from(["x", "", "%ff"])), draw(value)))
    return method, path, "&".join(pairs), draw(st.sampled_from(["visitor", *ids["people"]]))


@pytest.fixture
def site(alice, bob, charlie, monkeypatch):
    monkeypatch.setattr(invitations, "seat_random", InOrder())
    game = start_game(alice, bob)
    invitation = invitations.do_create_invitation(alice, players=3)
    guest = do_create_guest()
    return {
        "game": game.pk,
        "invitation": invitation.pk,
        "people": {"alice": alice, "charlie": charlie, "guest": guest},
    }


@pytest.mark.django_db
def test_no_page_answers_a_server_error(site, client_factory):
    @settings(
        max_examples=400,
        deadline=None,
        derandomize=True,
        suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
    )
    @given(request=requests(site))
    def check(request):
        method, path, query, who = request
        client = client_factory()
        if who != "visitor":
            client.force_login(site["people"][who])
        if method == "GET":
            response = client.get(f"{path}?{query}" if query else path)
        else:
            response = client.post(
                path, data=query, content_type="application/x-www-form-urlencoded"
            )
        assert response.status_code < 500, (method, path, query[:200], who)

    check()
    # Whatever was refused changed nothing: the game is still its record.
    game = Game.objects.get(pk=site["game"])
    assert Move.objects.filter(game=game).count() == game.version


@pytest.fixture
def client_factory():
    from django.test import Client

    return Client


# The views that read a JSON body of their own (not the API's, which schemathesis covers).
JSON_PAGES = ["/push/subscribe/", "/push/renew/", "/push/answer/"]

json_leaf = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**70), max_value=2**70),
    st.text(max_size=30),
    st.sampled_from(["https://fcm.googleapis.com/x", "https://127.1:8444/a", "\x00"]),
)
json_value = st.recursive(
    json_leaf,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=12), inner),
    max_leaves=12,
)
# Bodies as they are sent: hostile JSON text, or a generated value (often almost a
# subscription) written as JSON.
json_body = st.one_of(
    st.sampled_from(
        DEEP_JSON
        + UNUSABLE_JSON
        + ODD_TEXT
        + [
            '{"old_endpoint": ' + "[" * 2000 + "]" * 2000 + "}",
            '{"endpoint": "https://fcm.googleapis.com/\\u0000", "keys": {}}',
            '{"endpoint": "https://fcm.googleapis.com/\\ud800", "keys": {}}',
            '{"old_endpoint": "\\ud800", "subscription": {"endpoint": 5}}',
        ]
    ),
    json_value.map(json.dumps),
    st.fixed_dictionaries(
        {"endpoint": json_value, "keys": json_value, "old_endpoint": json_value}
    ).map(json.dumps),
)


@pytest.mark.django_db
def test_no_json_view_answers_a_server_error(site, client_factory, settings):
    from games.notifications.management.commands.generate_vapid_keys import new_key_pair

    settings.VAPID_PUBLIC_KEY, settings.VAPID_PRIVATE_KEY = new_key_pair()
    settings.API_THROTTLE_RATES = {**settings.API_THROTTLE_RATES, "push_renew": "100000/hour"}

    @settings_(
        max_examples=300,
        deadline=None,
        derandomize=True,
        suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
    )
    @given(
        path=st.sampled_from(JSON_PAGES),
        body=json_body,
        who=st.sampled_from(["visitor", "alice", "guest"]),
    )
    def check(path, body, who):
        client = client_factory()
        if who != "visitor":
            client.force_login(site["people"][who])
        response = client.post(path, body, content_type="application/json")
        assert response.status_code < 500, (path, body[:200], who)

    check()
