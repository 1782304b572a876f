from django.apps import AppConfig


class PrivacyConfig(AppConfig):
    # A player's data (docs/privacy.md): its download, and the account's deletion. An app of
    # its own above the tournaments (it withdraws the player from theirs), with no tables.
    name = "games.privacy"
    label = "privacy"
