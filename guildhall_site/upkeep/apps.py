from django.apps import AppConfig


class UpkeepConfig(AppConfig):
    """The operator's upkeep of the site (docs/deploy.md, "Maintenance, announcements and
    bounces"): maintenance mode, announcements, bounced email addresses. Below every app: it
    imports none of games or accounts (the games' clocks follow it in games.play.maintenance).
    """

    name = "guildhall_site.upkeep"
    label = "upkeep"
    verbose_name = "Upkeep"

    def ready(self) -> None:
        from allauth.account.signals import email_confirmed
        from django.db.models.signals import post_delete, post_save

        from guildhall_site.upkeep import announcements, bounces
        from guildhall_site.upkeep.models import Announcement, BouncedAddress

        # The banners read the announcements from the cache: an edit in the admin is seen
        # at the next request.
        post_save.connect(announcements.changed, sender=Announcement, dispatch_uid="upkeep-ann")
        post_delete.connect(announcements.changed, sender=Announcement, dispatch_uid="upkeep-ann-d")
        post_save.connect(bounces.row_changed, sender=BouncedAddress, dispatch_uid="upkeep-b")
        post_delete.connect(bounces.row_changed, sender=BouncedAddress, dispatch_uid="upkeep-b-d")
        # A player who confirms their address again says it works: its bounce is forgotten.
        email_confirmed.connect(bounces.address_confirmed, dispatch_uid="upkeep-bounce-confirmed")
