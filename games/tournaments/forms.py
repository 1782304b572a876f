"""The new-tournament form: the game first (``?game=``), then its options (built from the
game's option descriptions), the format and the rest; every rule is the service's
(``services.check_new_tournament``), whose errors land on the field they name."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django import forms
from django.core.exceptions import ValidationError
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from games.core import GameKind, OptionSpec
from games.models import MOVE_DAYS_CHOICES
from games.tournaments.models import Tournament


def option_field(spec: OptionSpec) -> forms.Field:
    spec = spec.translated()
    if spec.kind == "bool":
        return forms.BooleanField(
            required=False, label=spec.label, help_text=spec.help, initial=spec.default
        )
    if spec.kind == "choice":
        return forms.ChoiceField(
            choices=list(spec.choices), label=spec.label, help_text=spec.help, initial=spec.default
        )
    return forms.IntegerField(
        label=spec.label,
        help_text=spec.help,
        initial=spec.default,
        min_value=spec.minimum,
        max_value=spec.maximum,
    )


class TournamentForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=80)
    format = forms.ChoiceField(
        label=_("Format"),
        choices=Tournament.Format.choices,
        help_text=_(
            "Swiss: a set number of rounds against players with similar scores. Round robin: "
            "everyone meets everyone (double: twice, each in turn moving first). Knockout: "
            "the best of each table go on (double elimination: out at the second loss). "
            "League: seasons of divisions, up and down each season."
        ),
    )
    table_size = forms.TypedChoiceField(
        label=_("Players at a table"), coerce=int, choices=[(2, "2"), (3, "3"), (4, "4")]
    )
    rounds = forms.IntegerField(
        label=_("Rounds (Swiss) or seasons (league, 0: no end)"),
        min_value=0,
        max_value=50,
        initial=4,
        required=False,
    )
    advance = forms.IntegerField(
        label=_("Knockout: players who go on from each table"),
        min_value=1,
        max_value=3,
        required=False,
    )
    move_days = forms.TypedChoiceField(
        label=_("Time per move"),
        choices=[("" if v is None else v, label) for v, label in MOVE_DAYS_CHOICES],
        coerce=int,
        empty_value=None,
        required=False,
        initial=3,
    )
    round_days = forms.IntegerField(
        label=_("Days per round"),
        min_value=1,
        max_value=90,
        initial=14,
        help_text=_("Games still running at a round's deadline are decided by their scores."),
    )
    rated = forms.BooleanField(label=_("Rated games"), required=False, initial=True)
    starts_at = forms.DateTimeField(
        label=_("Play starts"),
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}),
    )
    # 6: what every format takes, a league's divisions the most demanding.
    signup_until = forms.DateTimeField(
        label=_("Sign-up closes (empty: at the start)"),
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}),
        required=False,
    )
    min_players = forms.IntegerField(label=_("Fewest players"), min_value=2, initial=6)
    max_players = forms.IntegerField(label=_("Most players"), min_value=2, initial=16)
    access = forms.ChoiceField(label=_("Who may join"), choices=Tournament.Access.choices)

    def __init__(self, game: GameKind, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.game = game
        self.fields["starts_at"].initial = (timezone.localtime() + timedelta(days=3)).strftime(
            "%Y-%m-%dT%H:00"
        )
        for spec in game.option_specs:
            self.fields[f"option_{spec.name}"] = option_field(spec)

    def arguments(self) -> dict[str, Any]:
        data = self.cleaned_data
        return {
            "name": data["name"],
            "kind": self.game.id,
            "options": {s.name: data[f"option_{s.name}"] for s in self.game.option_specs},
            "format": data["format"],
            "table_size": data["table_size"],
            "rounds": data.get("rounds") or 0,
            "advance": data.get("advance"),
            "move_days": data.get("move_days"),
            "round_days": data["round_days"],
            "rated": data["rated"],
            "starts_at": data["starts_at"],
            "signup_until": data.get("signup_until"),
            "min_players": data["min_players"],
            "max_players": data["max_players"],
            "access": data["access"],
        }

    def add_service_error(self, error: ValidationError) -> None:
        if hasattr(error, "error_dict"):
            for name, messages in error.message_dict.items():
                field = name if name in self.fields else f"option_{name}"
                self.add_error(field if field in self.fields else None, messages)
        else:
            self.add_error(None, error.messages)
