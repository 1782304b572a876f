"""The site's URLs plus the benchmark's bare view, for ``guildhall_site.bench_settings``
(``manage.py bench_pages``): never part of the site itself."""

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import path

from guildhall_site.urls import handler500  # noqa: F401 (the site's 500 page)
from guildhall_site.urls import urlpatterns as site_urlpatterns


def bare(request: HttpRequest) -> HttpResponse:
    """What any Django page costs at least: one small template, no query of its own."""
    return render(request, "bench/bare.html", {"title": "Bare"})


urlpatterns = [path("bench/bare/", bare, name="bench_bare"), *site_urlpatterns]
