"""A request id on every request and log line, and JSON logs (guildhall_site/ops/logging.py)."""

from __future__ import annotations

import io
import json
import logging
import logging.config

import pytest
from django.http import HttpResponse
from django.test import Client, RequestFactory

from guildhall_site.ops.logging import RequestIdMiddleware, logging_config


def json_logger(stream: io.StringIO) -> logging.Logger:
    """A logger set up as LOG_FORMAT=json sets the site's, writing to ``stream``."""
    config = logging_config("json", "INFO")
    config["handlers"]["console"]["stream"] = stream
    config["root"] = {"handlers": [], "level": "INFO"}
    config["loggers"] = {"ops-test": {"handlers": ["console"], "level": "INFO", "propagate": False}}
    logging.config.dictConfig(config)
    return logging.getLogger("ops-test")


@pytest.fixture
def restore_logging(settings):
    yield
    logging.config.dictConfig(settings.LOGGING)


class TestRequestId:
    def test_each_answer_carries_a_new_id(self, db):
        first = Client().get("/healthz")["X-Request-ID"]
        second = Client().get("/healthz")["X-Request-ID"]

        assert len(first) == 32 and first != second

    def test_the_proxys_id_is_kept_when_it_is_a_plain_token(self, db):
        given = "caddy-1f2e3d4c5b6a"
        assert Client().get("/healthz", HTTP_X_REQUEST_ID=given)["X-Request-ID"] == given

    def test_anything_else_is_replaced(self, db):
        forged = 'x" level=ERROR\nfake line'
        answered = Client().get("/healthz", HTTP_X_REQUEST_ID=forged)["X-Request-ID"]

        assert answered != forged and answered.isalnum()


class TestJsonLogs:
    def test_a_line_logged_in_a_request_is_json_with_its_id(self, restore_logging):
        stream = io.StringIO()
        log = json_logger(stream)

        def view(request):
            log.info("a move in game %s", 12, extra={"game": 12})
            return HttpResponse("ok")

        request = RequestFactory().get("/", HTTP_X_REQUEST_ID="req-0123456789")
        RequestIdMiddleware(view)(request)
        log.info("outside")

        inside, outside = (json.loads(line) for line in stream.getvalue().splitlines())
        assert inside["message"] == "a move in game 12"
        assert inside["request_id"] == "req-0123456789"
        assert inside["level"] == "INFO" and inside["logger"] == "ops-test"
        assert inside["game"] == 12 and "time" in inside
        assert outside["request_id"] == ""

    def test_plain_logs_stay_text(self):
        config = logging_config("plain", "INFO")

        assert config["formatters"]["plain"] == {
            "format": "%(asctime)s %(levelname)s %(name)s: %(message)s"
        }
