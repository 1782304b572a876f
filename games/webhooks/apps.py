from django.apps import AppConfig


class WebhooksConfig(AppConfig):
    # An edge of the games app with tables of its own (docs/api.md, "Webhooks").
    name = "games.webhooks"
    label = "webhooks"
