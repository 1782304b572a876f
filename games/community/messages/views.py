"""Messages between players (games.community.messages.actions and .reads do the work): the
inbox, a conversation's page, and writing to a player from their profile.

A conversation's page shows its newest messages above the form, the newest seen first on a
phone (the box scrolls from its end, without JavaScript), marks them read when it is opened,
and asks again for new ones every little while (htmx, ``?part=messages``). A message is
sent with htmx (the answer: the messages with the new one, and an empty form out of band)
or by the plain form, redirected back to the page. A conversation is its two players'
alone: for anyone else it does not exist (404).
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.core.paginator import Paginator
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_http_methods

from accounts.http import AuthenticatedHttpRequest
from accounts.models import User
from games.community.messages import actions, reads
from games.community.models import Conversation, Message
from guildhall_site import parsing
from guildhall_site.rest import MessageAddressThrottle, MessageThrottle, page_limit

INBOX_PAGE = 30
# How often an open conversation asks for new messages (seconds).
POLL_SECONDS = 20


@never_cache  # what the players wrote: no shared cache keeps it
@login_required
@require_GET
def inbox(request: AuthenticatedHttpRequest) -> HttpResponse:
    page = Paginator(reads.inbox(request.user), INBOX_PAGE).get_page(request.GET.get("page"))
    rows = reads.inbox_rows(request.user, list(page.object_list))
    return render(request, "community/messages/inbox.html", {"page": page, "rows": rows})


def _conversation(request: AuthenticatedHttpRequest, pk: int) -> Conversation:
    conversation = reads.conversation_of(request.user, pk)
    if conversation is None:
        raise Http404(_("No such conversation"))
    return conversation


def _context(
    request: AuthenticatedHttpRequest, conversation: Conversation, *, text: str = ""
) -> dict[str, Any]:
    other = reads.other_of(conversation, request.user)
    before = parsing.whole_number(request.GET.get("before"))
    shown, earlier = reads.newest(conversation, request.user, before=before)
    return {
        "conversation": conversation,
        "other": other,
        "shown": shown,
        "earlier": earlier,
        "earliest_id": shown[0].pk if shown else None,
        "newest_id": shown[-1].pk if shown else None,
        "older_page": before is not None,
        "text": text,
        "max_length": Message.MAX_LENGTH,
        # Said before anything is typed: why the form is not offered.
        "refusal": actions.cannot_write(request.user, other),
        "url": reverse("accounts:conversation", args=[conversation.pk]),
        "poll_seconds": POLL_SECONDS,
    }


@never_cache
@login_required
@require_http_methods(["GET", "POST"])
def conversation(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    """GET: the page (htmx ``?part=messages``: the messages alone), every message read.
    POST ``text``: a message sent."""
    found = _conversation(request, pk)
    if request.method == "GET":
        if parsing.whole_number(request.GET.get("before")) is None:  # the newest: read now
            actions.do_mark_read(found, request.user)
        if request.htmx and request.GET.get("part") == "messages":
            # The poll: nothing to swap while no newer message has come.
            after = parsing.whole_number(request.GET.get("after"))
            if (
                after is not None
                and not reads.visible(found, request.user).filter(pk__gt=after).exists()
            ):
                return HttpResponse(status=204)
            c = _context(request, found)
            return render(request, "community/messages/conversation.html#messages", c)
        c = _context(request, found)
        return render(request, "community/messages/conversation.html", c)
    other = reads.other_of(found, request.user)
    return _send(request, other, found)


def _send(
    request: AuthenticatedHttpRequest, other: User, found: Conversation | None
) -> HttpResponse:
    """The message of the POST sent to ``other``; the refusal (4xx, nothing stored) shown
    with what was typed."""
    limited = page_limit(request, MessageThrottle(), MessageAddressThrottle())
    if limited is not None:
        return _refused(request, other, found, limited[1], 429)
    text = request.POST.get("text")
    if text is None:
        return _refused(request, other, found, _("No message was sent: nothing was stored."), 400)
    try:
        message = actions.do_send(request.user, other, text)
    except actions.Limited as error:
        return _refused(request, other, found, " ".join(error.messages), 429, text)
    except ValidationError as error:
        reason = " ".join(error.messages)
        return _refused(request, other, found, f"{reason} {_('Nothing was sent.')}", 400, text)
    conversation = message.conversation
    if request.htmx and found is not None:
        # The messages with the new one, and an empty form in place of the one that sent it.
        c = _context(request, conversation)
        return render(request, "community/messages/conversation.html#written", c)
    return redirect(reverse("accounts:conversation", args=[conversation.pk]) + "#message-form")


def _refused(
    request: AuthenticatedHttpRequest,
    other: User,
    found: Conversation | None,
    message: str,
    status: int,
    text: str = "",
) -> HttpResponse:
    if found is None:
        c = {"other": other, "text": text, "error": message, "max_length": Message.MAX_LENGTH}
        return render(request, "community/messages/write.html", c, status=status)
    c = _context(request, found, text=text) | {"error": message}
    if request.htmx:
        response = render(request, "community/messages/conversation.html#form", c, status=status)
        # The form again in place of the one that sent it, not in place of the messages.
        response["HX-Retarget"] = "#message-form"
        response["HX-Reswap"] = "outerHTML"
        return response
    return render(request, "community/messages/conversation.html", c, status=status)


@never_cache
@login_required
@require_http_methods(["GET", "POST"])
def write(request: AuthenticatedHttpRequest, username: str) -> HttpResponse:
    """Write to a player (their profile's "Send a message"): their conversation's page if
    they have one, else the form that starts it."""
    other = get_object_or_404(User, username=username)
    found = reads.conversation_with(request.user, other)
    if request.method == "POST":
        return _send(request, other, found)
    if found is not None:
        return redirect(reverse("accounts:conversation", args=[found.pk]) + "#message-form")
    c = {
        "other": other,
        "text": "",
        "max_length": Message.MAX_LENGTH,
        "refusal": actions.cannot_write(request.user, other),
    }
    return render(request, "community/messages/write.html", c)
