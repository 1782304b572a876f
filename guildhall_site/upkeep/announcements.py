"""Announcements: what an administrator writes in the admin, on every page until each
player dismisses it.

The announcements not yet ended are kept in the cache (``CACHE_KEY``, written again at each
save or delete), so that a page costs no query while none is shown. A logged-in player's
dismissals are rows (the same on every device), cached per player; an anonymous visitor's
are a cookie of ids (``COOKIE``), bounded.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.core.cache import cache
from django.db import IntegrityError, transaction
from django.db.models import Q
from django.http import HttpRequest
from django.utils import timezone

from guildhall_site.upkeep.maintenance import cache_seconds
from guildhall_site.upkeep.memo import MISSING, Memo
from guildhall_site.upkeep.models import Announcement, AnnouncementDismissal

CACHE_KEY = "upkeep:announcements"
COOKIE = "dismissed_announcements"
# An anonymous visitor's cookie remembers the newest this many dismissals.
COOKIE_IDS = 20
COOKIE_MAX_AGE = 365 * 24 * 3600
_memo = Memo()


@dataclass(frozen=True)
class Shown:
    """An announcement as the banner and the API show it."""

    id: int
    text: str
    link: str
    level: str
    starts_at: datetime
    ends_at: datetime | None


def _not_ended() -> list[Shown]:
    rows = _memo.get(CACHE_KEY)
    if rows is MISSING:
        rows = _cached()
        _memo.set(CACHE_KEY, rows)
    return [Shown(**row) for row in rows]


def _cached() -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] | None = cache.get(CACHE_KEY)
    if rows is None:
        query = Announcement.objects.filter(Q(ends_at__isnull=True) | Q(ends_at__gt=timezone.now()))
        rows = [
            vars(Shown(a.pk, a.text, a.link, a.level, a.starts_at, a.ends_at))
            for a in query.order_by("starts_at", "pk")
        ]
        cache.set(CACHE_KEY, rows, cache_seconds())
    return rows


def current(now: datetime | None = None) -> list[Shown]:
    """The announcements shown now, oldest first."""
    now = now or timezone.now()
    return [
        a for a in _not_ended() if a.starts_at <= now and (a.ends_at is None or a.ends_at > now)
    ]


def changed(**kwargs: object) -> None:
    """(post_save and post_delete of an Announcement.)"""
    cache.delete(CACHE_KEY)
    _memo.forget(CACHE_KEY)


def _user_key(user_id: int) -> str:
    return f"upkeep:dismissed:{user_id}"


def dismissed_by(request: HttpRequest) -> set[int]:
    """The ids of the announcements this visitor dismissed."""
    user = request.user
    if user.is_authenticated:
        ids = cache.get(_user_key(user.pk))
        if ids is None:
            ids = list(
                AnnouncementDismissal.objects.filter(user=user).values_list(
                    "announcement_id", flat=True
                )
            )
            cache.set(_user_key(user.pk), ids, cache_seconds())
        return set(ids)
    return set(cookie_ids(request.COOKIES.get(COOKIE, "")))


def for_request(request: HttpRequest) -> list[Shown]:
    """The announcements to show this visitor: current, not dismissed."""
    shown = current()
    if not shown:
        return []
    gone = dismissed_by(request)
    return [a for a in shown if a.id not in gone]


def cookie_ids(value: str) -> list[int]:
    """The ids in a cookie, ignoring anything that is not one (a cookie is anyone's text)."""
    ids = []
    for part in value.split(".")[:COOKIE_IDS]:
        if part.isdigit() and len(part) <= 12:
            ids.append(int(part))
    return ids


def do_dismiss(request: HttpRequest, announcement_id: int) -> str | None:
    """Dismiss an announcement for this visitor; the cookie's new value for an anonymous
    one (None for a player: a row). Unknown ids are refused with Announcement.DoesNotExist."""
    announcement = Announcement.objects.get(pk=announcement_id)
    user = request.user
    if user.is_authenticated:
        try:
            with transaction.atomic():
                AnnouncementDismissal.objects.create(user=user, announcement=announcement)
        except IntegrityError:
            pass  # dismissed twice (two tabs): once is enough
        cache.delete(_user_key(user.pk))
        return None
    ids = [i for i in cookie_ids(request.COOKIES.get(COOKIE, "")) if i != announcement.pk]
    return ".".join(str(i) for i in [announcement.pk, *ids][:COOKIE_IDS])
