"""OpenAPI 3.0 schemas from Python type hints, so that a game's JSON is typed once.

A game describes its JSON with TypedDicts; ``components`` turns them into the OpenAPI
components the API publishes. Each TypedDict becomes a named component (its docstring
the description), referenced by ``$ref``; the caller's ``prefix`` keeps the components of
several games apart. Descriptions and constraints ride on ``Annotated``:

    CardId = Annotated[int, Field("A card id.", minimum=0, maximum=119)]

Supported: int, str, bool, float, None (nullable, in a form strict OpenAPI 3.0 validators
accept: ``_nullable``), ``list[T]``, ``dict[str, T]``, ``Literal[...]``, unions, ``Any``,
``Annotated[T, Field(...)]``, ``Annotated[T, Ref(name)]`` (a component the caller writes
itself), ``NotRequired``/``Required``/``total=False``.
"""

from __future__ import annotations

import inspect
import types
from collections.abc import Sequence
from dataclasses import dataclass
from typing import (
    Annotated,
    Any,
    Literal,
    NotRequired,
    Protocol,
    Required,
    Union,
    get_args,
    get_origin,
    get_type_hints,
    is_typeddict,
)

REF = "#/components/schemas/"
_SIMPLE = {bool: "boolean", int: "integer", float: "number", str: "string"}


@dataclass(frozen=True)
class Field:
    """Schema keywords for ``Annotated[T, Field(...)]``: a description and constraints."""

    description: str | None = None
    minimum: float | None = None
    maximum: float | None = None
    enum: Sequence[Any] | None = None
    example: Any = None

    def __post_init__(self) -> None:
        if self.enum is not None:  # a tuple keeps the Annotated type hashable
            object.__setattr__(self, "enum", tuple(self.enum))

    def keywords(self) -> dict[str, Any]:
        out = {
            "description": self.description,
            "minimum": self.minimum,
            "maximum": self.maximum,
            "enum": None if self.enum is None else list(self.enum),
            "example": self.example,
        }
        return {key: value for key, value in out.items() if value is not None}


@dataclass(frozen=True)
class Ref:
    """``Annotated[T, Ref(name)]``: the value is the component ``name`` (prefixed), which
    the caller adds itself; ``T`` is only the Python type."""

    name: str


def ref(name: str) -> dict[str, str]:
    return {"$ref": REF + name}


def _with(schema: dict[str, Any], extra: dict[str, Any]) -> dict[str, Any]:
    if not extra:
        return schema
    if "$ref" in schema:  # OpenAPI 3.0 ignores the siblings of a $ref: wrap it
        return {**extra, "allOf": [schema]}
    return {**schema, **extra}


# The one value null, for a choice that may be null (drf-spectacular's NullEnum).
NULL = {"enum": [None]}


def _nullable(schema: dict[str, Any]) -> dict[str, Any]:
    """``schema`` or null, in the form strict OpenAPI 3.0.3 validators (openapi-core) read:
    ``nullable`` only admits null beside a ``type`` of the same schema object, so an enum
    lists null too, and a reference or a choice takes null as one more choice."""
    if "type" not in schema and schema:
        choices = schema["oneOf"] if list(schema) == ["oneOf"] else [schema]
        return {"oneOf": [*choices, NULL], "nullable": True}
    if "enum" in schema:
        schema = {**schema, "enum": [*schema["enum"], None]}
    return _with(schema, {"nullable": True})


def _description(cls: object) -> str | None:
    """The docstring, its paragraphs unwrapped (line breaks are the source's, not text)."""
    if not cls.__doc__:
        return None
    paragraphs = inspect.cleandoc(cls.__doc__).split("\n\n")
    return "\n\n".join(" ".join(p.split()) for p in paragraphs)


class _TypedDictClass(Protocol):
    """A TypedDict class (``is_typeddict``): what a component is made of."""

    __name__: str
    __required_keys__: frozenset[str]


