"""The OpenAPI description of what the engine sends and takes: the action object, the
player's view of a game, and the error responses every endpoint may give.

The view and the actions are the engine's own JSON (``games.guildhall.views.view``,
``docs/rules-engine.md``), served as they are; their schemas are written here by hand and
added to the generated schema as components by ``add_components``. The tests check real
views and legal actions of random games against them.
"""

from __future__ import annotations

from drf_spectacular.extensions import OpenApiAuthenticationExtension
from drf_spectacular.openapi import AutoSchema as SpectacularAutoSchema
from drf_spectacular.plumbing import build_bearer_security_scheme_object
from rest_framework import serializers
from rest_framework.permissions import AllowAny

from games.guildhall.cards import CARD_COUNT, COLORS, PROFESSIONS, VP_CARD_COUNT, VP_KINDS
from games.guildhall.engine import ACTION_FIELDS, DECISION_ACTIONS, OPTIONAL_FIELDS

REF = "#/components/schemas/"


def ref(name: str) -> dict:
    return {"$ref": REF + name}


def nullable(name: str) -> dict:
    # OpenAPI 3.0 ignores siblings of $ref, so a nullable reference goes through allOf.
    return {"nullable": True, "allOf": [ref(name)]}


# Actions -----------------------------------------------------------------------------------

ACTION_TEXT = {
    "play": "Play a hand card into the action area; its ability follows.",
    "discard_draw": 'Start the "discard any number, draw up to 6" action.',
    "buy": "Buy a VP card from the center row.",
    "discard": "Discard one hand card (setup, or the discard action); the last is on top.",
    "done": 'Finish an "any number" choice: draw (setup: to 9, action: to 6), or resolve it.',
    "place": "Setup: place a hand card into the guildhall.",
    "use": "Use the ability at that level (profession cards), or the VP card's ability.",
    "skip": "No effect.",
    "target": "The other player the effect acts on.",
    "pick": "One card of the effect (where from: the decision's `from`).",
    "pick_chapter": "One chapter of that player's guildhall.",
    "pay": "Pay with your completed chapter number 0, 1, ...",
    "order": "Put that card on the discard pile next (the last one goes by itself, on top).",
    "discard_chapter": "Discard that completed chapter (chapter limit).",
    "end_turn": "Pass the turn: the action area moves to the guildhall.",
    "undo": "Take back your last step, when the game's `can_undo` says you may.",
    "resign": "Concede the game (any seat, any time; the version is not compared).",
}

FIELD_SCHEMAS = {
    "card": {
        "type": "integer",
        "minimum": 0,
        "maximum": CARD_COUNT - 1,
        "description": "A profession card id (views give every card with its id).",
    },
    "vp": {"type": "integer", "minimum": 0, "maximum": VP_CARD_COUNT - 1},
    "level": {"type": "integer", "enum": [0, 1, 2, 3, 4]},
    "player": {"type": "integer", "minimum": 0, "maximum": 3, "description": "A seat."},
    "profession": {"type": "string", "enum": list(PROFESSIONS)},
    "chapter": {"type": "integer", "minimum": 0, "description": "A completed chapter's number."},
}

ACTION_EXAMPLES = {
    "play": {"kind": "play", "card": 37},
    "discard_draw": {"kind": "discard_draw"},
    "buy": {"kind": "buy", "vp": 21},
    "discard": {"kind": "discard", "card": 88},
    "done": {"kind": "done"},
    "place": {"kind": "place", "card": 64},
    "use": {"kind": "use", "level": 2},
    "skip": {"kind": "skip"},
    "target": {"kind": "target", "player": 1},
    "pick": {"kind": "pick", "card": 101},
    "pick_chapter": {"kind": "pick_chapter", "player": 1, "profession": "weaver"},
    "pay": {"kind": "pay", "chapter": 0},
    "order": {"kind": "order", "card": 12},
    "discard_chapter": {"kind": "discard_chapter", "chapter": 3},
    "end_turn": {"kind": "end_turn"},
    "undo": {"kind": "undo"},
    "resign": {"kind": "resign"},
}


