"""The OpenAPI description of what the games send and take: each game's actions and view,
and the error responses every endpoint may give.

A game's view and actions are its own JSON, served as they are; each game describes them
(``GameKind.api_components``, derived from its typed view) and ``add_components`` adds them
to the generated schema, with ``Action`` and ``View`` as the choice among the games. The
tests check real views and legal actions of random games against them.
"""

from __future__ import annotations

from drf_spectacular.extensions import OpenApiAuthenticationExtension
from drf_spectacular.openapi import AutoSchema as SpectacularAutoSchema
from drf_spectacular.plumbing import build_bearer_security_scheme_object
from rest_framework import serializers
from rest_framework.permissions import AllowAny

from games.core import registry

REF = "#/components/schemas/"


def ref(name: str) -> dict:
    return {"$ref": REF + name}


def components() -> dict[str, dict]:
    """Every game's components, and the choice among them of an action and of a view."""
    games = registry.all_games()
    out: dict[str, dict] = {}
    for game in games:
        out |= game.api_components()
    listed = ", ".join(f"`{g.id}`: {g.view_component}" for g in games)
    out["Action"] = {
        "description": (
            "One decision, as a JSON object with a `kind` and exactly the fields of that kind, "
            "as the game defines them (its legal ones at each moment are the view's "
            "`legal_actions`). `undo` and `resign` are sent this way in every game (so they "
            "fit every game's schema: any of)."
        ),
        "anyOf": [ref(g.action_component) for g in games],
    }
    out["View"] = {
        "description": (
            "The game as the caller may know it: the game's own view, never another "
            "player's hand or pending choice, the deck order or the seed. Its schema depends "
            f"on the game's `game` ({listed})."
        ),
        "anyOf": [ref(g.view_component) for g in games],
    }
    return out


def add_components(result, generator, request, public):
    """drf-spectacular postprocessing hook: the games' components."""
    schemas = result.setdefault("components", {}).setdefault("schemas", {})
    for name, schema in components().items():
        schemas.setdefault(name, schema)
    return result


# Errors ------------------------------------------------------------------------------------


class ErrorSerializer(serializers.Serializer):
    """Every error response."""

    code = serializers.CharField(
        help_text="What went wrong, for programs: invalid, parse_error, illegal_action, "
        "not_authenticated, authentication_failed, permission_denied, not_your_turn, "
        "not_found, method_not_allowed, not_acceptable, stale_version, payload_too_large, "
        "unsupported_media_type, throttled."
    )
    message = serializers.CharField(help_text="What went wrong, for people.")
    rule = serializers.CharField(
        required=False,
        help_text="illegal_action: the engine's rule code (docs/rules-engine.md), such as "
        "card_not_in_hand, unknown_action or malformed_action.",
    )
    version = serializers.IntegerField(
        required=False, help_text="stale_version: the game's current version."
    )
    # (Named like Serializer.fields: DRF's metaclass takes a declared field out of the class.)
    fields = serializers.DictField(  # type: ignore[assignment]
        child=serializers.ListField(child=serializers.CharField()),
        required=False,
        help_text="invalid: the messages of each invalid field.",
    )
    retry_after = serializers.IntegerField(
        required=False, help_text="throttled: seconds to wait (also the Retry-After header)."
    )


ERROR_TEXT = {
    "400": "The request is wrong: invalid fields, malformed JSON, or an illegal action "
    "(`rule` names the rule it breaks). Nothing was changed.",
    "401": "No token, or a token that is wrong or revoked.",
    "403": "Not allowed: not your game, not your decision now, or (session) no CSRF token.",
    "404": "No such object (or not one you may see).",
    "406": "The response can only be JSON.",
    "409": "The game has moved on since the version you sent: `version` is the current one. "
    "Nothing was done.",
    "413": "The request body is too large.",
    "415": "The request body must be JSON (Content-Type: application/json).",
    "429": "Too many requests: wait `retry_after` seconds.",
}


class AutoSchema(SpectacularAutoSchema):
    """Lists the error responses every operation may give, besides those it declares."""

    def _get_response_bodies(self, direction="response"):
        responses = super()._get_response_bodies(direction)
        if direction != "response":
            return responses
        codes = ["403", "406", "429"]
        if not all(isinstance(p, AllowAny) for p in self.view.get_permissions()):
            codes.append("401")
        has_query = self._is_list_view() or any(
            getattr(p, "location", None) == "query" for p in self.get_override_parameters()
        )
        if self.method in ("POST", "PUT", "PATCH") or has_query:
            codes.append("400")
        if self.method in ("POST", "PUT", "PATCH"):
            codes += ["413", "415"]
        if "{" in self.path:
            codes.append("404")
        # Any request may carry a token; a wrong one is refused even where none is needed.
        if "401" not in codes:
            codes.append("401")
        for code in sorted(codes):
            if code not in responses:
                response = self._get_response_for_code(ErrorSerializer, code, direction=direction)
                response["description"] = ERROR_TEXT[code]
                responses[code] = response
            elif not responses[code].get("description"):
                responses[code]["description"] = ERROR_TEXT.get(code, "")
        return dict(sorted(responses.items()))


class TokenScheme(OpenApiAuthenticationExtension):
    target_class = "accounts.tokens.TokenAuthentication"
    name = "tokenAuth"

    def get_security_definition(self, auto_schema):
        scheme = build_bearer_security_scheme_object(
            header_name="Authorization", token_prefix=self.target.authenticate_header("")
        )
        scheme["description"] = (
            'Send "Authorization: Token <token>". Create tokens on your settings page '
            "(API tokens) or with POST /api/v1/auth/token/."
        )
        return scheme
