from django.apps import AppConfig


class WebhooksConfig(AppConfig):
    # An edge of the games app with tables of its own (docs/api.md, "Webhooks").
    name = "games.webhooks"
    label = "webhooks"

    def ready(self) -> None:
        from games.play import events
        from games.webhooks import services

        # An event goes to the webhooks' lane only when someone it concerns has a hook on.
        events.register_audience(events.WEBHOOK_GAME_EVENT, services.anyone_hooked)
        events.register_audience(events.WEBHOOK_INVITATION, services.anyone_hooked)
