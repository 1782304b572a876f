from typing import Any, cast

from django import forms
from django.db import models

from accounts.models import User
from games.notifications import push


class PushPreferencesForm(forms.ModelForm[User]):
    """Which kinds of push notification the player's devices get (the settings page's push
    panel)."""

    class Meta:
        model = User
        fields = list(push.PREFERENCE.values())
        # Each ends the panel's sentence ("... when it is my turn"): as the model words it,
        # without the capital letter a form gives a label.
        labels = {
            # Concrete fields of the user (push.PREFERENCE), not relations.
            name: cast("models.Field[Any, Any]", User._meta.get_field(name)).verbose_name
            for name in fields
        }