def _action_component(kind: str) -> dict:
    fields = ACTION_FIELDS[kind]
    optional = OPTIONAL_FIELDS.get(kind, set())
    return {
        "type": "object",
        "description": ACTION_TEXT[kind],
        "properties": {
            "kind": {"type": "string", "enum": [kind]},
            **{name: FIELD_SCHEMAS[name] for name in fields},
        },
        "required": ["kind", *(name for name in fields if name not in optional)],
        # The engine takes exact fields: an extra one is refused (malformed_action).
        "additionalProperties": False,
        "example": ACTION_EXAMPLES[kind],
    }


def _action_name(kind: str) -> str:
    return "Action" + "".join(part.capitalize() for part in kind.split("_"))


ANSWERS = "\n".join(
    f"- `{decision}`: {', '.join(f'`{a}`' for a in actions)}"
    for decision, actions in DECISION_ACTIONS.items()
)

ACTION = {
    "description": (
        "One decision, as a JSON object with a `kind` and exactly the fields of that kind "
        "(docs/rules-engine.md). The legal ones at each moment are the game's "
        "`legal_actions`; `undo` and `resign` are always sent this way too. The action "
        "kinds that answer each kind of decision:\n\n" + ANSWERS
    ),
    "oneOf": [ref(_action_name(kind)) for kind in ACTION_FIELDS],
    "discriminator": {
        "propertyName": "kind",
        "mapping": {kind: REF + _action_name(kind) for kind in ACTION_FIELDS},
    },
}

# The game as a player sees it --------------------------------------------------------------

CARD = {
    "type": "object",
    "description": "A profession card.",
    "properties": {
        "id": FIELD_SCHEMAS["card"],
        "profession": {"type": "string", "enum": list(PROFESSIONS)},
        "color": {"type": "string", "enum": list(COLORS)},
        "name": {"type": "string", "description": "The profession's name in this game."},
    },
    "required": ["id", "profession", "color", "name"],
}

VP_CARD = {
    "type": "object",
    "description": "A VP card.",
    "properties": {
        "id": FIELD_SCHEMAS["vp"],
        "kind": {"type": "string", "enum": [k.key for k in VP_KINDS]},
        "points": {"type": "integer"},
        "cost": {"type": "integer", "description": "Completed chapters to pay."},
        "extra_actions": {"type": "integer"},
        "ability": {
            "type": "string",
            "nullable": True,
            "description": "The optional ability, or null.",
        },
    },
    "required": ["id", "kind", "points", "cost", "extra_actions", "ability"],
}

_CARDS = {"type": "array", "items": ref("Card")}
_VP_CARDS = {"type": "array", "items": ref("VPCard")}
_INT = {"type": "integer"}

PLAYER_VIEW = {
    "type": "object",
    "description": "One seat as the viewer may see it: `hand` only for the viewer.",
    "properties": {
        "seat": _INT,
        "name": {"type": "string"},
        "hand_size": _INT,
        "hand": {**_CARDS, "description": "The viewer's own hand (only in their own entry)."},
        "known_hand": {**_CARDS, "description": "Yucata: hand cards everyone saw enter it."},
        "guildhall": {
            "type": "array",
            "items": {
                "type": "object",
                "properties": {
                    "profession": {"type": "string", "enum": list(PROFESSIONS)},
                    "name": {"type": "string"},
                    "cards": _CARDS,
                },
                "required": ["profession", "name", "cards"],
            },
        },
        "action_area": _CARDS,
        "action_area_vp": _VP_CARDS,
        "completed_chapters": _INT,
        "completed_professions": {
            "type": "array",
            "items": {"type": "string", "enum": list(PROFESSIONS)},
        },
        "vp_cards": _VP_CARDS,
        "vp_tokens": _INT,
        "vp": _INT,
    },
    "required": [
        "seat",
        "name",
        "hand_size",
        "guildhall",
        "action_area",
        "action_area_vp",
        "completed_chapters",
        "vp_cards",
        "vp_tokens",
        "vp",
    ],
}

