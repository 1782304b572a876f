from django.apps import AppConfig
from django.contrib.auth.signals import user_logged_in
from django.db.models.signals import post_delete, post_save


class AccountsConfig(AppConfig):
    name = "accounts"

    def ready(self) -> None:
        from accounts import deletion, messages
        from accounts.models import Block, Message

        # The unread counts on the users' rows follow blocks and hidden messages.
        post_save.connect(messages.block_changed, sender=Block, dispatch_uid="unread-block")
        post_delete.connect(messages.block_changed, sender=Block, dispatch_uid="unread-unblock")
        post_save.connect(messages.message_saved, sender=Message, dispatch_uid="unread-hidden")
        # Logging in again cancels a deletion asked for (accounts.deletion).
        user_logged_in.connect(deletion.cancel_on_login, dispatch_uid="deletion-cancelled")
