"""Path converters of the site's URLs (registered on import, once for every urls module)."""

from django.urls import register_converter


class IdConverter:
    """A database id: digits that fit a 64-bit column (a longer number is no id: 404, where
    Django's ``int`` would pass it on for the database to choke on)."""

    regex = "[0-9]{1,18}"

    def to_python(self, value: str) -> int:
        return int(value)

    def to_url(self, value: int) -> str:
        return str(value)


register_converter(IdConverter, "id")
