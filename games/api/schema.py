"""The OpenAPI description of what the games send and take: each game's actions and view,
and the error responses every endpoint may give.

A game's view and actions are its own JSON, served as they are; each game describes them
(``GameKind.api_components``, derived from its typed view) and ``add_components`` adds them
to the generated schema, with ``View`` as the choice among the games' views and ``Action``,
the action sent, as one schema per kind across the games (``add_actions``). The tests check
real views and legal actions of random games against them.
"""

from __future__ import annotations

import json
from typing import Any

from drf_spectacular.extensions import OpenApiAuthenticationExtension
from drf_spectacular.openapi import AutoSchema as SpectacularAutoSchema
from drf_spectacular.plumbing import build_bearer_security_scheme_object
from drf_spectacular.utils import Direction
from rest_framework import serializers
from rest_framework.permissions import AllowAny

from games.core import registry
from games.core.protocol import GameKind
from games.core.schema import action_name

REF = "#/components/schemas/"


def ref(name: str) -> dict[str, Any]:
    return {"$ref": REF + name}


def components() -> dict[str, dict[str, Any]]:
    """Every game's components, the games' ids (``GameId``) and the choice among the games'
    views (``View``); ``Action`` is added to them by ``add_actions``."""
    games = registry.all_games()
    out: dict[str, dict[str, Any]] = {}
    for game in games:
        out |= game.api_components()
    out[GAME_ID] = {
        "type": "string",
        "enum": [g.id for g in games],
        "description": "A game of the catalog: its `id` there.",
    }
    out["View"] = {
        "description": (
            "The game as the caller may know it: the game's own view, never another "
            "player's hand or pending choice, the deck order or the seed. A game's answer "
            "(`Game`) holds its game's view, named by its `game`."
        ),
        "anyOf": [ref(g.view_component) for g in games],
    }
    return out


GAME_ID = "GameId"


# The action sent: one schema per kind -------------------------------------------------------


def _game_kinds(schemas: dict[str, dict[str, Any]], game: GameKind) -> dict[str, str]:
    """The component of each action kind of ``game``: its action's discriminator mapping,
    or (an action written as one object whose ``kind`` is an enum) one narrowed copy per
    kind, added as ``<Prefix>Action<Kind>``."""
    union = schemas[game.action_component]
    discriminator = union.get("discriminator", {})
    if discriminator.get("propertyName") == "kind":
        return {kind: target.removeprefix(REF) for kind, target in discriminator["mapping"].items()}
    out = {}
    for kind in union["properties"]["kind"]["enum"]:
        name = action_name(game.id.capitalize(), kind)
        kind_schema = {"type": "string", "enum": [kind]}
        schemas[name] = {**union, "properties": {**union["properties"], "kind": kind_schema}}
        out[kind] = name
    return out


def _bare(schema: dict[str, Any]) -> dict[str, Any]:
    """``schema`` without the words for people (they may differ where the values do not)."""
    return {k: v for k, v in schema.items() if k not in ("description", "example")}


def _disjoint(variants: list[dict[str, Any]]) -> bool:
    """Whether no object fits two of ``variants``: of each two, one requires a field that
    the other refuses (``additionalProperties: false``)."""

    def excludes(a: dict[str, Any], b: dict[str, Any]) -> bool:
        refused = b.get("additionalProperties") is False
        return refused and any(f not in b["properties"] for f in a.get("required", []))

    return all(
        excludes(a, b) or excludes(b, a) for i, a in enumerate(variants) for b in variants[i + 1 :]
    )


def _merged_field(found: list[tuple[GameKind, dict[str, Any]]]) -> dict[str, Any]:
    """One field of a kind several games share: the same schema, integer bounds widened to
    take every game's, or any of the games' schemas."""
    bare = [_bare(s) for _, s in found]
    bounds = ("minimum", "maximum")
    if all(_bare(b) == bare[0] for b in bare):
        out = bare[0]
    elif all(b.get("type") == "integer" for b in bare) and all(
        {k: v for k, v in b.items() if k not in bounds}
        == {k: v for k, v in bare[0].items() if k not in bounds}
        for b in bare
    ):
        out = dict(bare[0])
        for key, pick in (("minimum", min), ("maximum", max)):
            values: list[float] = [b[key] for b in bare if key in b]
            out.pop(key, None)
            if len(values) == len(bare):  # (a bound that one game leaves open stays open)
                out[key] = pick(values)
    else:
        out = {"anyOf": bare}
    if text := _words(found):
        out["description"] = text
    return out


