"""The benchmarks' logging: quiet while they run, as it was afterwards."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from contextlib import contextmanager

NOISY = ("celery", "kombu", "games", "notifications", "django.request")


@contextmanager
def quiet_logs(names: tuple[str, ...] = NOISY) -> Iterator[None]:
    """Only errors from ``names`` while entered; their levels as they were afterwards (a
    command called in a test's process must not silence the warnings of later tests)."""
    saved = {name: logging.getLogger(name).level for name in names}
    for name in names:
        logging.getLogger(name).setLevel(logging.ERROR)
    try:
        yield
    finally:
        for name, level in saved.items():
            logging.getLogger(name).setLevel(level)
