"""Bounced email addresses: the mail provider says an address cannot be delivered to
(``manage.py email_bounced``, or its webhook, ``views.bounce_webhook``); from then on no
email goes there (``mail.EmailBackend`` drops it, and games.notifications skips its
notifications), and the player whose address it is sees a notice on every page asking them
to fix it. The notice goes when they change their address, or confirm it again: asking for
a confirmation link (``confirmation_token``) lets emails through again (``retrying``), and
following it forgets the bounce, as does confirming the address with allauth
(``address_confirmed``). A new bounce while retrying suppresses it again.

Whether an address bounced is cached per address (``_key``, and remembered for a moment in
each process: ``memo``), so that a player's pages cost no query for it.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from typing import TYPE_CHECKING

from django.core import signing
from django.core.cache import cache
from django.core.validators import validate_email
from django.utils import timezone

if TYPE_CHECKING:  # (allauth's, which guildhall_site does not import when run)
    from allauth.account.models import EmailAddress
    from django.http import HttpRequest

from guildhall_site.upkeep.maintenance import cache_seconds
from guildhall_site.upkeep.memo import MISSING, Memo
from guildhall_site.upkeep.models import BouncedAddress

# The cached answers: the address is suppressed, it bounced but the player asked to retry
# it, it is fine.
SUPPRESSED, RETRYING, FINE = "suppressed", "retrying", "fine"
_memo = Memo()


def normal(address: str) -> str:
    return address.strip().lower()


def _key(address: str) -> str:
    return "upkeep:bounced:" + hashlib.sha256(normal(address).encode()).hexdigest()[:32]


def state(address: str) -> str:
    """SUPPRESSED, RETRYING or FINE: from the cache, else one query."""
    if not address:
        return FINE
    key = _key(address)
    found = _memo.get(key)
    if found is MISSING:
        found = cache.get(key)
        if found is None:
            row = BouncedAddress.objects.filter(email=normal(address)).first()
            found = FINE if row is None else RETRYING if row.retrying else SUPPRESSED
            cache.set(key, found, cache_seconds())
        _memo.set(key, found)
    status: str = found
    return status


def _changed(address: str) -> None:
    cache.delete(_key(address))
    _memo.forget(_key(address))


def suppressed(addresses: Iterable[str]) -> set[str]:
    """Those of these addresses that get no email (normalised), in one query."""
    wanted = {normal(a) for a in addresses if a}
    if not wanted:
        return set()
    return set(
        BouncedAddress.objects.filter(email__in=wanted, retrying=False).values_list(
            "email", flat=True
        )
    )


def record(address: str, reason: str = "") -> BouncedAddress:
    """The provider says ``address`` bounced (again): suppress it. Raises ValidationError
    for something that is not an address."""
    address = normal(address)
    validate_email(address)
    row, _ = BouncedAddress.objects.update_or_create(
        email=address,
        defaults={"bounced_at": timezone.now(), "reason": reason[:200], "retrying": False},
    )
    _changed(address)
    return row


def retry(address: str) -> bool:
    """The player asks for a confirmation link to their bounced address: emails go there
    again (the link among them); whether it had bounced."""
    changed = BouncedAddress.objects.filter(email=normal(address)).update(retrying=True)
    _changed(address)
    return bool(changed)


def forget(address: str) -> bool:
    """The address works: whether it had bounced."""
    deleted, _ = BouncedAddress.objects.filter(email=normal(address)).delete()
    _changed(address)
    return bool(deleted)


# A confirmation link works this long.
CONFIRM_MAX_AGE = 7 * 24 * 3600
_SALT = "upkeep.bounces.confirm"


def confirmation_token(user_id: int, address: str) -> str:
    return signing.dumps({"u": user_id, "e": normal(address)}, salt=_SALT, compress=True)


def confirmed_address(token: str) -> str | None:
    """The address a confirmation link was sent to, if the link is genuine and recent."""
    try:
        found = signing.loads(token, salt=_SALT, max_age=CONFIRM_MAX_AGE)
    except signing.BadSignature:  # (SignatureExpired is one)
        return None
    email = found.get("e") if isinstance(found, dict) else None
    return email if isinstance(email, str) else None


def row_changed(sender: object, instance: BouncedAddress, **kwargs: object) -> None:
    """(post_save and post_delete of a row, as the admin makes them.)"""
    _changed(instance.email)


def address_confirmed(
    request: HttpRequest | None = None,
    email_address: EmailAddress | None = None,
    **kwargs: object,
) -> None:
    """(allauth's email_confirmed: the player followed a confirmation link.)"""
    if email_address is not None:
        forget(email_address.email)