def _words(found: list[tuple[GameKind, dict[str, Any]]]) -> str:
    """The descriptions of several games' schemas: one if they agree, else each game's."""
    texts = {game.name: s["description"] for game, s in found if s.get("description")}
    if len(set(texts.values())) == 1:
        return str(next(iter(texts.values())))
    return " ".join(f"{name}: {text}" for name, text in texts.items())


def _merged(found: list[tuple[GameKind, dict[str, Any]]]) -> dict[str, Any]:
    """The one schema of a kind several games share: every game's fields, required where
    every game requires them."""
    variants = [s for _, s in found]
    fields = list(dict.fromkeys(f for s in variants for f in s["properties"]))
    out: dict[str, Any] = {
        "type": "object",
        "description": _words(found),
        "properties": {
            field: _merged_field(
                [(g, s["properties"][field]) for g, s in found if field in s["properties"]]
            )
            for field in fields
        },
        "required": [
            f
            for f in variants[0].get("required", [])
            if all(f in s.get("required", []) for s in variants)
        ],
    }
    if all(s.get("additionalProperties") is False for s in variants):
        out["additionalProperties"] = False
    if examples := [s["example"] for s in variants if "example" in s]:
        out["example"] = examples[0]
    return out


def _share(schemas: dict[str, dict[str, Any]], game: GameKind, old: str, new: str) -> None:
    """Let ``game``'s action choice name ``new`` where it named ``old``."""
    union = schemas[game.action_component]
    if "oneOf" in union:
        union["oneOf"] = [ref(new) if r == ref(old) else r for r in union["oneOf"]]
        mapping = union["discriminator"]["mapping"]
        for kind, target in mapping.items():
            if target == REF + old:
                mapping[kind] = REF + new


def add_actions(schemas: dict[str, dict[str, Any]]) -> None:
    """``Action``, the action sent, whatever the game: one schema per kind, told apart by
    ``kind`` (a discriminator), so that a strict client encodes and decodes each kind as
    one thing. A kind only one game has is that game's; a kind several games share is one
    schema, ``Action<Kind>``, which the games' own choices name too (a legal action read
    is then one to send): their fields merged where the same fields mean the same (wider
    bounds), or, where no object fits two (Renaissance Man's ``place`` takes a place,
    Guildhall's a card), one object with every game's fields, none but ``kind`` required."""
    games = registry.all_games()
    by_kind: dict[str, list[tuple[GameKind, str]]] = {}
    for game in games:
        for kind, name in _game_kinds(schemas, game).items():
            by_kind.setdefault(kind, []).append((game, name))
    mapping: dict[str, str] = {}
    replaced: set[str] = set()
    for kind, found in by_kind.items():
        if len(found) == 1:
            mapping[kind] = found[0][1]
            continue
        shared = action_name("", kind)
        if shared in schemas:
            raise ValueError(f"{shared} is already a component")
        variants = [schemas[name] for _, name in found]
        if _disjoint(variants):
            # One object, not a choice: a discriminator's target that is a oneOf is one
            # generators refuse (openapi-typescript warns). It takes every game's fields,
            # only ``kind`` required; each game's own choice keeps its exact schema, and the
            # engine names the field a kind of its lacks.
            schemas[shared] = merged = _merged([(game, schemas[name]) for game, name in found])
            takes = [
                f"{game.name} `{'`, `'.join(sorted(set(schemas[n]['required']) - {'kind'}))}`"
                for game, n in found
            ]
            merged["description"] += f" Fields: {'; '.join(takes)}."
        else:
            schemas[shared] = _merged([(game, schemas[name]) for game, name in found])
            for game, name in found:
                _share(schemas, game, name, shared)
                replaced.add(name)
        mapping[kind] = shared
    text = json.dumps(schemas)
    for name in replaced:  # a game's own schema of a shared kind, if nothing names it now
        if json.dumps(REF + name) not in text:
            del schemas[name]
    schemas["Action"] = {
        "description": (
            "One decision, as a JSON object with a `kind` and exactly the fields of that kind, "
            "as its game defines them: send one of the game's legal actions (`/actions/`, or "
            "the view's `legal_actions`) as it came. `undo` and `resign` are sent this way in "
            "every game. A kind that several games have is one schema (`Action<Kind>`)."
        ),
        "oneOf": [ref(name) for name in dict.fromkeys(mapping.values())],
        "discriminator": {
            "propertyName": "kind",
            "mapping": {kind: REF + name for kind, name in mapping.items()},
        },
    }


