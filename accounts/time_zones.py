"""Time zones: the names we accept, the picker of the settings page, and lenient reading.

A user's ``time_zone`` is an IANA name (``Europe/Berlin``). The settings page offers a select
of the zones of ``zone.tab`` (one or more per country, the list people recognise: Oslo and
Amsterdam are there even though the tz database makes them aliases), grouped by region,
labelled by their place ("Berlin", "Argentina / Buenos Aires") and today's UTC offset.

``parse_time_zone`` reads what a person or an API client typed: the settings form and the
API (``accounts.api``, through the form) both go through it. An exact name is taken as it is;
otherwise the case, spaces and underscores do not matter, and a place alone ("Berlin",
"new york", "Argentina/Buenos Aires") is taken when exactly one zone ends with it. The zones
of the picker are tried first, then every name the machine knows (old aliases such as
``US/Eastern`` or ``Asia/Calcutta``).
"""

from __future__ import annotations

import re
import zoneinfo
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, datetime
from functools import cache, lru_cache
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, cast

from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

if TYPE_CHECKING:
    from django_stubs_ext import StrOrPromise

    # A choice of the picker (a zone and its label), or a region's group of them.
    Choice = tuple[str, StrOrPromise] | tuple[StrOrPromise, list[tuple[str, str]]]

# The regions of the picker, in its order; the first part of a zone's name.
REGIONS = {
    "Africa": _("Africa"),
    "America": _("America"),
    "Antarctica": _("Antarctica"),
    "Arctic": _("Arctic"),
    "Asia": _("Asia"),
    "Atlantic": _("Atlantic Ocean"),
    "Australia": _("Australia"),
    "Europe": _("Europe"),
    "Indian": _("Indian Ocean"),
    "Pacific": _("Pacific Ocean"),
}
# How many candidates an "ambiguous" error names at most.
MAX_CANDIDATES = 8


@cache
def time_zone_names() -> frozenset[str]:
    """The IANA time zone names this machine knows (from the tzdata package at worst)."""
    return frozenset(zoneinfo.available_timezones())


def _zone_tab() -> str | None:
    """The text of zone.tab: of the tzdata package (a dependency), else of the system."""
    try:
        return resources.files("tzdata").joinpath("zoneinfo", "zone.tab").read_text("utf-8")
    except (ModuleNotFoundError, OSError):
        pass
    for folder in zoneinfo.TZPATH:
        try:
            return (Path(folder) / "zone.tab").read_text("utf-8")
        except OSError:
            continue
    return None


@cache
def picker_names() -> tuple[str, ...]:
    """The zones the settings page offers, sorted: those of zone.tab that this machine knows
    (every zone of a known region when zone.tab cannot be found), and UTC."""
    known = time_zone_names()
    text = _zone_tab()
    if text is not None:
        names = {
            line.split("\t")[2]
            for line in text.splitlines()
            if line and not line.startswith("#") and line.count("\t") >= 2
        }
    else:
        names = {name for name in known if name.split("/", 1)[0] in REGIONS and "/" in name}
    names &= known
    names.add("UTC")
    return tuple(sorted(names))


def place(name: str) -> str:
    """What a zone is called in the picker, without its region: "Argentina / Buenos Aires"."""
    _region, _, rest = name.partition("/")
    return (rest or name).replace("_", " ").replace("/", " / ")


def utc_offset(name: str, now: datetime | None = None) -> str:
    """Today's offset of a zone from UTC, as "UTC+05:30" ("UTC" for none)."""
    offset = (now or datetime.now(UTC)).astimezone(zoneinfo.ZoneInfo(name)).utcoffset()
    minutes = int(offset.total_seconds()) // 60 if offset else 0
    if minutes == 0:
        return "UTC"
    sign = "+" if minutes > 0 else "-"
    hours, minutes = divmod(abs(minutes), 60)
    return f"UTC{sign}{hours:02d}:{minutes:02d}"


def label(name: str, now: datetime | None = None) -> StrOrPromise:
    """A zone's label in the picker: "Berlin (UTC+01:00)"."""
    if name == "UTC":
        return UTC_LABEL
    return f"{place(name)} ({utc_offset(name, now)})"


