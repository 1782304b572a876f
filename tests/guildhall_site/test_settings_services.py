"""The site's own use of its services, on whatever DATABASE_URL and REDIS_URL name."""

import pytest
from django.conf import settings
from django.core.cache import cache
from django.db import connection


def test_the_cache_keeps_a_value():
    cache.set("greeting", "hello", 10)
    assert cache.get("greeting") == "hello"


def test_the_cache_is_redis_when_redis_url_is_set():
    if not settings.REDIS_URL:
        pytest.skip("REDIS_URL is not set: the cache lives in the process (CI sets it)")
    assert settings.CACHES["default"]["BACKEND"] == "guildhall_site.cache.RedisWithLocalFallback"
    assert cache._cache.get_client().ping()
    cache.set("answered-by", "redis")
    assert cache._local.get("answered-by") is None  # Redis answered, not the fallback


@pytest.mark.django_db
def test_the_database_answers():
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
        assert cursor.fetchone() == (1,)


def test_static_files_are_served(client):
    for path in ["/static/site/site.css", "/static/site/htmx.min.js"]:
        response = client.get(path)
        assert response.status_code == 200, path
        assert b"".join(response.streaming_content)