# The answers whose content depends on the game: each becomes the choice among one variant
# per game (``<Prefix><Name>``), told apart by the answer's ``game``.
PER_GAME = ("Game", "LegalActions")


def _game_fields(
    name: str, game: GameKind, schemas: dict[str, dict[str, Any]]
) -> dict[str, dict[str, Any]]:
    """The properties of answer ``name`` that are ``game``'s own."""
    tag: dict[str, Any] = {"type": "string", "enum": [game.id], "description": f"{game.name}."}
    if name == "Game":
        return {"game": tag, "view": ref(game.view_component)}
    view = schemas[game.view_component].get("properties", {})
    fields: dict[str, dict[str, Any]] = {
        "game": tag,
        "actions": {"type": "array", "items": ref(game.action_component)},
    }
    if "decision" in view:  # what the caller decides now, as the game's view says it
        fields["decision"] = view["decision"]
    return fields


def _per_game(schemas: dict[str, dict[str, Any]], name: str) -> None:
    """Component ``name`` as the choice among one variant per game, with a discriminator
    on ``game`` (so that a generated client decodes each game's view and actions as that
    game's)."""
    base = schemas[name]
    variants = {}
    for game in registry.all_games():
        variant_name = game.id.capitalize() + name
        if variant_name in schemas:
            raise ValueError(f"{variant_name} is already a component")
        properties = {**base["properties"]}
        for field, schema in _game_fields(name, game, schemas).items():
            described = properties.get(field, {}).get("description")
            if described and "$ref" not in schema:  # (OpenAPI 3.0 ignores a $ref's siblings)
                schema = {**schema, "description": described}
            properties[field] = schema
        variants[variant_name] = {
            **base,
            "description": f"{base.get('description', name).rstrip('.')}: {game.name}.",
            "properties": properties,
        }
    schemas |= variants
    schemas[name] = {
        "description": base.get("description", name)
        + " Which game's: `game` (each game's view and actions are its own).",
        "oneOf": [ref(v) for v in variants],
        "discriminator": {
            "propertyName": "game",
            "mapping": {g.id: REF + g.id.capitalize() + name for g in registry.all_games()},
        },
    }


def add_components(
    result: dict[str, Any], generator: object, request: object, public: bool
) -> dict[str, Any]:
    """drf-spectacular postprocessing hook: the games' components, and the answers that
    depend on the game as one variant per game."""
    schemas = result.setdefault("components", {}).setdefault("schemas", {})
    for name, schema in components().items():
        schemas.setdefault(name, schema)
    add_actions(schemas)
    for name in PER_GAME:
        if name in schemas:
            _per_game(schemas, name)
    return result


# Errors ------------------------------------------------------------------------------------


# Every error's ``code``, for programs, and when it is answered.
ERROR_CODES: dict[str, str] = {
    "invalid": "400: fields that are wrong (`fields` names them, always present).",
    "parse_error": "400: a body that is not JSON.",
    "illegal_action": "400: an action the game's rules refuse (`rule` names the rule).",
    "not_authenticated": "401: no token (or no session).",
    "authentication_failed": "401: a token that is wrong or revoked.",
    "permission_denied": "403: not allowed (not your game, no CSRF token with a session).",
    "not_your_turn": "403: the game does not wait for you.",
    "not_found": "404: no such object, page or endpoint.",
    "method_not_allowed": "405: the endpoint does not take this method (`Allow` lists those "
    "it takes).",
    "not_acceptable": "406: the answer can only be JSON.",
    "stale_version": "409: the game moved on (`version` is the current one).",
    "payload_too_large": "413: the body is too large.",
    "unsupported_media_type": "415: the body must be JSON.",
    "throttled": "429: too many requests (`retry_after`, and the Retry-After header).",
    "server_error": "500: a fault of ours.",
    "unavailable": "503: a service the answer needs is away for now: try again after "
    "`retry_after` seconds (and the Retry-After header).",
    "maintenance": "503: the site is read-only for maintenance: nothing was changed; try "
    "again after `retry_after` seconds (and the Retry-After header).",
    "error": "Any other error (none is expected).",
}


