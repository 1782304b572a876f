"""The Celery app. Run the worker and the scheduler as their own processes:

celery -A guildhall_site worker
celery -A guildhall_site beat
"""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "guildhall_site.settings")

# DjangoTask adds delay_on_commit(): queue a task only once the transaction has committed.
app = Celery("guildhall_site", task_cls="celery.contrib.django.task:DjangoTask")
# Every setting named CELERY_* in settings.py configures Celery.
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
