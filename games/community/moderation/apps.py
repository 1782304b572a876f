from django.apps import AppConfig


class ModerationConfig(AppConfig):
    # Reports of what people wrote, and what moderators did about them: a part of the games
    # app with tables of its own (it knows chat lines, messages and accounts).
    name = "games.community.moderation"
    label = "moderation"
