"""The reads' one error: there is no such thing for this person. (The actions' errors, in
``games.play.errors``, include it.)"""

from __future__ import annotations

from django.core.exceptions import ObjectDoesNotExist


class NotFound(ObjectDoesNotExist):
    """No such game or invitation, or none that this person may see: the edges answer 404
    (the same whether it exists or not)."""
