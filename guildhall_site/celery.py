"""The Celery app. Run the workers and the scheduler as their own processes (docs/Procfile,
explained in docs/deploy.md):

celery -A guildhall_site worker --queues celery      # emails, pushes, time-outs, sweeps
celery -A guildhall_site worker --queues computer    # the computer players' moves
celery -A guildhall_site beat
"""

import os

from celery import Celery

from guildhall_site.ops import celery_logging, heartbeat, metrics

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "guildhall_site.settings")

# DjangoTask adds delay_on_commit(): queue a task only once the transaction has committed.
app = Celery("guildhall_site", task_cls="celery.contrib.django.task:DjangoTask")
# Every setting named CELERY_* in settings.py configures Celery.
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
# Each task's outcome counted, and a worker's /metrics (METRICS_PORT): guildhall_site/ops.
metrics.connect_celery()
# Each worker's heartbeat for its lanes (guildhall_site/ops/heartbeat.py).
heartbeat.connect_celery()
# Its lines as the site's (JSON with LOG_FORMAT=json), and one line per task.
celery_logging.connect(app)
