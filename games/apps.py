from django.apps import AppConfig


class GamesConfig(AppConfig):
    name = "games"

    def ready(self) -> None:
        # Every game under games/ registers itself when its ``game`` module is imported.
        from games.core import registry

        registry.discover("games")
