"""Everything a player can do on the site, an app can do (issue 48): every URL of the site
whose view takes a POST (a form, an htmx button) is listed here with the API operations
that do the same, or with the reason there is none. A new POST view with neither fails
``test_every_site_action_has_its_api_operation_or_a_reason``.

How a view is known to take a POST, walking Django's URL resolver: a class-based view that
has ``post`` among its ``http_method_names``; a function view whose method decorators
(``require_POST``, ``require_http_methods``: their closure's ``request_method_list``) let
POST through, or that has none and reads ``POST`` in its own source (a form's view). The
API's own views (namespace ``api``) and the admin's are left out: the first are the
operations, the second is for staff.
"""

from __future__ import annotations

import inspect
from collections.abc import Iterator

from django.urls import URLPattern, URLResolver, get_resolver

from tests.games.api_validation import openapi

# Site action (URL name) -> the API operations (operation ids) that do the same.
API_OF: dict[str, tuple[str, ...]] = {
    # A game's board.
    "games:board_move": ("game_action_submit",),
    "games:note": ("game_note_put",),
    "games:chat": ("game_chat_write",),
    "games:concede": ("game_action_submit",),  # {"kind": "resign"}
    "games:vote_cancel": ("game_cancel_vote",),
    "games:rematch": ("game_rematch",),
    "games:stand_in": ("game_stand_in_start",),
    "games:stand_in_stop": ("game_stand_in_stop",),
    # The lobby and invitations.
    "games:invitation_new": ("invitation_create",),
    "games:accept": ("invitation_accept",),
    "games:decline": ("invitation_decline",),
    "games:withdraw": ("invitation_withdraw",),
    # The settings page.
    "games:vacation_start": ("vacation_start",),
    "games:vacation_stop": ("vacation_stop",),
    "games:quiet_hours": ("quiet_hours_set",),
    "games:stand_in_everywhere": ("stand_in_start",),
    "games:stand_in_stop_everywhere": ("stand_in_stop",),
    "accounts:edit_profile": ("preferences_update",),
    "accounts:set_language": ("preferences_update",),  # `language`
    "accounts:api_tokens": ("token_login",),
    "accounts:revoke_api_token": ("token_revoke",),
    # Other players.
    "accounts:friend_add": ("friend_add",),
    "accounts:friend_remove": ("friend_remove",),
    "accounts:block": ("block_add",),
    "accounts:unblock": ("block_remove",),
    "accounts:conversation": ("message_send", "conversation_read"),
    "accounts:message_write": ("message_send",),
    "moderation:report": ("report_create",),
    # Tournaments.
    "tournaments:new": ("tournament_create",),
    "tournaments:join": ("tournament_join",),
    "tournaments:leave": ("tournament_leave",),
    "tournaments:edit": ("tournament_edit",),
    "tournaments:cancel": ("tournament_cancel",),
    "tournaments:remove": ("tournament_remove",),
    "tournaments:result": ("tournament_result",),
    "tournaments:extend": ("tournament_extend",),
    "tournaments:message": ("tournament_message",),
    "tournaments:seed": ("tournament_seed",),
    # A finished game's analysis, and the player's own data.
    "games:analysis": ("game_analysis_request",),
    "privacy:request_deletion": ("me_deletion_request",),
    "privacy:cancel_deletion": ("me_deletion_cancel",),
}

# Site action (URL name, or a prefix ending in ":") -> why the API has no operation for it.
NO_API_BECAUSE: dict[str, str] = {
    "account_": "Signing up, logging in and out, passwords and email addresses are allauth's "
    "pages for people; an app logs in with a username and password for a token "
    "(token_login) and authenticates with it.",
    "accounts:play_as_guest": "A guest is a browser session's throwaway account; an app "
    "uses a token of a real account.",
    "accounts:guest_convert": "Saving a guest's account sets its password and email address: "
    "allauth's business, on the site (a guest has no token to call the API with).",
    "notifications:unsubscribe": "The one-click link of an email, authorised by its signed "
    "token (RFC 8058); with a token the same preferences are preferences_update's.",
    "push:": "Web Push belongs to a browser's service worker (its subscription, its renewal, "
    "its notification buttons) and the settings page's list of its devices; an app is told "
    "of its turns by webhook or the event stream instead.",
    "favicon": "A redirect to the site's icon (RedirectView answers any method).",
    "upkeep:bounce_webhook": "The mail provider's report of a bounce, by its own bearer "
    "token: not a player's action.",
    "upkeep:confirm_address": "The signed link of an email, as allauth's confirmation link.",
    "upkeep:reconfirm": "Email addresses are allauth's pages for people (as account_ above); "
    "an app sends its player there.",
    "upkeep:dismiss": "A banner's dismissal on the site's pages; an app reads the "
    "announcements (announcements_list, with `dismissed`) and shows them as it likes.",
}


