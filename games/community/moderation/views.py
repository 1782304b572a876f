"""The report page: a chat line (``?chat=<id>``), a message (``?message=<id>``) or a
profile (``?user=<username>``), with a reason and an optional comment
(``games.community.moderation.actions.do_report`` decides)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from accounts.http import AuthenticatedHttpRequest
from games.community.moderation import actions
from games.community.moderation.forms import ReportForm
from games.community.moderation.models import ModerationNotice, Report
from games.play.errors import Invalid, NotFound
from guildhall_site.rest import ReportAddressThrottle, ReportThrottle, page_limit

# The query parameter that names each kind of thing reported.
PARAMETERS = {"chat": Report.Kind.CHAT, "message": Report.Kind.MESSAGE, "user": Report.Kind.PROFILE}


def _what(request: AuthenticatedHttpRequest) -> tuple[str, str] | None:
    for name, kind in PARAMETERS.items():
        value = request.GET.get(name)
        if value:
            return kind, value
    return None


@login_required
@require_http_methods(["GET", "POST"])
def report(request: AuthenticatedHttpRequest) -> HttpResponse:
    what = _what(request)
    if what is None:
        return render(request, "moderation/report.html", {"missing": True}, status=400)
    kind, target = what
    try:
        found = actions.target_of(request.user, kind, target)
    except NotFound as error:
        context = {"missing": True, "why": error}
        return render(request, "moderation/report.html", context, status=404)
    form = ReportForm(request.POST or None)
    context = {"form": form, "kind": kind, "text": found["text"], "author": found["author"]}
    if request.method == "POST":
        limited = page_limit(request, ReportThrottle(), ReportAddressThrottle())
        if limited is not None:
            form.add_error(None, limited[1])
            return render(request, "moderation/report.html", context, status=429)
        if not form.is_valid():
            return render(request, "moderation/report.html", context, status=400)
        try:
            data = form.cleaned_data
            actions.do_report(request.user, kind, target, data["reason"], data["comment"])
        except Invalid as error:
            form.add_error(None, error.message)
            return render(request, "moderation/report.html", context, status=400)
        messages.success(
            request,
            _("Thank you: the moderators will look at it. The author is not told who reported it."),
        )
        return redirect(request.GET.get("next") or "home" if _safe(request) else "home")
    return render(request, "moderation/report.html", context)


def _safe(request: AuthenticatedHttpRequest) -> bool:
    target = request.GET.get("next") or ""
    return bool(target) and url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    )


@login_required
@require_http_methods(["GET"])
def notices(request: AuthenticatedHttpRequest) -> HttpResponse:
    """What the moderators told the player, newest first; read once shown."""
    told = list(ModerationNotice.objects.filter(user=request.user).order_by("-created")[:50])
    ModerationNotice.objects.filter(
        user=request.user, read__isnull=True, pk__in=[n.pk for n in told]
    ).update(read=timezone.now())
    return render(request, "moderation/notices.html", {"notices": told})
