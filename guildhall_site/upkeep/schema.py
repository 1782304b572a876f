"""The OpenAPI schema's word on maintenance (a drf-spectacular postprocessing hook, in
settings.SPECTACULAR_SETTINGS): every operation that changes something may answer 503
``maintenance`` with Retry-After while the site is read-only (guildhall_site.upkeep.middleware)."""

from __future__ import annotations

from typing import Any

UNSAFE = ("post", "put", "patch", "delete")

MAINTENANCE = (
    "The site is read-only for maintenance (`maintenance`): nothing was changed. Try again "
    "after `retry_after` seconds (also the Retry-After header). Reads go on meanwhile."
)
RETRY_AFTER = {
    "description": "Whole seconds to wait before trying again (as `retry_after` says).",
    "required": True,
    "schema": {"type": "integer", "minimum": 1},
}


def add_maintenance(
    result: dict[str, Any], generator: object, request: object, public: bool
) -> dict[str, Any]:
    error = {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}
    for operations in result.get("paths", {}).values():
        for method, operation in operations.items():
            if method not in UNSAFE or not isinstance(operation, dict):
                continue
            responses = operation.setdefault("responses", {})
            if "503" in responses:
                continue
            responses["503"] = {
                "description": MAINTENANCE,
                "content": error,
                "headers": {"Retry-After": RETRY_AFTER},
            }
            operation["responses"] = dict(sorted(responses.items()))
    return result
