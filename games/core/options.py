"""A game's options, described once: the lobby form, the API's catalog and schema, and the
checking of the JSON a player sends are all built from these descriptions."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from .errors import OptionError
from .i18n import gettext as _

KINDS = ("bool", "choice", "int")


@dataclass(frozen=True)
class OptionSpec:
    """One option of a game.

    ``kind`` is "bool", "choice" (one of ``choices``, strings) or "int" (from ``minimum``
    to ``maximum``). ``choices`` pairs each value with its label.
    """

    name: str
    kind: str
    default: object
    label: str
    help: str = ""
    choices: Sequence[tuple[str, str]] = field(default_factory=tuple)
    minimum: int | None = None
    maximum: int | None = None
    # Only games of at most this many players use it (a one-player variant: 1); None: any.
    # A form for more players leaves it out.
    most_players: int | None = None

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(f"option {self.name}: kind must be one of {', '.join(KINDS)}")
        if self.kind == "choice" and not self.choices:
            raise ValueError(f"option {self.name}: a choice needs choices")
        self.check(self.default)

    @property
    def values(self) -> list[str]:
        return [value for value, _label in self.choices]

    def check(self, value: object) -> object:
        """``value`` if it is one this option takes, else OptionError naming the option."""
        if self.kind == "bool":
            if type(value) is not bool:
                raise OptionError(
                    self.name, _("{name} must be true or false").format(name=self.name)
                )
        elif self.kind == "choice":
            if not isinstance(value, str) or value not in self.values:
                raise OptionError(
                    self.name,
                    _("{name} must be one of {values}").format(
                        name=self.name, values=", ".join(self.values)
                    ),
                )
        elif type(value) is not int or not (
            (self.minimum is None or value >= self.minimum)
            and (self.maximum is None or value <= self.maximum)
        ):
            raise OptionError(
                self.name,
                _("{name} must be a whole number from {minimum} to {maximum}").format(
                    name=self.name, minimum=self.minimum, maximum=self.maximum
                ),
            )
        return value

    def translated(self) -> OptionSpec:
        """This option with its label, help and choices in the language of the moment, for
        people (a game marks them with ``gettext_noop``: games.core.i18n)."""
        return replace(
            self,
            label=_shown(self.label),
            help=_shown(self.help),
            choices=tuple((value, _shown(label)) for value, label in self.choices),
        )

    def json_schema(self) -> dict[str, Any]:
        """This option as an OpenAPI (3.0) schema."""
        schema: dict[str, Any] = {
            "description": self.label + (f": {self.help}" if self.help else "")
        }
        if self.kind == "bool":
            schema["type"] = "boolean"
        elif self.kind == "choice":
            schema |= {"type": "string", "enum": self.values}
        else:
            schema["type"] = "integer"
            if self.minimum is not None:
                schema["minimum"] = self.minimum
            if self.maximum is not None:
                schema["maximum"] = self.maximum
        schema["default"] = self.default
        return schema

    def to_json(self) -> dict[str, Any]:
        """For the API's catalog."""
        out: dict[str, Any] = {
            "name": self.name,
            "type": self.kind,
            "label": self.label,
            "help": self.help,
            "default": self.default,
        }
        if self.kind == "choice":
            out["choices"] = [{"value": v, "label": label} for v, label in self.choices]
        if self.kind == "int":
            out |= {"minimum": self.minimum, "maximum": self.maximum}
        return out


def _shown(text: str) -> str:
    """A text a game marked for translation, translated ("" stays "": not the catalogue's
    header)."""
    return _(text) if text else text


def parse_options(specs: Sequence[OptionSpec], data: object) -> dict[str, Any]:
    """Every option of ``specs``, from ``data`` (a JSON object) or its default.

    An unknown name or a bad value raises OptionError naming the option.
    """
    if data is None:
        data = {}
    if not isinstance(data, Mapping):
        raise OptionError("options", _("options must be a JSON object"))
    known = {spec.name for spec in specs}
    unknown = sorted(str(name) for name in data if name not in known)
    if unknown:
        raise OptionError(
            unknown[0], _("{name} is not an option of this game").format(name=unknown[0])
        )
    return {spec.name: spec.check(data.get(spec.name, spec.default)) for spec in specs}