DECISION = {
    "type": "object",
    "description": (
        "Who must decide what now. The decider sees it whole; the others see its kind, "
        "player and public context, and only how many cards were picked (`picked`, "
        "`cards_left`)."
    ),
    "properties": {
        "kind": {"type": "string", "enum": list(DECISION_ACTIONS)},
        "player": _INT,
        "actions_left": _INT,
        "draw_to": _INT,
        "remaining": {"type": "integer", "nullable": True},
        "ability": {"type": "string"},
        "card": _INT,
        "reach": _INT,
        "vp": _INT,
        "level": {"type": "integer", "nullable": True},
        "target": {"type": "integer", "nullable": True},
        "from": {"type": "string"},
        "excess": _INT,
        "why": {"type": "string"},
        "picks": {"type": "array", "items": {"oneOf": [_INT, {"type": "string"}]}},
        "cards": {"type": "array", "items": _INT},
        "picked": _INT,
        "cards_left": _INT,
    },
    "required": ["kind", "player"],
}

RESULT_ROW = {
    "type": "object",
    "properties": {
        "seat": _INT,
        "name": {"type": "string"},
        "rank": _INT,
        "vp": _INT,
        "completed": _INT,
        "resigned": {"type": "boolean"},
    },
    "required": ["seat", "name", "rank", "vp", "completed"],
}

VIEW = {
    "type": "object",
    "description": (
        "The game as the caller may know it (`games.guildhall.views.view`): never another "
        "player's hand, the deck order or the seed."
    ),
    "properties": {
        "options": {
            "type": "object",
            "properties": {
                "players": {"type": "integer", "minimum": 2, "maximum": 4},
                "rules": {"type": "string", "enum": ["classic", "yucata"]},
                "advanced": {"type": "boolean"},
                "names": {"type": "string", "enum": ["classic", "fantasy"]},
            },
            "required": ["players", "rules", "advanced", "names"],
        },
        "viewer": {"type": "integer", "nullable": True, "description": "Your seat, or null."},
        "phase": {"type": "string", "enum": ["setup", "play", "over"]},
        "turn": _INT,
        "current": _INT,
        "actions_left": _INT,
        "players": {"type": "array", "items": ref("PlayerView")},
        "center_row": {"type": "array", "items": nullable("VPCard")},
        "vp_deck_size": _INT,
        "deck_size": _INT,
        "discard_size": _INT,
        "discard_top": nullable("Card"),
        "discard_pile": {**_CARDS, "description": "Top first, when the viewer may see it."},
        "unseen": {
            "type": "array",
            "description": "Yucata: the cards the viewer has not seen, counted by identity.",
            "items": {
                "type": "object",
                "properties": {
                    "profession": {"type": "string", "enum": list(PROFESSIONS)},
                    "color": {"type": "string", "enum": list(COLORS)},
                    "name": {"type": "string"},
                    "count": _INT,
                },
                "required": ["profession", "color", "name", "count"],
            },
        },
        "unseen_count": _INT,
        "decision": nullable("Decision"),
        "legal_actions": {
            "type": "array",
            "items": ref("Action"),
            "description": "Your legal actions now (empty unless you decide).",
        },
        "can_undo": {"type": "boolean"},
        "result": {
            "type": "array",
            "nullable": True,
            "items": ref("ResultRow"),
            "description": "The ranking, once the game is over.",
        },
    },
    "required": [
        "options",
        "viewer",
        "phase",
        "turn",
        "current",
        "actions_left",
        "players",
        "center_row",
        "vp_deck_size",
        "deck_size",
        "discard_size",
        "discard_top",
        "decision",
        "legal_actions",
        "can_undo",
        "result",
    ],
}


def components() -> dict[str, dict]:
    out = {_action_name(kind): _action_component(kind) for kind in ACTION_FIELDS}
    out.update(
        Action=ACTION,
        Card=CARD,
        VPCard=VP_CARD,
        PlayerView=PLAYER_VIEW,
        Decision=DECISION,
        ResultRow=RESULT_ROW,
        View=VIEW,
    )
    return out


def add_components(result, generator, request, public):
    """drf-spectacular postprocessing hook: the hand-written components above."""
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
    fields = serializers.DictField(
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
