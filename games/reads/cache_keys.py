"""Names of cached things (pages, replayed timelines) that change with their inputs and with
the build, so that nothing cached needs deleting: a new version or a deploy asks for a new
key (``games.web.page_cache``)."""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from functools import cache
from pathlib import Path

from django.conf import settings

# What the build is made of: a change to any of these files must change every key.
_SOURCES = ("games", "accounts", "guildhall_site", "templates", "locale")
_SUFFIXES = {".py", ".html", ".mo", ".json", ".css", ".js", ".svg"}


@cache
def build_id() -> str:
    """This build of the site: ``PAGE_CACHE_BUILD`` (say, the deployed commit) when set, else
    a digest of the code, templates, translations and static files, read once per process."""
    if settings.PAGE_CACHE_BUILD:
        return settings.PAGE_CACHE_BUILD
    digest = hashlib.blake2b(digest_size=8)
    base = Path(settings.BASE_DIR)
    for top in _SOURCES:
        for path in sorted((base / top).rglob("*")):
            if path.suffix in _SUFFIXES and path.is_file():
                digest.update(str(path.relative_to(base)).encode())
                digest.update(path.read_bytes())
    return digest.hexdigest()


def key(page: str, parts: Iterable[object]) -> str:
    """The cache key of ``page`` rendered from ``parts`` (any values with a stable repr)."""
    digest = hashlib.blake2b(repr((build_id(), *parts)).encode(), digest_size=16)
    return f"page:{page}:{digest.hexdigest()}"
