"""The moderation queue (staff only): open reports first, each with the reported text in its
context (the chat lines around it), and the actions a moderator takes on it. Every action
goes through ``games.community.moderation.actions``, which logs it."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta
from typing import TYPE_CHECKING, TypeVar

from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied, ValidationError
from django.db.models import QuerySet
from django.http import HttpRequest
from django.utils import timezone
from django.utils.html import format_html, format_html_join
from django.utils.safestring import mark_safe
from django.utils.translation import gettext_lazy as _

from accounts.models import User
from games.community.models import Message
from games.community.moderation import actions
from games.community.moderation.models import ModerationLog, ModerationNotice, Report, Suspension
from games.models import ChatLine

# Django's ModelAdmin is generic for the type checker only (its stubs), not when it runs.
if TYPE_CHECKING:
    ReportModelAdmin = admin.ModelAdmin[Report]
    SuspensionModelAdmin = admin.ModelAdmin[Suspension]
    ModerationLogModelAdmin = admin.ModelAdmin[ModerationLog]
    ModerationNoticeModelAdmin = admin.ModelAdmin[ModerationNotice]
else:
    ReportModelAdmin = SuspensionModelAdmin = admin.ModelAdmin
    ModerationLogModelAdmin = ModerationNoticeModelAdmin = admin.ModelAdmin


def _moderator(request: HttpRequest) -> User:
    """The staff member acting (the admin lets no one else in)."""
    user = request.user
    if not isinstance(user, User):
        raise PermissionDenied
    return user


# Chat lines shown before and after a reported one.
AROUND = 5


@admin.register(Report)
class ReportAdmin(ReportModelAdmin):
    list_display = ["created", "status", "kind", "reason", "author", "reporter", "excerpt"]
    list_filter = ["status", "kind", "reason"]
    ordering = ["-status", "created"]  # open first, oldest first
    search_fields = ["author__username", "reporter__username", "text"]
    readonly_fields = [
        "reporter",
        "kind",
        "author",
        "reason",
        "comment",
        "text",
        "in_context",
        "status",
        "created",
        "handled_at",
        "handled_by",
    ]
    exclude = ["chat_line", "message_id"]
    actions = [
        "hide_text",
        "warn_author",
        "suspend_week",
        "suspend_month",
        "suspend_for_good",
        "dismiss",
    ]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    @admin.display(description=_("text"))
    def excerpt(self, report: Report) -> str:
        return report.text[:80]

    @admin.display(description=_("in context"))
    def in_context(self, report: Report) -> str:
        """The reported line (or message) with those before and after it."""
        if report.message_id is not None:
            message = Message.objects.filter(pk=report.message_id).first()
            if message is None:
                return "—"
            messages_ = Message.objects.filter(conversation_id=message.conversation_id)
            heading = format_html("<p>Conversation {}</p>", message.conversation_id)
            return heading + _around(messages_.select_related("sender"), message, "sender")
        line = report.chat_line
        if line is None:
            return "—"
        lines = ChatLine.objects.filter(game_id=line.game_id).select_related("author")
        return format_html("<p>Game {}</p>", line.game_id) + _around(lines, line, "author")

    def _each(
        self, request: HttpRequest, reports: QuerySet[Report], do: Callable[[Report], object]
    ) -> None:
        done = 0
        for report in reports.select_related("author", "chat_line"):
            try:
                done += bool(do(report))
            except ValidationError as error:
                self.message_user(request, " ".join(error.messages), messages.ERROR)
        self.message_user(request, _("%(n)d done.") % {"n": done})

    @admin.action(description=_("Hide the reported text (its author is told)"))
    def hide_text(self, request: HttpRequest, reports: QuerySet[Report]) -> None:
        moderator = _moderator(request)
        self._each(request, reports, lambda r: actions.hide(moderator, r))

    @admin.action(description=_("Warn the author"))
    def warn_author(self, request: HttpRequest, reports: QuerySet[Report]) -> None:
        moderator = _moderator(request)

        def warn(r: Report) -> bool:
            text = _("Please keep to the site's rules (reported: %(reason)s).") % {
                "reason": r.get_reason_display()
            }
            actions.warn(moderator, r.author, str(text), r)
            return True

        self._each(request, reports, warn)

    def _suspend(self, request: HttpRequest, reports: QuerySet[Report], days: int | None) -> None:
        moderator = _moderator(request)
        until = None if days is None else timezone.now() + timedelta(days=days)

        def suspend(r: Report) -> bool:
            actions.suspend(moderator, r.author, until, r.get_reason_display(), r)
            return True

        self._each(request, reports, suspend)

    @admin.action(description=_("Suspend the author for 7 days"))
    def suspend_week(self, request: HttpRequest, reports: QuerySet[Report]) -> None:
        self._suspend(request, reports, 7)

    @admin.action(description=_("Suspend the author for 30 days"))
    def suspend_month(self, request: HttpRequest, reports: QuerySet[Report]) -> None:
        self._suspend(request, reports, 30)

    @admin.action(description=_("Suspend the author for good"))
    def suspend_for_good(self, request: HttpRequest, reports: QuerySet[Report]) -> None:
        self._suspend(request, reports, None)

    @admin.action(description=_("Dismiss (nothing wrong)"))
    def dismiss(self, request: HttpRequest, reports: QuerySet[Report]) -> None:
        moderator = _moderator(request)

        def dismiss(r: Report) -> bool:
            actions.dismiss(moderator, r)
            return True

        self._each(request, reports, dismiss)


@admin.register(Suspension)
class SuspensionAdmin(SuspensionModelAdmin):
    list_display = ["user", "created", "until", "lifted", "reason"]
    list_filter = ["lifted"]
    search_fields = ["user__username"]
    readonly_fields = ["user", "created", "until", "lifted", "reason"]
    actions = ["lift_now"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False  # suspended from a report's actions, which withdraw and log

    @admin.action(description=_("Lift the suspension now"))
    def lift_now(self, request: HttpRequest, suspensions: QuerySet[Suspension]) -> None:
        moderator = _moderator(request)
        lifted = sum(actions.lift(moderator, s) for s in suspensions.select_related("user"))
        self.message_user(request, _("%(n)d lifted.") % {"n": lifted})


@admin.register(ModerationLog)
class ModerationLogAdmin(ModerationLogModelAdmin):
    list_display = ["created", "moderator", "action", "user", "report", "note"]
    list_filter = ["action"]
    search_fields = ["user__username", "moderator__username"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: ModerationLog | None = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: ModerationLog | None = None) -> bool:
        return False  # the log is kept


@admin.register(ModerationNotice)
class ModerationNoticeAdmin(ModerationNoticeModelAdmin):
    list_display = ["created", "user", "read"]
    readonly_fields = ["user", "text", "created", "read"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False


# What a report shows around: a game's chat lines, or a conversation's messages.
Row = TypeVar("Row", ChatLine, Message)


def _around(rows: QuerySet[Row], reported: Row, who: str) -> str:
    """``reported`` among the ``AROUND`` rows before and after it (by id), highlighted."""
    earlier: list[Row] = list(rows.filter(pk__lt=reported.pk).order_by("-pk")[:AROUND])[::-1]
    later: list[Row] = list(rows.filter(pk__gt=reported.pk).order_by("pk")[:AROUND])
    shown: list[Row] = earlier + [reported] + later
    cells = [
        (
            mark_safe(' style="background:#fde68a"') if x.pk == reported.pk else "",
            f"{x.created:%Y-%m-%d %H:%M}",
            getattr(x, who).username,
            x.text,
            " (hidden)" if x.hidden else "",
        )
        for x in shown
    ]
    items = format_html_join("", "<li{}>{} <b>{}</b>: {}{}</li>", cells)
    return format_html("<ol>{}</ol>", items)
