"""The new-game form: the game's own options, built from its option descriptions
(``GameKind.option_specs``), then the time per move and who may take a seat.

Each option shows its help beneath it, with a link to the option's section of the game's
rules page (``#option-<name>``) when the game has one; a choice among a few is a set of
radio buttons, every choice in view (its help names each)."""

from __future__ import annotations

import re
from typing import Any

from django import forms
from django.core.exceptions import ValidationError
from django.urls import reverse
from django.utils.html import format_html
from django.utils.translation import gettext, gettext_lazy, ngettext

from accounts.models import User
from games.community.friends import reads as friends
from games.core import GameKind, OptionSpec
from games.models import MOVE_DAYS_CHOICES
from games.play import computer_players, invitations
from games.play.errors import Invalid
from games.reads import lobby_filters

# A choice among at most this many is radio buttons (all in view), else a menu.
RADIO_CHOICES = 4


def rules_page(game: GameKind) -> str | None:
    """The URL of the game's rules page on this site, or None if it has none."""
    return reverse("games:rules", args=[game.id]) if game.rules_template else None


def option_help(spec: OptionSpec, rules_url: str | None = None) -> str:
    """The help of an option: its text, and a link to its part of the rules page."""
    if not rules_url:
        return spec.help
    link = format_html(
        '<a href="{}#option-{}">{}</a>', rules_url, spec.name, gettext("More in the rules")
    )
    return format_html("{} {}", spec.help, link) if spec.help else link


def option_field(spec: OptionSpec, rules_url: str | None = None) -> forms.Field:
    """The form field of one game option (``rules_url``: the game's rules page), in the
    language of the moment."""
    spec = spec.translated()
    help_text = option_help(spec, rules_url)
    if spec.kind == "bool":
        return forms.BooleanField(
            required=False, label=spec.label, help_text=help_text, initial=spec.default
        )
    if spec.kind == "choice":
        few = len(spec.choices) <= RADIO_CHOICES
        return forms.ChoiceField(
            choices=list(spec.choices),
            label=spec.label,
            help_text=help_text,
            initial=spec.default,
            widget=forms.RadioSelect if few else forms.Select,
        )
    return forms.IntegerField(
        label=spec.label,
        help_text=help_text,
        initial=spec.default,
        min_value=spec.minimum,
        max_value=spec.maximum,
    )


class InvitationForm(forms.Form):
    move_days = forms.TypedChoiceField(
        label=gettext_lazy("Time per move"),
        choices=[("" if d is None else d, label) for d, label in MOVE_DAYS_CHOICES],
        coerce=int,
        empty_value=None,
        required=False,
        initial=3,
    )
    invitees = forms.CharField(
        label=gettext_lazy("Invite"),
        required=False,
        help_text=gettext_lazy(
            "Usernames, separated by spaces or commas. Leave blank to open the game to all."
        ),
        widget=forms.TextInput(attrs={"autocapitalize": "none", "autocomplete": "off"}),
    )
    rated = forms.BooleanField(
        label=gettext_lazy("Rated game"),
        required=False,
        initial=True,
        help_text=gettext_lazy(
            "The result counts for the players' ratings and the leaderboard. Games with "
            "computer players, and games for one player, are never rated."
        ),
    )

    chat_players_only = forms.BooleanField(
        label=gettext_lazy("Chat for the players only"),
        required=False,
        initial=False,
        help_text=gettext_lazy("Spectators of the game do not read its chat."),
    )

    def __init__(
        self,
        *args: Any,
        creator: User,
        game: GameKind,
        against_computer: bool = False,
        **kwargs: Any,
    ) -> None:
        super().__init__(*args, **kwargs)
        self.creator = creator
        self.game = game
        # The creator's friends come first when naming invitees: offered as they type.
        self.friend_names = [u.username for u in friends.friends(creator)]
        if self.friend_names:
            self.fields["invitees"].widget.attrs["list"] = "friend-names"
            self.fields["invitees"].help_text = gettext(
                "Usernames, separated by spaces or commas. Leave blank to open the game to "
                "all. Your friends: %(names)s."
            ) % {"names": ", ".join(self.friend_names)}
        counts = range(game.min_players, game.max_players + 1)
        players = max(game.min_players, min(2, game.max_players))
        fields: dict[str, forms.Field] = {
            "players": forms.TypedChoiceField(
                label=gettext("Players"),
                choices=[
                    (n, ngettext("%(n)d player", "%(n)d players", n) % {"n": n}) for n in counts
                ],
                coerce=int,
                initial=players,
            )
        }
        rules_url = rules_page(game)
        fields |= {spec.name: option_field(spec, rules_url) for spec in game.option_specs}
        self.option_names = [spec.name for spec in game.option_specs]
        if game.max_players > 1:
            fields["computers"] = forms.TypedChoiceField(
                label=gettext("Computer players"),
                choices=[(n, str(n)) for n in range(game.max_players)],
                coerce=int,
                required=False,
                # Django takes any value for empty; its stubs only str or None.
                empty_value=0,  # type: ignore[arg-type]
                initial=players - 1 if against_computer else 0,
                help_text=gettext(
                    "They take their seats at once. With every other seat a computer's, "
                    "the game starts now."
                ),
            )
            levels = game.computer_levels
            self.default_level = "normal" if "normal" in levels else levels[0]
            fields["computer_level"] = forms.ChoiceField(
                label=gettext("Their strength"),
                choices=[(level, computer_players.level_label(level)) for level in levels],
                initial=self.default_level,
                required=False,
            )
        # The game's fields first, in the order it describes them.
        self.fields = fields | dict(self.fields)

    def clean_invitees(self) -> list[str]:
        """The usernames typed, separated by spaces or commas."""
        return [n for n in re.split(r"[\s,]+", self.cleaned_data["invitees"]) if n]

    def clean(self) -> dict[str, Any]:
        """The invitation's rules (``games.play.invitations``), on what the fields gave, so
        that the form shows a broken rule beside the other fields' errors."""
        data = super().clean()
        assert data is not None  # Django's clean() gives back cleaned_data
        if "players" in data:
            try:
                invitations.check_new_invitation(self.creator, **self._arguments(data))
            except Invalid as error:
                if error.field not in self.errors:  # not on a field's own error
                    self.add_errors(error)
        return data

    def add_errors(self, error: ValidationError) -> None:
        """The errors of ``games.play.invitations``, on the fields they name."""
        for field, messages in getattr(error, "message_dict", {"__all__": error.messages}).items():
            self.add_error(field if field in self.fields else None, messages)

    def invitation(self) -> dict[str, Any]:
        """The keyword arguments of ``games.play.invitations.do_create_invitation``, once
        valid."""
        return self._arguments(self.cleaned_data)

    def _arguments(self, data: dict[str, Any]) -> dict[str, Any]:
        return {
            "kind": self.game.id,
            "players": data["players"],
            "options": {s.name: data[s.name] for s in self.game.option_specs if s.name in data},
            "move_days": data.get("move_days"),
            "invitees": data.get("invitees", []),
            "computers": [data.get("computer_level") or self.default_level]
            * (data.get("computers") or 0),
            # Ignored with computer players (the services turn it off; the help says so).
            "rated": data.get("rated", False),
            "chat_players_only": data.get("chat_players_only", False),
        }


