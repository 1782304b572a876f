"""Every answer of the API under test, checked against the served OpenAPI schema by
openapi-core, a strict OpenAPI 3.0 validator (as the clients generated from the schema read
it): its status is documented for the operation, and its headers and body fit, with no
property the schema does not name (``additionalProperties`` left out counts as false).

``tests/conftest.py`` wraps Django's test client (and so DRF's ``APIClient``) with
``check_answer`` for every test: no answer of a test can disagree with the schema. A path or
a method the schema does not name is answered with an ``Error`` (404, 405 with its
``Allow``), OPTIONS with its ``Allow`` alone; an ``invalid`` error always names its ``fields``.
A test that breaks the site on purpose (a 500) marks itself ``no_schema_check``.
"""

from __future__ import annotations

import json
from functools import cache

from drf_spectacular.generators import SchemaGenerator
from openapi_core import Config, OpenAPI
from openapi_core.contrib.django import DjangoOpenAPIRequest, DjangoOpenAPIResponse
from openapi_core.templating.paths.exceptions import OperationNotFound, PathNotFound
from openapi_core.validation.schemas import factories
from openapi_schema_validator import OAS30Validator

API = "/api/v1/"


@cache
def openapi() -> dict:
    """The schema /api/schema/ serves, generated once per test run."""
    return SchemaGenerator().get_schema(request=None, public=True)


# openapi-core builds the validator class that forbids undocumented properties anew for every
# schema it checks (jsonschema's ``extend``): the same class each time, made once here. This
# halves the cost of the check (about 2 ms an answer).
factories.build_forbid_unspecified_additional_properties_validator = cache(
    factories.build_forbid_unspecified_additional_properties_validator
)


@cache
def strict() -> OpenAPI:
    """The schema as openapi-core reads it, parsed once per test run (loading it also runs
    openapi-spec-validator on it); an undocumented property in an answer is an error."""
    config = Config(
        additional_properties_default_policy="forbid",
        # The event stream's text, as a client reads it (openapi-core knows only JSON's).
        extra_media_type_deserializers={"text/event-stream": _text},
    )
    app = OpenAPI.from_dict(json.loads(json.dumps(openapi())), config=config)
    _remember(app.response_validator)
    return app


def _remember(validator) -> None:
    """openapi-core works out anew, for every answer, what depends only on the schema: the
    operation a path names, a validator for each schema it meets (with a deep copy of the
    format checker), and each header's reading. Here each is worked out once per test run and
    kept; so is a header's reading that passed, for the same value, so an answer that breaks
    the schema still fails."""
    find_path = cache(validator._find_path)
    validator._find_path = lambda request: find_path(_Called(request))
    validators: dict[tuple, object] = {}

    def validate_schema(schema, value) -> None:
        key = schema.parts
        if key not in validators:
            validators[key] = validator.schema_validators_factory.create(
                validator.spec,
                schema,
                format_validators=validator.format_validators,
                extra_format_validators=validator.extra_format_validators,
                forbid_unspecified_additional_properties=(
                    validator.forbid_unspecified_additional_properties
                ),
                enforce_properties_required=validator.enforce_properties_required,
            )
        validators[key].validate(value)

    validator._validate_schema = validate_schema
    read_header = validator._get_header
    passed: dict[tuple, object] = {}

    def get_header(headers, name: str, header):
        key = (header.parts, name, headers.get(name))
        if key not in passed:
            passed[key] = read_header(headers, name, header)  # raises where it fails
        return passed[key]

    validator._get_header = get_header


class _Called:
    """What ``_find_path`` reads of a request, as a key."""

    def __init__(self, request) -> None:
        self.path_pattern = getattr(request, "path_pattern", None)
        self.path, self.host_url, self.method = request.path, request.host_url, request.method
        self._key = (self.path_pattern, self.path, self.host_url, self.method)

    def __hash__(self) -> int:
        return hash(self._key)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _Called) and self._key == other._key


@cache
def component(name: str) -> OAS30Validator:
    """A validator of one component of the schema, as OpenAPI 3.0 reads it."""
    components = json.loads(json.dumps(openapi()["components"]))
    return OAS30Validator({"components": components, "$ref": f"#/components/schemas/{name}"})


def _text(body: bytes | str) -> str:
    return body.decode() if isinstance(body, bytes) else body


def is_api(response) -> bool:
    request = getattr(response, "wsgi_request", None)
    return request is not None and request.path.startswith(API)


def check_answer(response) -> None:
    """openapi-core's verdict on one answer of the API (anything else passes)."""
    if not is_api(response):
        return
    request = DjangoOpenAPIRequest(response.wsgi_request)
    try:
        strict().validate_response(request, DjangoOpenAPIResponse(response))
    except (PathNotFound, OperationNotFound):
        _check_unlisted(response)
    if response.status_code == 400 and response.content:
        body = response.json()
        assert body["code"] != "invalid" or "fields" in body, body  # what clients rely on


def _check_unlisted(response) -> None:
    """An answer to what the schema does not list: no such endpoint (404), a method the
    endpoint does not take (405, its ``Allow`` naming those it takes), or a request refused
    before it reached one (400: a NUL in the path, say)."""
    method = response.wsgi_request.method
    if method == "OPTIONS" and response.status_code == 204:
        assert "OPTIONS" in response["Allow"] and not response.content
        return
    if method == "HEAD" and not response.content:
        return  # a GET's answer without its body
    assert response.status_code in (400, 404, 405), (
        f"{method} {response.wsgi_request.path} is not in the schema but answered "
        f"{response.status_code}"
    )
    errors = [e.message for e in component("Error").iter_errors(response.json())]
    assert not errors, (response.status_code, errors)
    if response.status_code == 405:
        allowed = {m.strip() for m in response["Allow"].split(",")}
        assert method not in allowed, (method, response["Allow"])
