"""The converter from type hints to OpenAPI 3.0 schemas: each construct it supports."""

from typing import Annotated, Any, Literal, NotRequired, Optional, Required, TypedDict

import pytest

from games.core.schema import Field, Ref, Schemas, components, ref


def of(hint: Any, prefix: str = "") -> dict:
    return Schemas(prefix).of(hint)


class Point(TypedDict):
    """A point.

    On the board, counted from
    the top left.
    """

    x: int
    y: int


class Options(TypedDict, total=False):
    speed: float
    label: Required[str]


class Shape(TypedDict):
    name: str
    points: list[Point]
    centre: Point | None
    note: NotRequired[Annotated[str, Field("Only when set.")]]
    meta: dict[str, Options]


class Tree(TypedDict):
    value: int
    children: list["Tree"]


class Quoted(TypedDict):
    # String annotations, as under PEP 563: Python 3.11 counts the key as required.
    x: "NotRequired[int]"
    y: "int"


class TestSimpleTypes:
    @pytest.mark.parametrize(
        ("hint", "kind"),
        [(int, "integer"), (str, "string"), (bool, "boolean"), (float, "number")],
    )
    def test_scalars(self, hint, kind):
        assert of(hint) == {"type": kind}

    def test_any_is_any_value(self):
        assert of(Any) == {}

    def test_optional_is_nullable(self):
        assert of(int | None) == {"type": "integer", "nullable": True}
        assert of(Optional[str]) == {"type": "string", "nullable": True}  # noqa: UP045

    def test_list_and_dict(self):
        assert of(list[int]) == {"type": "array", "items": {"type": "integer"}}
        assert of(dict[str, bool]) == {
            "type": "object",
            "additionalProperties": {"type": "boolean"},
        }

    def test_dict_keys_must_be_strings(self):
        with pytest.raises(TypeError):
            of(dict[int, str])

    def test_unsupported_types_are_refused(self):
        with pytest.raises(TypeError):
            of(bytes)


class TestLiteralsAndUnions:
    def test_literal_is_an_enum_of_its_type(self):
        assert of(Literal["a", "b"]) == {"type": "string", "enum": ["a", "b"]}
        assert of(Literal[1, 2]) == {"type": "integer", "enum": [1, 2]}
        assert of(Literal[True]) == {"type": "boolean", "enum": [True]}

    def test_a_nullable_enum_lists_null(self):
        assert of(Literal["a", None]) == {"type": "string", "enum": ["a", None], "nullable": True}
        assert of(Literal["a"] | None)["enum"] == ["a", None]

    def test_mixed_literals_are_refused(self):
        with pytest.raises(TypeError):
            of(Literal["a", 1])

    def test_union_is_one_of(self):
        assert of(int | str) == {"oneOf": [{"type": "integer"}, {"type": "string"}]}
        # Strict OpenAPI 3.0.3: nullable admits null only beside a type, so null is one
        # more choice.
        assert of(int | str | None) == {
            "oneOf": [{"type": "integer"}, {"type": "string"}, {"enum": [None]}],
            "nullable": True,
        }

    def test_int_or_float_is_a_number(self):
        # oneOf [integer, number] would refuse every integer: it matches both.
        assert of(int | float) == {"type": "number"}


class TestAnnotated:
    def test_field_adds_description_and_constraints(self):
        hint = Annotated[int, Field("A die.", minimum=1, maximum=6, example=4)]
        assert of(hint) == {
            "type": "integer",
            "description": "A die.",
            "minimum": 1,
            "maximum": 6,
            "example": 4,
        }

    def test_field_enum(self):
        colours = ("red", "blue")
        assert of(Annotated[str, Field(enum=colours)]) == {
            "type": "string",
            "enum": ["red", "blue"],
        }
        assert of(Annotated[str, Field(enum=colours)] | None)["enum"] == ["red", "blue", None]

    def test_nested_annotations_merge_the_outer_last(self):
        seat = Annotated[int, Field("A seat.", minimum=0)]
        assert of(Annotated[seat | None, Field("Yours, or null.")]) == {
            "type": "integer",
            "description": "Yours, or null.",
            "minimum": 0,
            "nullable": True,
        }

    def test_a_described_reference_is_wrapped(self):
        # OpenAPI 3.0 ignores the siblings of $ref.
        assert of(Annotated[Point, Field("Where.")], "P") == {
            "description": "Where.",
            "allOf": [{"$ref": "#/components/schemas/PPoint"}],
        }

    def test_ref_names_a_component_the_caller_writes(self):
        hint = list[Annotated[dict[str, Any], Ref("Move")]]
        schemas = Schemas("Chess")
        assert schemas.of(hint) == {"type": "array", "items": ref("ChessMove")}
        assert schemas.components == {}


class TestTypedDicts:
    def test_a_typed_dict_is_a_named_component(self):
        schemas = Schemas("Game")
        assert schemas.of(Point) == {"$ref": "#/components/schemas/GamePoint"}
        assert schemas.components == {
            "GamePoint": {
                "type": "object",
                "description": "A point.\n\nOn the board, counted from the top left.",
                "properties": {"x": {"type": "integer"}, "y": {"type": "integer"}},
                "required": ["x", "y"],
            }
        }

    def test_components_reach_every_nested_type(self):
        found = components(Shape, prefix="G")
        assert set(found) == {"GShape", "GPoint", "GOptions"}
        shape = found["GShape"]
        assert shape["properties"]["points"] == {"type": "array", "items": ref("GPoint")}
        assert shape["properties"]["centre"] == {
            "oneOf": [ref("GPoint"), {"enum": [None]}],
            "nullable": True,
        }
        assert shape["properties"]["meta"] == {
            "type": "object",
            "additionalProperties": ref("GOptions"),
        }
        assert shape["properties"]["note"] == {"type": "string", "description": "Only when set."}
        assert shape["required"] == ["name", "points", "centre", "meta"]
        assert "description" not in shape

    def test_total_false_and_required(self):
        options = components(Options)["Options"]
        assert options["required"] == ["label"]
        assert options["properties"]["speed"] == {"type": "number"}

    def test_no_required_keys_leaves_required_out(self):
        class Loose(TypedDict, total=False):
            a: int

        assert "required" not in components(Loose)["Loose"]

    def test_not_required_in_string_annotations(self):
        assert components(Quoted)["Quoted"]["required"] == ["y"]

    def test_functional_syntax_and_a_set_docstring(self):
        Move = TypedDict("Move", {"from": int, "to": NotRequired[int]})
        Move.__doc__ = "A move."
        assert components(Move)["Move"] == {
            "type": "object",
            "description": "A move.",
            "properties": {"from": {"type": "integer"}, "to": {"type": "integer"}},
            "required": ["from"],
        }

    def test_recursive_types(self):
        tree = components(Tree)["Tree"]
        assert tree["properties"]["children"] == {"type": "array", "items": ref("Tree")}

    def test_two_types_of_one_name_are_refused(self):
        class Point(TypedDict):
            z: int

        with pytest.raises(TypeError, match="Point"):
            components(Point, globals()["Point"])

    def test_roots_may_be_any_hint(self):
        assert set(components(list[Point] | None, prefix="X")) == {"XPoint"}
