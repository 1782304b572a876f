from typing import Any

from allauth.account import app_settings
from allauth.account.adapter import get_adapter
from allauth.account.forms import LoginForm as AllauthLoginForm
from allauth.account.models import EmailAddress
from django import forms
from django.contrib.auth import password_validation
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from accounts import time_zones, usernames
from accounts.models import User
from accounts.services import COMPUTER_PREFIX, DELETED_NAME, DELETED_PREFIX, GUEST_PREFIX


class TimeZoneSelect(forms.Select):
    """The time zones grouped by region ("Europe" › "Berlin (UTC+01:00)"), built when shown
    (the offsets are today's), always with the value shown among them (accounts.time_zones).

    A value typed elsewhere ("berlin", from an old form) is shown as the zone it means; one
    that means none shows an empty first choice, so that nothing else looks chosen."""

    def get_context(self, name: str, value: object, attrs: dict[str, Any] | None) -> dict[str, Any]:
        current = value if isinstance(value, str) else ""
        try:
            current = time_zones.parse_time_zone(current)
        except forms.ValidationError:
            current = ""
        choices = time_zones.choices(current)
        if not current:
            choices.insert(0, ("", _("Choose your time zone")))
        self.choices = choices
        return super().get_context(name, current, attrs)


class ProfileForm(forms.ModelForm[User]):
    # The model's checks (a name this machine knows, 64 characters) still run on the name
    # clean_time_zone makes of what was sent.
    time_zone = forms.CharField(
        label=_("Time zone"),
        help_text=_("Times on the site and in emails are shown in this zone."),
        widget=TimeZoneSelect,
    )

    class Meta:
        model = User
        fields = ["display_name", "time_zone", "language", *User.EMAIL_PREFERENCES]
        # The model's field has no verbose name of its own (a new one would need a migration).
        labels = {"display_name": _("Display name")}

    EMAIL_FIELDS = User.EMAIL_PREFERENCES

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if self.instance.is_guest:
            # A guest has no address to send to; they get these once they save their account.
            for name in self.EMAIL_FIELDS:
                del self.fields[name]

    def clean_display_name(self) -> str:
        """The username rules (accounts.usernames), for a name others will see: stored NFKC,
        never looking like another account's username or display name, nor a computer
        player's, a guest's or a reserved name. A name kept as it was passes as it is (one
        chosen before these rules, the API's preferences go through this form too)."""
        name = usernames.normalise_display_name(self.cleaned_data["display_name"])
        kept = usernames.normalise_display_name(self.initial.get("display_name") or "")
        if not name or name == kept:
            return name
        if usernames.hidden_characters(name):
            raise forms.ValidationError(
                _("A display name may not hold invisible or control characters.")
            )
        if usernames.reserved_word(name):
            raise forms.ValidationError(
                _("Only computer players have “computer” in their names: please choose another.")
            )
        look = usernames.skeleton(name)
        reserved = {usernames.skeleton(word) for word in app_settings.USERNAME_BLACKLIST}
        starts = (GUEST_PREFIX, COMPUTER_PREFIX, DELETED_PREFIX, DELETED_NAME)
        prefixes = [usernames.skeleton(p) for p in starts]
        if look in reserved or look.startswith(tuple(prefixes)):
            raise forms.ValidationError(_("This name is reserved: please choose another."))
        others = User.objects.exclude(pk=self.instance.pk)
        taken = others.filter(Q(username_skeleton=look) | Q(display_name_skeleton=look))
        if taken.exists():
            raise forms.ValidationError(
                _("This name looks too much like another player's: please choose another.")
            )
        return name

    def clean_time_zone(self) -> str:
        # Lenient, like the API (which comes through this form): "Berlin" is Europe/Berlin.
        return time_zones.parse_time_zone(self.cleaned_data["time_zone"])


class LoginForm(AllauthLoginForm):
    """allauth's login form (settings.ACCOUNT_FORMS) with labels in the site's words: the
    field is not a "Login" beside a "Log in" button, and no Title Case."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["login"].label = _("Username or email")
        if "remember" in self.fields:
            self.fields["remember"].label = _("Remember me")


class GuestConversionForm(forms.Form):
    username = forms.CharField(label=_("Username"), min_length=3, max_length=150)
    email = forms.EmailField(label=_("Email"))
    password1 = forms.CharField(label=_("Password"), widget=forms.PasswordInput)
    password2 = forms.CharField(label=_("Password (again)"), widget=forms.PasswordInput)

    def __init__(self, *args: Any, user: User, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.user = user

    def clean_username(self) -> str:
        # The same rules as at sign-up: allauth's adapter checks characters, length, reserved
        # names (our adapter keeps "guest-" for guests) and uniqueness.
        return get_adapter().clean_username(self.cleaned_data["username"])

    def clean_email(self) -> str:
        email: str = self.cleaned_data["email"].lower()
        taken = (
            EmailAddress.objects.filter(email__iexact=email).exists()
            or User.objects.filter(email__iexact=email).exists()
        )
        if taken:
            raise forms.ValidationError(_("Another account already uses this email address."))
        return email

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean()
        assert cleaned is not None  # Django's clean() gives back cleaned_data
        password1 = cleaned.get("password1")
        password2 = cleaned.get("password2")
        if password1 and password2 and password1 != password2:
            self.add_error("password2", _("The two passwords differ."))
        elif password1:
            candidate = User(username=cleaned.get("username", ""), email=cleaned.get("email", ""))
            try:
                password_validation.validate_password(password1, candidate)
            except forms.ValidationError as error:
                self.add_error("password1", error)
        return cleaned
