"""The site's URLs and one view that fails, for the test of the server error page."""

from django.urls import path

from guildhall_site.urls import handler500  # noqa: F401 (Django looks for it here)
from guildhall_site.urls import urlpatterns as site_urlpatterns


def broken(request):
    raise RuntimeError("a bug in a view")


urlpatterns = [path("broken/", broken), path("api/v1/broken/", broken), *site_urlpatterns]
