"""Sessions stored with Django's or allauth's own backend name now name the site's
subclasses (``accounts.backends``): Django logs out a session whose backend is no longer
configured, so without this everyone would have had to log in again."""

from importlib import import_module

from django.conf import settings
from django.contrib.auth import BACKEND_SESSION_KEY
from django.db import migrations
from django.utils import timezone

FORWARD = {
    "django.contrib.auth.backends.ModelBackend": "accounts.backends.ModelBackend",
    "allauth.account.auth_backends.AuthenticationBackend": (
        "accounts.backends.AuthenticationBackend"
    ),
}


def rename(apps, renamed: dict[str, str]) -> None:
    Session = apps.get_model("sessions", "Session")
    store = import_module(settings.SESSION_ENGINE).SessionStore()
    live = Session.objects.filter(expire_date__gt=timezone.now())
    for key, data in live.values_list("session_key", "session_data").iterator():
        session = store.decode(data)
        new = renamed.get(session.get(BACKEND_SESSION_KEY))
        if new is not None:
            session[BACKEND_SESSION_KEY] = new
            Session.objects.filter(session_key=key).update(session_data=store.encode(session))


def forward(apps, schema_editor) -> None:
    rename(apps, FORWARD)


def backward(apps, schema_editor) -> None:
    rename(apps, {new: old for old, new in FORWARD.items()})


class Migration(migrations.Migration):
    dependencies = [
        ("accounts", "0013_stand_in_everywhere"),
        ("sessions", "0001_initial"),
    ]

    operations = [migrations.RunPython(forward, backward, elidable=True)]
