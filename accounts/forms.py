from allauth.account.adapter import get_adapter
from allauth.account.models import EmailAddress
from django import forms
from django.contrib.auth import password_validation

from accounts.models import User, time_zone_names


class ProfileForm(forms.ModelForm):
    class Meta:
        model = User
        fields = [
            "display_name",
            "time_zone",
            "language",
            "turn_emails",
            "reminder_after_hours",
            "weekly_reminders",
            "deadline_emails",
            "game_emails",
            "invitation_emails",
        ]
        widgets = {
            # A text box with suggestions rather than a select of 600 zones: easier on a phone.
            "time_zone": forms.TextInput(attrs={"list": "time-zones", "autocomplete": "off"}),
        }

    EMAIL_FIELDS = [
        "turn_emails",
        "reminder_after_hours",
        "weekly_reminders",
        "deadline_emails",
        "game_emails",
        "invitation_emails",
    ]

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        if self.instance.is_guest:
            # A guest has no address to send to; they get these once they save their account.
            for name in self.EMAIL_FIELDS:
                del self.fields[name]

    def clean_time_zone(self) -> str:
        return self.cleaned_data["time_zone"].strip()

    @staticmethod
    def time_zone_names() -> list[str]:
        return sorted(time_zone_names())


class GuestConversionForm(forms.Form):
    username = forms.CharField(min_length=3, max_length=150)
    email = forms.EmailField()
    password1 = forms.CharField(label="Password", widget=forms.PasswordInput)
    password2 = forms.CharField(label="Password (again)", widget=forms.PasswordInput)

    def __init__(self, *args, user: User, **kwargs):
        super().__init__(*args, **kwargs)
        self.user = user

    def clean_username(self) -> str:
        # The same rules as at sign-up: allauth's adapter checks characters, length, reserved
        # names (our adapter keeps "guest-" for guests) and uniqueness.
        return get_adapter().clean_username(self.cleaned_data["username"])

    def clean_email(self) -> str:
        email = self.cleaned_data["email"].lower()
        taken = (
            EmailAddress.objects.filter(email__iexact=email).exists()
            or User.objects.filter(email__iexact=email).exists()
        )
        if taken:
            raise forms.ValidationError("Another account already uses this email address.")
        return email

    def clean(self):
        cleaned = super().clean()
        password1 = cleaned.get("password1")
        password2 = cleaned.get("password2")
        if password1 and password2 and password1 != password2:
            self.add_error("password2", "The two passwords differ.")
        elif password1:
            candidate = User(username=cleaned.get("username", ""), email=cleaned.get("email", ""))
            try:
                password_validation.validate_password(password1, candidate)
            except forms.ValidationError as error:
                self.add_error("password1", error)
        return cleaned
