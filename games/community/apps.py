from django.apps import AppConfig
from django.db.models.signals import post_delete, post_save


class CommunityConfig(AppConfig):
    # The players among themselves: friends, blocks, messages (their tables, taken over from
    # the accounts app), the games' chat, and reports to the moderators (an app of its own,
    # games.community.moderation).
    name = "games.community"
    label = "community"

    def ready(self) -> None:
        from games.community.messages import actions
        from games.community.models import Block, Message

        # The unread counts on the users' rows follow blocks and hidden messages.
        post_save.connect(actions.block_changed, sender=Block, dispatch_uid="unread-block")
        post_delete.connect(actions.block_changed, sender=Block, dispatch_uid="unread-unblock")
        post_save.connect(actions.message_saved, sender=Message, dispatch_uid="unread-hidden")