class Schemas:
    """Converts hints to schemas, collecting the components of the TypedDicts met."""

    def __init__(self, prefix: str = "") -> None:
        self.prefix = prefix
        self.components: dict[str, dict[str, Any]] = {}
        self._classes: dict[str, _TypedDictClass] = {}

    def of(self, hint: Any) -> dict[str, Any]:
        """The schema of a value of type ``hint``."""
        origin, args = get_origin(hint), get_args(hint)
        if origin is Annotated:
            refs = [m.name for m in hint.__metadata__ if isinstance(m, Ref)]
            base = ref(self.prefix + refs[-1]) if refs else self.of(hint.__origin__)
            extra: dict[str, Any] = {}
            for mark in hint.__metadata__:
                if isinstance(mark, Field):
                    extra.update(mark.keywords())
            return _with(base, extra)
        if origin in (Required, NotRequired):
            return self.of(args[0])
        if origin in (Union, types.UnionType):
            members = [a for a in args if a is not type(None)]
            nullable = len(members) < len(args)
            if int in members and float in members:
                members.remove(int)  # "number" takes integers: oneOf would match twice
            schemas = [self.of(m) for m in members]
            out = schemas[0] if len(schemas) == 1 else {"oneOf": schemas}
            return _nullable(out) if nullable else out
        if origin is Literal:
            values = [v for v in args if v is not None]
            kinds = {type(v) for v in values}
            if len(kinds) != 1 or not kinds <= _SIMPLE.keys():
                raise TypeError(f"a Literal needs values of one simple type: {hint}")
            out = {"type": _SIMPLE[kinds.pop()], "enum": values}
            return _nullable(out) if len(values) < len(args) else out
        if origin is list:
            return {"type": "array", "items": self.of(args[0])}
        if origin is dict:
            if args[0] is not str:
                raise TypeError(f"JSON object keys are strings: {hint}")
            return {"type": "object", "additionalProperties": self.of(args[1])}
        if is_typeddict(hint):
            return self._component(hint)
        if hint is Any:
            return {}
        if hint in _SIMPLE:
            return {"type": _SIMPLE[hint]}
        raise TypeError(f"no OpenAPI schema for {hint!r}")

    def _component(self, cls: _TypedDictClass) -> dict[str, Any]:
        name = self.prefix + cls.__name__
        seen = self._classes.setdefault(name, cls)
        if seen is not cls:
            raise TypeError(f"two types make the component {name}: {seen} and {cls}")
        if name not in self.components:
            self.components[name] = {}  # taken: a recursive type refers to it meanwhile
            self.components[name] = self._object(cls)
        return ref(name)

    def _object(self, cls: _TypedDictClass) -> dict[str, Any]:
        properties, required = {}, []
        for key, hint in get_type_hints(cls, include_extras=True).items():
            properties[key] = self.of(hint)
            # With string annotations (PEP 563) Python 3.11 misses NotRequired in
            # __required_keys__, so the wrappers in the hints decide when present.
            wrapper = get_origin(hint)
            if wrapper is Required or (wrapper is not NotRequired and key in cls.__required_keys__):
                required.append(key)
        out: dict[str, Any] = {"type": "object"}
        if description := _description(cls):
            out["description"] = description
        out["properties"] = properties
        if required:
            out["required"] = required
        return out


def components(*roots: Any, prefix: str = "") -> dict[str, dict[str, Any]]:
    """Every component reachable from the ``roots`` (TypedDicts, or hints holding them),
    named ``prefix`` + class name."""
    schemas = Schemas(prefix)
    for root in roots:
        schemas.of(root)
    return schemas.components


def action_name(prefix: str, kind: str) -> str:
    """The component of a game's action kind: ("Renaissance", "place_rm") ->
    "RenaissanceActionPlaceRm"."""
    return prefix + "Action" + "".join(part.capitalize() for part in kind.split("_"))


def action_component(
    schemas: Schemas,
    kind: str,
    fields: Sequence[str],
    field_types: dict[str, Any],
    *,
    optional: set[str] | frozenset[str] = frozenset(),
    description: str,
    example: dict[str, Any],
) -> dict[str, Any]:
    """The schema of one action kind: ``kind`` and exactly its ``fields`` (typed by
    ``field_types``), all required but the ``optional`` ones."""
    return {
        "type": "object",
        "description": description,
        "properties": {
            "kind": schemas.of(Literal[kind]),
            **{name: schemas.of(field_types[name]) for name in fields},
        },
        "required": ["kind", *(name for name in fields if name not in optional)],
        # The engines take exact fields: an extra one is refused (malformed_action).
        "additionalProperties": False,
        "example": example,
    }
