from django.apps import AppConfig


class OpsConfig(AppConfig):
    """An app only for its management command (``manage.py backup``): no models."""

    name = "guildhall_site.ops"
    label = "ops"
    verbose_name = "Operations"