ERROR_CODE_CHOICES = list(ERROR_CODES)  # (the enum's name: settings.ENUM_NAME_OVERRIDES)


class ErrorSerializer(serializers.Serializer[dict[str, Any]]):
    """Every error response."""

    code = serializers.ChoiceField(
        choices=ERROR_CODE_CHOICES,
        help_text="What went wrong, for programs:\n\n"
        + "\n".join(f"- `{code}`: {text}" for code, text in ERROR_CODES.items()),
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
        required=False,
        help_text="throttled, unavailable, maintenance: seconds to wait (also the Retry-After "
        "header).",
    )


ERROR_TEXT = {
    "400": "The request is wrong: invalid fields, malformed JSON, or an illegal action "
    "(`rule` names the rule it breaks). Nothing was changed.",
    "401": "No token, or a token that is wrong or revoked.",
    "403": "Not allowed: not your game, not your decision now, or (session) no CSRF token.",
    "404": "No such object (or not one you may see), or a page past the last of a list.",
    "406": "The response can only be JSON.",
    "409": "The game has moved on since the version you sent: `version` is the current one. "
    "Nothing was done.",
    "413": "The request body is too large.",
    "415": "The request body must be JSON (Content-Type: application/json).",
    "429": "Too many requests: wait `retry_after` seconds (also the Retry-After header).",
}


RETRY_AFTER = {
    "description": "Whole seconds to wait before trying again (as `retry_after` says).",
    "required": True,
    "schema": {"type": "integer", "minimum": 1},
}


SERVER_ERROR = (
    "A fault of ours (`server_error`; we hear of it): try again later. A move is applied "
    "once or not at all: read the game to see which."
)


def add_server_errors(
    result: dict[str, Any], generator: object, request: object, public: bool
) -> dict[str, Any]:
    """drf-spectacular postprocessing hook: 500 (``server_error``) on every operation, those
    of views and the hand-written ones alike: any request may meet a fault of ours, and a
    generated client decodes the answer only if the operation lists it."""
    error = {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}
    for operations in result.get("paths", {}).values():
        for operation in operations.values():
            if isinstance(operation, dict) and "responses" in operation:
                responses = operation["responses"]
                responses.setdefault("500", {"description": SERVER_ERROR, "content": error})
                operation["responses"] = dict(sorted(responses.items()))
    return result


class AutoSchema(SpectacularAutoSchema):
    """Lists the error responses every operation may give, besides those it declares."""

    def _get_response_bodies(self, direction: Direction = "response") -> dict[str, Any]:
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
        if "{" in self.path or self._is_paginated():  # (a page past the last is a 404)
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
        for code, response in responses.items():
            # An error declared by its words alone (OpenApiResponse(description=...)): its
            # body is an Error like every other (an app that cannot import ErrorSerializer,
            # such as games.community.moderation, declares its errors so).
            if code[0] in "45" and "content" not in response:
                error = self._get_response_for_code(ErrorSerializer, code, direction=direction)
                response["content"] = error["content"]
        if "429" in responses:
            responses["429"].setdefault("headers", {})["Retry-After"] = RETRY_AFTER
        return dict(sorted(responses.items()))

    def _is_paginated(self) -> bool:
        return self.method == "GET" and getattr(self.view, "pagination_class", None) is not None


class TokenScheme(OpenApiAuthenticationExtension):
    """A token as ``Authorization: Bearer <token>`` (what generated clients send) or
    ``Token <token>`` (knox's word): either will do."""

    target_class = "accounts.tokens.TokenAuthentication"
    name = ["bearerAuth", "tokenAuth"]

    def get_security_requirement(self, auto_schema: SpectacularAutoSchema) -> list[dict[str, Any]]:
        return [{name: []} for name in self.name]

    def get_security_definition(self, auto_schema: SpectacularAutoSchema) -> list[dict[str, Any]]:
        where = "Create tokens on your settings page (API tokens) or with POST /api/v1/auth/token/."
        bearer = build_bearer_security_scheme_object(
            header_name="Authorization", token_prefix="Bearer"
        )
        bearer["description"] = f'Send "Authorization: Bearer <token>". {where}'
        token = build_bearer_security_scheme_object(
            header_name="Authorization", token_prefix=self.target.authenticate_header("")
        )
        token["description"] = f'Or send "Authorization: Token <token>" (the same token). {where}'
        return [bearer, token]
