"""The garbage collector of a web worker kept off the objects that live as long as it does.

Python's full collection walks every object the process tracks. In a worker of this site that
is some 200,000 (Django, the URLs, the compiled templates, the caches), about 130 ms each
time: a pause that falls on the request in flight and on those queued behind it, and the
slowest boards a player waits for (`docs/performance.md`). Nearly all of those objects live
as long as the process, so ``gc.freeze()`` moves them out of the collector's reach: once when
the worker has loaded the site, and once more after its first requests have compiled the
templates and filled the caches. A full collection then walks only what came later (a few ms).

Objects are still freed when nothing refers to them (reference counting); only a cycle made
entirely of frozen objects would stay, and each freeze collects first, so no garbage is frozen.
gunicorn calls these through its configuration (``guildhall_site.ops.gunicorn``).
"""

from __future__ import annotations

import gc

# Requests after which a worker has met most of what it keeps: every page's templates,
# the fragments of the games it serves.
WARM_REQUESTS = 200


def freeze() -> int:
    """Collect, then put every object left out of the collector's reach; how many are."""
    gc.collect()
    gc.freeze()
    return gc.get_freeze_count()


class FreezeAfterWarmUp:
    """Counts a worker's requests and freezes once, after ``WARM_REQUESTS`` of them."""

    def __init__(self, after: int = WARM_REQUESTS) -> None:
        self.after = self.left = after

    def request_done(self) -> bool:
        """Called after each request; True for the one after which it froze."""
        if self.left <= 0:
            return False
        self.left -= 1
        if self.left:
            return False
        freeze()
        return True
