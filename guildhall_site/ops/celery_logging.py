"""Celery's processes log as the site does (guildhall_site/ops/logging.py), and each task ends
with one line of its own.

- With ``LOG_FORMAT=json`` every line a worker or beat writes is JSON: Celery keeps its hands
  off the logging the site's settings set up (a ``setup_logging`` receiver), its start-up
  banners are left out and said in one JSON line each instead (hostname, queues,
  concurrency...), and Python's warnings go through logging (``py.warnings``) rather than as
  text on stderr. In plain text Celery's own format and banners stay.
- Every task run by a worker ends with one line, ``task`` (its name), ``task_id``, ``queue``,
  ``duration_ms`` and ``state`` (SUCCESS, FAILURE, RETRY...): in JSON, Celery's own lines of a
  task that went well are left out (its "received" line carries the task's arguments, its
  "succeeded in ...: <return value>" the return value: no business of the log).
"""

from __future__ import annotations

import logging
import logging.config
import time
from typing import Any

from django.conf import settings

log = logging.getLogger("guildhall_site.tasks")
banners = logging.getLogger("guildhall_site.celery")

_started: dict[str, float] = {}


def _json() -> bool:
    return bool(settings.LOG_FORMAT == "json")


def adopt_logging(**kwargs: Any) -> None:
    """The site's settings.LOGGING, Python's warnings through it: Celery's own logging set-up
    replaced (``setup_logging``), and before the worker's first warning."""
    logging.config.dictConfig(settings.LOGGING)
    logging.captureWarnings(True)


def _say(message: str, *args: Any, **kwargs: Any) -> None:
    banners.warning("%s", message.strip())


def on_worker_init(sender: Any = None, instance: Any = None, **kwargs: Any) -> None:
    """Before the worker warns of anything or prints its banner (``celeryd_init``): the
    site's logging, and no banner. What its signal handlers print as text ("worker: Warm
    shutdown") is logged instead: they print with ``celery.apps.worker.safe_say``."""
    from celery.apps import worker

    adopt_logging()
    # Celery's module function, patched: celery-types does not declare it.
    worker.safe_say = _say  # type: ignore[attr-defined]
    if instance is not None:
        instance.quiet = True


def on_worker_after_setup(sender: Any = None, instance: Any = None, **kwargs: Any) -> None:
    """The banner's facts, as one line (``celeryd_after_setup``: its queues are known)."""
    if instance is None or not _json():
        return
    from celery import __version__

    app = instance.app
    queues = sorted(app.amqp.queues.consume_from or app.amqp.queues)
    banners.info(
        "celery worker %s starting",
        sender,
        extra={
            "hostname": str(sender),
            "queues": queues,
            "concurrency": getattr(instance, "concurrency", None),
            "pool": getattr(getattr(instance, "pool_cls", None), "__module__", ""),
            "celery_version": __version__,
        },
    )


def quiet_beat(app: Any) -> None:
    """Beat's banner left out in JSON, and said in one line instead: ``app.Beat`` is the class
    ``celery beat`` starts."""
    base = app.Beat

    # ``app.Beat`` is a class made at run time (Any to mypy).
    class Beat(base):  # type: ignore[misc, valid-type]
        def run(self) -> None:
            if _json():
                from celery import __version__

                adopt_logging()
                self.quiet = True
                banners.info(
                    "celery beat starting",
                    extra={
                        "scheduler": str(self.scheduler_cls),
                        "max_interval": self.max_interval,
                        "celery_version": __version__,
                    },
                )
            super().run()

    app.Beat = Beat


def on_task_prerun(task_id: str | None = None, **kwargs: Any) -> None:
    if task_id:
        _started[task_id] = time.perf_counter()


def on_task_postrun(
    task_id: str | None = None, task: Any = None, state: str | None = None, **kwargs: Any
) -> None:
    started = _started.pop(task_id or "", None)
    if started is None:
        return
    request = getattr(task, "request", None)
    delivery = getattr(request, "delivery_info", None) or {}
    queue = delivery.get("routing_key") or ""
    if request is not None and getattr(request, "is_eager", False):
        queue = "(inline)"
    name = str(getattr(task, "name", "") or "unknown")
    duration = round((time.perf_counter() - started) * 1000, 1)
    log.info(
        "task %s %s in %s ms",
        name,
        state,
        duration,
        extra={
            "task": name,
            "task_id": task_id,
            "queue": queue,
            "duration_ms": duration,
            "state": state or "",
        },
    )


def connect(app: Any) -> None:
    from celery import signals

    signals.task_prerun.connect(on_task_prerun, weak=False)
    signals.task_postrun.connect(on_task_postrun, weak=False)
    if not _json():
        return
    signals.setup_logging.connect(adopt_logging, weak=False)
    signals.celeryd_init.connect(on_worker_init, weak=False)
    signals.celeryd_after_setup.connect(on_worker_after_setup, weak=False)
    quiet_beat(app)
