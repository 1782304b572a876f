"""/api/v1/webhooks/: a token's owner registers, reads, changes and removes webhooks, reads
their latest deliveries, and sends a test one (docs/api.md, "Webhooks")."""

from __future__ import annotations

import uuid

from django.http import Http404
from django.utils.decorators import method_decorator
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import exceptions, status
from rest_framework.response import Response

from accounts.http import AuthenticatedRequest
from accounts.models import ApiToken
from games.webhooks import delivery, events, services
from games.webhooks.models import Event, Webhook
from games.webhooks.serializers import (
    DeliverySerializer,
    NewWebhookSerializer,
    WebhookCreateSerializer,
    WebhookSerializer,
    WebhookUpdateSerializer,
    delivery_data,
    hook_data,
)
from games.webhooks.tasks import deliver_webhook
from guildhall_site.rest import ApiView, Pagination

private = method_decorator(never_cache, name="dispatch")
HOOK_ID = OpenApiParameter("webhook_id", int, OpenApiParameter.PATH, description="The hook's id.")


def _hook(request: AuthenticatedRequest, webhook_id: int) -> Webhook:
    hook = Webhook.objects.filter(pk=webhook_id, user=request.user).select_related("token")
    found = hook.first()
    if found is None:
        raise Http404(_("No such webhook of yours"))
    return found


@private
class WebhookListView(ApiView):
    """My webhooks (of all my tokens), and registering one for the token of this request
    (again: the same hook, with a new secret)."""

    pagination_class = Pagination
    serializer_class = WebhookSerializer

    @extend_schema(
        tags=["webhooks"], operation_id="webhooks_list", responses=WebhookSerializer(many=True)
    )
    def get(self, request: AuthenticatedRequest) -> Response:
        hooks = Webhook.objects.filter(user=request.user).select_related("token")
        page = self.paginate_queryset(hooks)
        assert page is not None  # the view has its paginator
        data = WebhookSerializer([hook_data(h) for h in page], many=True).data
        return self.get_paginated_response(data)

    @extend_schema(
        tags=["webhooks"],
        operation_id="webhooks_create",
        request=WebhookCreateSerializer,
        responses={
            201: OpenApiResponse(
                NewWebhookSerializer, description="Registered: its secret is shown this once."
            ),
            200: OpenApiResponse(
                NewWebhookSerializer,
                description="This token had a hook to this address already (a bot that "
                "restarts): the same hook, with these events, on again, and a new secret "
                "(yours if you sent one), shown this once.",
            ),
        },
    )
    def post(self, request: AuthenticatedRequest) -> Response:
        if not isinstance(request.auth, ApiToken):
            raise exceptions.PermissionDenied(
                _("A webhook belongs to an API token: register it with one.")
            )
        body = WebhookCreateSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        data = body.validated_data
        hook, created = services.do_create(
            request.user,
            request.auth,
            data["url"],
            data.get("events", services.EVENTS),
            data.get("secret"),
        )
        return Response(
            NewWebhookSerializer(hook_data(hook, secret=True)).data,
            status=status.HTTP_201_CREATED if created else status.HTTP_200_OK,
        )


@private
class WebhookView(ApiView):
    """One of my webhooks: read, changed (``active: true`` turns it on again after a day
    of failures), or removed."""

    serializer_class = WebhookSerializer

    @extend_schema(tags=["webhooks"], operation_id="webhook_get", parameters=[HOOK_ID])
    def get(self, request: AuthenticatedRequest, webhook_id: int) -> Response:
        return Response(WebhookSerializer(hook_data(_hook(request, webhook_id))).data)

    @extend_schema(
        tags=["webhooks"],
        operation_id="webhook_update",
        parameters=[HOOK_ID],
        request=WebhookUpdateSerializer,
        responses=WebhookSerializer,
    )
    def patch(self, request: AuthenticatedRequest, webhook_id: int) -> Response:
        hook = _hook(request, webhook_id)
        body = WebhookUpdateSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        hook = services.do_update(hook, dict(body.validated_data))
        return Response(WebhookSerializer(hook_data(hook)).data)

    @extend_schema(
        tags=["webhooks"],
        operation_id="webhook_delete",
        parameters=[HOOK_ID],
        responses={204: OpenApiResponse(description="Removed, with its deliveries.")},
    )
    def delete(self, request: AuthenticatedRequest, webhook_id: int) -> Response:
        _hook(request, webhook_id).delete()
        return Response(status=status.HTTP_204_NO_CONTENT)


@private
class DeliveriesView(ApiView):
    """The hook's latest deliveries (at most 50), newest first, with the answers they got."""

    pagination_class = Pagination
    serializer_class = DeliverySerializer

    @extend_schema(
        tags=["webhooks"],
        operation_id="webhook_deliveries",
        parameters=[HOOK_ID],
        responses=DeliverySerializer(many=True),
    )
    def get(self, request: AuthenticatedRequest, webhook_id: int) -> Response:
        hook = _hook(request, webhook_id)
        rows = list(hook.deliveries.order_by("-created", "-id")[: delivery.KEEP])
        page = self.paginate_queryset(rows)
        assert page is not None  # the view has its paginator
        data = DeliverySerializer([delivery_data(r) for r in page], many=True).data
        return self.get_paginated_response(data)


@private
class PingView(ApiView):
    """Send the hook a ``ping`` now, to try the receiver and its check of the signature."""

    serializer_class = DeliverySerializer

    @extend_schema(
        tags=["webhooks"],
        operation_id="webhook_ping",
        parameters=[HOOK_ID],
        request=None,
        responses={202: OpenApiResponse(DeliverySerializer, description="Sent (or queued).")},
    )
    def post(self, request: AuthenticatedRequest, webhook_id: int) -> Response:
        hook = _hook(request, webhook_id)
        row, _created = events.record(
            hook, Event.PING, f"ping:{uuid.uuid4().hex}", {"webhook": hook.pk}
        )
        deliver_webhook.delay(row.pk)
        row.refresh_from_db()
        return Response(DeliverySerializer(delivery_data(row)).data, status=202)
