"""gunicorn's configuration: ``gunicorn -c python:guildhall_site.ops.gunicorn guildhall_site.wsgi``.

Every value comes from the environment (docs/deploy.md), as the site's settings do:

- ``PORT`` (8000) and ``WEB_BIND`` (``127.0.0.1:$PORT``): where to listen. Loopback by
  default: the proxy in front (on the same machine) is the only client, so that nobody can
  reach gunicorn directly and write their own X-Forwarded-For (docs/deploy.md, "Security and
  the proxy"); where the proxy is elsewhere (another container), name the address;
- ``WEB_CONCURRENCY`` (4): worker processes, about two per core;
- ``WEB_TIMEOUT`` (30): seconds before a worker stuck on one request is restarted;
- ``LOG_FORMAT=json``: gunicorn's own lines as JSON too; the access log is one line a request
  with its fields (guildhall_site/ops/access_log.py), the client's address taken from
  ``X-Forwarded-For`` only when the request came from ``TRUSTED_PROXIES``;
- ``PROMETHEUS_MULTIPROC_DIR``: the server takes a new folder of its own in it as it starts,
  and each worker that ends is marked dead there, so that /metrics adds up this server's
  workers, live and ended (guildhall_site/ops/metrics.py).

Each worker keeps what lives as long as it does out of the garbage collector's full
collections, once it has loaded the site and again after its first requests
(guildhall_site/ops/gc_freeze.py): those collections otherwise pause a request for ~130 ms.
"""

from __future__ import annotations

import os
from typing import Any

from prometheus_client import multiprocess

_port = os.environ.get("PORT") or "8000"
bind = os.environ.get("WEB_BIND") or f"127.0.0.1:{_port}"
workers = int(os.environ.get("WEB_CONCURRENCY") or 4)
timeout = int(os.environ.get("WEB_TIMEOUT") or 30)
graceful_timeout = timeout
# Each worker is replaced after about this many requests (0: never), so that what a process
# leaks or fragments does not grow without end; the jitter (a random 0..jitter more for each
# worker) keeps the workers from being replaced all at once.
max_requests = int(os.environ.get("WEB_MAX_REQUESTS") or 2000)
max_requests_jitter = int(os.environ.get("WEB_MAX_REQUESTS_JITTER") or max(0, max_requests // 10))
# gunicorn's control socket (gunicornc) is left off: one path per user for every server, which
# two servers of one machine would fight over, in a home the image's user may not write.
control_socket_disable = True
accesslog = "-"
# One line a request with its fields (method, path without query values, status,
# duration_ms, client, request_id), JSON with LOG_FORMAT=json: ops/access_log.py.
logger_class = "guildhall_site.ops.access_log.AccessLogger"

if (os.environ.get("LOG_FORMAT") or "").strip() == "json":
    _json = {
        "()": "pythonjsonlogger.json.JsonFormatter",
        "fmt": "%(asctime)s %(levelname)s %(name)s %(message)s",
        "rename_fields": {"asctime": "time", "levelname": "level", "name": "logger"},
    }
    logconfig_dict = {
        "version": 1,
        "disable_existing_loggers": False,
        "formatters": {"json": _json},
        "handlers": {
            "error": {
                "class": "logging.StreamHandler",
                "formatter": "json",
                "stream": "ext://sys.stderr",
            },
            "access": {
                "class": "logging.StreamHandler",
                "formatter": "json",
                "stream": "ext://sys.stdout",
            },
        },
        # gunicorn merges this with its defaults, whose root logger names a handler
        # "console": the root is named here too.
        "root": {"level": "INFO", "handlers": ["error"]},
        "loggers": {
            "gunicorn.error": {"handlers": ["error"], "level": "INFO", "propagate": False},
            "gunicorn.access": {"handlers": ["access"], "level": "INFO", "propagate": False},
        },
    }


def on_starting(server: Any) -> None:
    from guildhall_site.ops.metrics import use_group_dir

    use_group_dir("web")


def post_worker_init(worker: Any) -> None:
    from guildhall_site.ops import gc_freeze

    count = gc_freeze.freeze()
    worker.log.debug("%d objects frozen after loading the site", count)
    worker.gc_warm_up = gc_freeze.FreezeAfterWarmUp()


def post_request(worker: Any, req: Any, environ: Any, resp: Any) -> None:
    warm_up = getattr(worker, "gc_warm_up", None)
    if warm_up is not None and warm_up.request_done():
        worker.log.debug("objects frozen after %d requests", warm_up.after)


def child_exit(server: Any, worker: Any) -> None:
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        multiprocess.mark_process_dead(worker.pid)
