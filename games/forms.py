import re

from django import forms

from accounts.models import User
from games.models import MOVE_DAYS_CHOICES, RuleSet


class InvitationForm(forms.Form):
    players = forms.TypedChoiceField(
        choices=[(n, f"{n} players") for n in (2, 3, 4)], coerce=int, initial=2
    )
    rules = forms.ChoiceField(
        choices=RuleSet.choices,
        initial=RuleSet.YUCATA,
        help_text="Yucata: the rules of Yucata.de (delayed chapter discard, later VP reveal).",
    )
    advanced = forms.BooleanField(
        required=False,
        label="Advanced rules",
        help_text="No playing a profession already in your action area; hidden discard pile.",
    )
    fantasy_names = forms.BooleanField(required=False, label="Fantasy profession names")
    move_days = forms.TypedChoiceField(
        label="Time per move",
        choices=[("" if d is None else d, label) for d, label in MOVE_DAYS_CHOICES],
        coerce=int,
        empty_value=None,
        required=False,
        initial=3,
    )
    invitees = forms.CharField(
        label="Invite",
        required=False,
        help_text="Usernames, separated by spaces or commas. Leave blank to open the game to all.",
        widget=forms.TextInput(attrs={"autocapitalize": "none", "autocomplete": "off"}),
    )

    def __init__(self, *args, creator: User, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.creator = creator

    def clean_invitees(self) -> list[User]:
        names = [n.lstrip("@") for n in re.split(r"[\s,]+", self.cleaned_data["invitees"])]
        names = [n for n in dict.fromkeys(names) if n]
        invitees, missing = [], []
        for name in names:
            # Usernames are stored as typed at sign-up; people type them as they remember.
            user = User.objects.filter(username__iexact=name, is_active=True).first()
            (missing if user is None else invitees).append(user or name)
        if missing:
            raise forms.ValidationError(f"No player is called {', '.join(missing)}.")
        if self.creator in invitees:
            raise forms.ValidationError("You take a seat anyway: leave your own name out.")
        return list(dict.fromkeys(invitees))

    def clean(self):
        data = super().clean()
        players, invitees = data.get("players"), data.get("invitees")
        if players and invitees and len(invitees) < players - 1:
            self.add_error(
                "invitees",
                f"Name at least {players - 1} players for a {players}-player game, "
                "or leave this blank to open the game to all.",
            )
        return data
