from django.apps import AppConfig
from django.contrib.auth.signals import user_logged_in


class AccountsConfig(AppConfig):
    name = "accounts"

    def ready(self) -> None:
        from accounts import deletion

        # Logging in again cancels a deletion asked for (accounts.deletion).
        user_logged_in.connect(deletion.cancel_on_login, dispatch_uid="deletion-cancelled")
