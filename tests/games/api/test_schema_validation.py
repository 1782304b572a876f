"""The schema passes openapi-spec-validator, and the check every test's API answers go
through (tests/games/api_validation.py) catches an answer that disagrees with it."""

import json

import pytest
from django.test import Client
from openapi_core.exceptions import OpenAPIError
from openapi_spec_validator import validate

from tests.conftest import client_for
from tests.games.api_validation import check_answer, openapi


def test_the_schema_passes_openapi_spec_validator():
    validate(json.loads(json.dumps(openapi())))


@pytest.mark.no_schema_check
class TestTheCheck:
    def test_an_answer_that_fits_passes(self, alice):
        check_answer(client_for(alice).get("/api/v1/catalog/"))

    def test_a_body_that_does_not_fit_fails(self, alice):
        answer = client_for(alice).get("/api/v1/catalog/")
        assert answer.status_code == 200
        body = answer.json()
        entries = body["results"] if isinstance(body, dict) else body
        entries[0]["min_players"] = "two"
        answer.content = json.dumps(body).encode()
        with pytest.raises(OpenAPIError):
            check_answer(answer)

    def test_an_undocumented_property_fails(self, alice):
        answer = client_for(alice).get("/api/v1/me/")
        answer.content = json.dumps({**answer.json(), "password": "x"}).encode()
        with pytest.raises(OpenAPIError):
            check_answer(answer)

    def test_an_undocumented_status_fails(self, db):
        answer = Client().get("/api/v1/catalog/")
        answer.status_code = 418
        with pytest.raises(OpenAPIError):
            check_answer(answer)

    def test_an_unknown_path_must_answer_an_error(self, db):
        check_answer(Client().get("/api/v1/nowhere/"))
        answer = Client().get("/api/v1/nowhere/")
        answer.content = b'{"detail": "Not found."}'
        with pytest.raises(AssertionError):
            check_answer(answer)

    def test_a_page_is_not_checked(self, db):
        check_answer(Client().get("/"))
