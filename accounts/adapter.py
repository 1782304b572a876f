from allauth.account.adapter import DefaultAccountAdapter
from django import forms

from accounts.services import GUEST_PREFIX


class AccountAdapter(DefaultAccountAdapter):
    def clean_username(self, username: str, shallow: bool = False) -> str:
        # Names starting with "guest-" mark guest accounts; nobody may choose one.
        if username.lower().startswith(GUEST_PREFIX):
            raise forms.ValidationError(f"Usernames starting with “{GUEST_PREFIX}” are reserved.")
        return super().clean_username(username, shallow=shallow)
