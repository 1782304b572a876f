from django.apps import AppConfig


class NotificationsConfig(AppConfig):
    # A part of the games app with tables of its own; the label keeps the table names short.
    name = "games.notifications"
    label = "notifications"