class ComputerGameForm(InvitationForm):
    """A game against the computer, the short way: the game's options, how many computer
    opponents and how strong. Nobody else is invited, nothing is rated, and the game starts
    at once (no time limit: the computer answers at once)."""

    FIELDS_LEFT_OUT = ("players", "move_days", "invitees", "rated", "chat_players_only")

    def __init__(self, *args: Any, creator: User, game: GameKind, **kwargs: Any) -> None:
        super().__init__(*args, creator=creator, game=game, against_computer=True, **kwargs)
        for name in self.FIELDS_LEFT_OUT:
            self.fields.pop(name, None)
        for spec in game.option_specs:  # the computer makes two players at least
            if spec.most_players is not None and spec.most_players < 2:
                self.fields.pop(spec.name, None)
                self.option_names.remove(spec.name)
        least = max(1, game.min_players - 1)
        self.fields["computers"] = forms.TypedChoiceField(
            label=gettext("Opponents"),
            choices=[
                (n, ngettext("%(n)d computer player", "%(n)d computer players", n) % {"n": n})
                for n in range(least, game.max_players)
            ],
            coerce=int,
            initial=least,
        )

    def clean(self) -> dict[str, Any]:
        data = self.cleaned_data
        if "computers" in data:
            data["players"] = 1 + data["computers"]
        return super().clean()

    def _arguments(self, data: dict[str, Any]) -> dict[str, Any]:
        return super()._arguments(data) | {
            "move_days": None,
            "invitees": [],
            "rated": False,
            "chat_players_only": False,
        }


class LobbyFilterForm(forms.Form):
    """The lobby's filters (a GET form; every field may stay at "any"). A value it cannot
    read is shown as the field's error and filters nothing."""

    game = forms.ChoiceField(label=gettext_lazy("Game"), required=False)
    players = forms.TypedChoiceField(
        label=gettext_lazy("Players"), required=False, coerce=int, empty_value=None
    )
    move_days = forms.ChoiceField(label=gettext_lazy("Time per move"), required=False)
    min_rating = forms.IntegerField(
        label=gettext_lazy("Host's rating at least"),
        required=False,
        min_value=0,
        max_value=10000,
        widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
    )
    friends = forms.BooleanField(label=gettext_lazy("Only my friends' invitations"), required=False)

    def __init__(self, *args: Any, games: list[GameKind], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        any_choice = ("", gettext("any"))
        self._choice_field("game").choices = [any_choice] + [(g.id, g.name) for g in games]
        most = max((g.max_players for g in games), default=2)
        self._choice_field("players").choices = [any_choice] + [
            (n, str(n)) for n in range(1, most + 1)
        ]
        self._choice_field("move_days").choices = [any_choice] + [
            (lobby_filters.NO_LIMIT if d is None else str(d), label)
            for d, label in MOVE_DAYS_CHOICES
        ]

    def _choice_field(self, name: str) -> forms.ChoiceField:
        field = self.fields[name]
        assert isinstance(field, forms.ChoiceField)  # declared so above
        return field

    def lobby_filter(self) -> lobby_filters.LobbyFilter:
        """What the valid fields ask for (an invalid one asks nothing)."""
        if self.is_bound:
            self.is_valid()  # a field in error is left out of cleaned_data
        data = getattr(self, "cleaned_data", {})
        days = data.get("move_days") or None
        return lobby_filters.LobbyFilter(
            game=data.get("game") or None,
            players=data.get("players"),
            move_days=int(days) if days and days != lobby_filters.NO_LIMIT else days,
            min_rating=data.get("min_rating"),
        )