def _patterns(patterns, namespace: str = "", prefix: str = "") -> Iterator[tuple]:
    """(URL name, route, view) of every URL pattern, with the namespaces of its includes."""
    for pattern in patterns:
        if isinstance(pattern, URLResolver):
            inner = namespace
            if pattern.namespace:
                inner = f"{namespace}:{pattern.namespace}" if namespace else pattern.namespace
            yield from _patterns(pattern.url_patterns, inner, prefix + str(pattern.pattern))
        elif isinstance(pattern, URLPattern):
            name = pattern.name and (f"{namespace}:{pattern.name}" if namespace else pattern.name)
            yield name, prefix + str(pattern.pattern), pattern.callback


def _layers(view) -> Iterator:
    """``view`` and every function it wraps: by ``__wrapped__`` (functools.wraps), or held
    in its closure (a decorator written without it, such as ``board_login_required``)."""
    seen: set[int] = set()
    todo = [view]
    while todo:
        layer = todo.pop()
        if id(layer) in seen or not callable(layer):
            continue
        seen.add(id(layer))
        yield layer
        if hasattr(layer, "__wrapped__"):
            todo.append(layer.__wrapped__)
        for cell in getattr(layer, "__closure__", None) or ():
            try:
                content = cell.cell_contents
            except ValueError:  # (an empty cell)
                continue
            if inspect.isfunction(content):
                todo.append(content)


def takes_post(view) -> bool:
    view_class = getattr(view, "view_class", None)
    if view_class is not None:
        return "post" in view_class.http_method_names and hasattr(view_class, "post")
    allowed = None
    for layer in _layers(view):
        methods = inspect.getclosurevars(layer).nonlocals.get("request_method_list")
        if methods is not None:
            allowed = set(methods) if allowed is None else allowed & set(methods)
    if allowed is not None:
        return "POST" in allowed
    # No method decorator: a form's view reads POST (a page that does not, only GET).
    return any("POST" in inspect.getsource(layer) for layer in _layers(view))


def site_actions() -> dict[str, str]:
    """URL name -> route of every site view that takes a POST (the API's and the admin's
    aside)."""
    out = {}
    for name, route, view in _patterns(get_resolver().url_patterns):
        if route.startswith(("api/", "admin/")) or not takes_post(view):
            continue
        assert name, f"{route}: a site action without a URL name"
        out[name] = route
    return out


def _reason(name: str) -> str | None:
    for key, why in NO_API_BECAUSE.items():
        if name == key or (key.endswith((":", "_")) and name.startswith(key)):
            return why
    return None


def test_every_site_action_has_its_api_operation_or_a_reason():
    actions = site_actions()
    missing = [
        f"{name} ({route})"
        for name, route in sorted(actions.items())
        if name not in API_OF and _reason(name) is None
    ]
    assert not missing, (
        "Site actions without an API operation: add one (games/api/) and list it in API_OF, "
        "or say why there is none in NO_API_BECAUSE: " + ", ".join(missing)
    )


def test_the_map_names_real_site_actions_and_real_operations():
    actions = site_actions()
    operations = {
        operation["operationId"]
        for path in openapi()["paths"].values()
        for operation in path.values()
        if isinstance(operation, dict) and "operationId" in operation
    }
    assert not set(API_OF) - set(actions), "mapped, but no site view takes a POST there"
    unknown = {name: ops for name, ops in API_OF.items() if not set(ops) <= operations}
    assert not unknown, f"no such API operation: {unknown}"
    assert not set(API_OF) & {n for n in actions if _reason(n)}, "mapped and excused"
    for key in NO_API_BECAUSE:
        assert any(n == key or n.startswith(key) for n in actions), f"{key}: no such action"


def test_the_walk_sees_posts_behind_every_kind_of_decorator():
    """The detection itself: a page is no action; require_POST, require_http_methods, a
    hand-written login decorator and a form view's own POST are."""
    actions = site_actions()
    assert {"games:lobby", "games:board", "games:profile", "games:actions"}.isdisjoint(actions)
    assert {
        "games:concede",  # require_POST
        "moderation:report",  # require_http_methods(["GET", "POST"])
        "games:board_move",  # board_login_required over require_POST
        "accounts:edit_profile",  # no decorator: the form reads request.POST
        "account_login",  # allauth's class-based view
    } <= set(actions)
