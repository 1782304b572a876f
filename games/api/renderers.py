"""The API's JSON renderer: DRF's, which never fails on text that UTF-8 cannot encode.

The parser refuses a body holding a lone surrogate
(``guildhall_site.parsing.loads``), so none should
reach an answer; if one ever does (an echo from elsewhere), it is written as JSON's ``\\ud800``
escape instead of failing the request with UnicodeEncodeError (a 500).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from rest_framework.renderers import JSONRenderer as DrfJSONRenderer


class JSONRenderer(DrfJSONRenderer):
    def render(
        self,
        data: Any,  # whatever JSON the view answers with
        accepted_media_type: str | None = None,
        renderer_context: Mapping[str, Any] | None = None,
    ) -> bytes:
        try:
            return super().render(data, accepted_media_type, renderer_context)
        except UnicodeEncodeError:
            text = json.dumps(
                data, cls=self.encoder_class, ensure_ascii=True, allow_nan=not self.strict
            )
            return text.encode("ascii")
