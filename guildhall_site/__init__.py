# Django's generic classes subscriptable when run (ModelAdmin[Webhook], ModelForm[User]), as
# their type hints write them (django-stubs): before any app's module is imported.
import django_stubs_ext

django_stubs_ext.monkeypatch()

# Load the Celery app whenever Django starts, so that @shared_task uses it.
from guildhall_site.celery import app as celery_app  # noqa: E402

__all__ = ["celery_app"]