UTC_LABEL = _("UTC (Coordinated Universal Time)")
# The offsets are worked out again at most this often (seconds): a zone changes its offset
# on the hour or the half hour.
OFFSETS_LIFETIME = 15 * 60


@lru_cache(maxsize=2)
def _grouped(period: int) -> tuple[Choice, ...]:
    now = datetime.fromtimestamp(period * OFFSETS_LIFETIME, UTC)
    groups: dict[str, list[tuple[str, str]]] = {region: [] for region in REGIONS}
    top: list[Choice] = []
    for name in picker_names():
        region = name.split("/", 1)[0]
        if region in groups and "/" in name:
            # A zone in a region is not "UTC": its label is a str, not the lazy UTC_LABEL.
            groups[region].append((name, cast("str", label(name, now))))
        else:
            top.append((name, label(name, now)))
    return tuple(top) + tuple(
        (REGIONS[region], sorted(entries, key=lambda entry: entry[1].casefold()))
        for region, entries in groups.items()
        if entries
    )


def choices(current: str | None = None, now: datetime | None = None) -> list[Choice]:
    """The picker's choices, for a Select: UTC, then a group per region (the labels with the
    offsets of ``now``, to the quarter hour).

    ``current`` (the value shown) is always among them: a name the picker does not list (an
    old alias such as US/Eastern) gets a group of its own, so that saving the page without
    touching the select keeps it."""
    moment = (now or datetime.now(UTC)).timestamp()
    result = list(_grouped(int(moment // OFFSETS_LIFETIME)))
    if current and current not in picker_names() and current in time_zone_names():
        result.append((_("Other"), [(current, current.replace("_", " "))]))
    return result


# Reading what people type -------------------------------------------------------------------


def _key(text: str) -> str:
    """Case, blanks and underscores do not matter: " Argentina / Buenos aires " is
    "argentina/buenos_aires"."""
    text = re.sub(r"\s*/\s*", "/", text.strip())
    return re.sub(r"[\s_]+", "_", text).casefold()


@dataclass(frozen=True)
class _Index:
    names: dict[str, list[str]]  # key of a whole name: the names

    def matches(self, key: str) -> list[str]:
        """The names equal to ``key``, else those ending with "/" + ``key``."""
        exact = self.names.get(key, [])
        if exact:
            return exact
        ending = "/" + key
        return sorted(n for k, found in self.names.items() if k.endswith(ending) for n in found)


def _index(names: Iterable[str]) -> _Index:
    index: dict[str, list[str]] = {}
    for name in sorted(names):
        index.setdefault(_key(name), []).append(name)
    return _Index(index)


@cache
def _indexes() -> tuple[_Index, _Index]:
    return _index(picker_names()), _index(time_zone_names())


def _unknown(value: str) -> ValidationError:
    return ValidationError(
        _("“%(value)s” is not a time zone we know. Use a name like Europe/Berlin or UTC."),
        code="invalid_time_zone",
        params={"value": value},
    )


def parse_time_zone(value: str) -> str:
    """The IANA name that ``value`` means; ValidationError if none, or several.

    "Europe/Berlin", "europe/berlin", "Berlin" and "berlin" are all Europe/Berlin;
    "New York" is America/New_York; "Eastern" (US/Eastern or Canada/Eastern?) is an error
    naming both."""
    text = (value or "").strip()
    if text in time_zone_names():
        return text
    key = _key(text)
    if not key or key.startswith("/") or key.endswith("/"):
        raise _unknown(text)
    for index in _indexes():
        found = index.matches(key)
        if len(found) == 1:
            return found[0]
        if found:
            shown = found[:MAX_CANDIDATES]
            more = len(found) - len(shown)
            candidates = ", ".join(shown) + (", …" if more else "")
            raise ValidationError(
                _(
                    "“%(value)s” could be several time zones: %(candidates)s. "
                    "Use the whole name of the one you mean."
                ),
                code="ambiguous_time_zone",
                params={"value": text, "candidates": candidates},
            )
    raise _unknown(text)
