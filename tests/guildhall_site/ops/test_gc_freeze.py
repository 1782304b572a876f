"""A web worker's long-lived objects kept out of the garbage collector's full collections
(guildhall_site/ops/gc_freeze.py), through gunicorn's hooks."""

from __future__ import annotations

import gc
import logging
import weakref

import pytest

from guildhall_site.ops import gc_freeze
from guildhall_site.ops import gunicorn as gunicorn_config


@pytest.fixture(autouse=True)
def unfrozen():
    gc.unfreeze()
    yield
    gc.unfreeze()


class Node:
    def __init__(self) -> None:
        self.other: Node | None = None


def test_freeze_collects_the_garbage_first_and_freezes_the_rest():
    kept = Node()
    a, b = Node(), Node()
    a.other, b.other = b, a  # a cycle nothing else refers to: garbage
    gone = weakref.ref(a)
    del a, b
    frozen = gc_freeze.freeze()
    assert gone() is None  # collected, not kept for ever
    assert frozen == gc.get_freeze_count() > 0
    assert any(o is kept for o in gc.get_objects()) is False  # out of the collector's reach


def test_it_freezes_once_after_the_warm_up_requests():
    warm_up = gc_freeze.FreezeAfterWarmUp(after=3)
    assert [warm_up.request_done() for _ in range(2)] == [False, False]
    assert gc.get_freeze_count() == 0
    assert warm_up.request_done() is True
    assert gc.get_freeze_count() > 0
    gc.unfreeze()
    assert [warm_up.request_done() for _ in range(5)] == [False] * 5
    assert gc.get_freeze_count() == 0


class FakeWorker:
    log = logging.getLogger("tests.gunicorn")


def test_gunicorns_hooks_freeze_at_start_and_after_the_warm_up():
    worker = FakeWorker()
    gunicorn_config.post_worker_init(worker)
    assert gc.get_freeze_count() > 0
    gc.unfreeze()
    for _ in range(gc_freeze.WARM_REQUESTS - 1):
        gunicorn_config.post_request(worker, None, {}, None)
    assert gc.get_freeze_count() == 0
    gunicorn_config.post_request(worker, None, {}, None)
    assert gc.get_freeze_count() > 0
