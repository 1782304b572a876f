from django.apps import AppConfig


class GamesConfig(AppConfig):
    name = "games"

    def ready(self) -> None:
        # Every game under games/ registers itself when its ``game`` module is imported.
        from games.core import registry

        registry.discover("games")
        # The engines' texts are translated into the language active at the time (pages,
        # emails, tasks), through Django's catalogue: games.core.i18n.
        from django.utils import translation

        from games.core import i18n

        i18n.install(translation)
