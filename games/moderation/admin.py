"""The moderation queue (staff only): open reports first, each with the reported text in its
context (the chat lines around it), and the actions a moderator takes on it. Every action
goes through ``games.moderation.actions``, which logs it."""

from __future__ import annotations

from datetime import timedelta

from django.contrib import admin, messages
from django.core.exceptions import ValidationError
from django.db.models import QuerySet
from django.http import HttpRequest
from django.utils import timezone
from django.utils.html import format_html, format_html_join
from django.utils.translation import gettext_lazy as _

from accounts.models import Message
from games.models import ChatLine
from games.moderation import actions
from games.moderation.models import ModerationLog, ModerationNotice, Report, Suspension

# Chat lines shown before and after a reported one.
AROUND = 5


@admin.register(Report)
class ReportAdmin(admin.ModelAdmin):
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
        line = report.chat_line
        if report.message_id is not None:
            return self._message_context(report.message_id)
        if line is None:
            return "—"
        around = list(
            ChatLine.objects.filter(game_id=line.game_id, pk__lt=line.pk)
            .select_related("author")
            .order_by("-pk")[:AROUND]
        )[::-1]
        around += [line]
        around += list(
            ChatLine.objects.filter(game_id=line.game_id, pk__gt=line.pk)
            .select_related("author")
            .order_by("pk")[:AROUND]
        )
        rows = format_html_join(
            "",
            "<li{}>{} <b>{}</b>: {}{}</li>",
            (
                (
                    format_html(' style="background:#fde68a"') if x.pk == line.pk else "",
                    f"{x.created:%Y-%m-%d %H:%M}",
                    x.author.username,
                    x.text,
                    " (hidden)" if x.hidden else "",
                )
                for x in around
            ),
        )
        return format_html("<p>Game {}</p><ol>{}</ol>", line.game_id, rows)

    def _message_context(self, message_id: int) -> str:
        """The reported message with the messages before and after it in its conversation."""
        message = Message.objects.filter(pk=message_id).first()
        if message is None:
            return "—"
        around = Message.objects.filter(conversation_id=message.conversation_id)
        earlier = list(around.filter(pk__lt=message.pk).order_by("-pk")[:AROUND])[::-1]
        later = list(around.filter(pk__gt=message.pk).order_by("pk")[:AROUND])
        rows = format_html_join(
            "",
            "<li{}>{} <b>{}</b>: {}{}</li>",
            (
                (
                    format_html(' style="background:#fde68a"') if x.pk == message.pk else "",
                    f"{x.created:%Y-%m-%d %H:%M}",
                    x.sender.username,
                    x.text,
                    " (hidden)" if x.hidden else "",
                )
                for x in [*earlier, message, *later]
            ),
        )
        return format_html("<p>Conversation {}</p><ol>{}</ol>", message.conversation_id, rows)

    def _each(self, request: HttpRequest, reports: QuerySet[Report], do) -> None:
        done = 0
        for report in reports.select_related("author", "chat_line"):
            try:
                done += bool(do(report))
            except ValidationError as error:
                self.message_user(request, " ".join(error.messages), messages.ERROR)
        self.message_user(request, _("%(n)d done.") % {"n": done})

    @admin.action(description=_("Hide the reported text (its author is told)"))
    def hide_text(self, request, reports):
        self._each(request, reports, lambda r: actions.hide(request.user, r))

    @admin.action(description=_("Warn the author"))
    def warn_author(self, request, reports):
        def warn(r: Report) -> bool:
            text = _("Please keep to the site's rules (reported: %(reason)s).") % {
                "reason": r.get_reason_display()
            }
            actions.warn(request.user, r.author, str(text), r)
            return True

        self._each(request, reports, warn)

    def _suspend(self, request, reports, days: int | None) -> None:
        until = None if days is None else timezone.now() + timedelta(days=days)

        def suspend(r: Report) -> bool:
            actions.suspend(request.user, r.author, until, r.get_reason_display(), r)
            return True

        self._each(request, reports, suspend)

    @admin.action(description=_("Suspend the author for 7 days"))
    def suspend_week(self, request, reports):
        self._suspend(request, reports, 7)

    @admin.action(description=_("Suspend the author for 30 days"))
    def suspend_month(self, request, reports):
        self._suspend(request, reports, 30)

    @admin.action(description=_("Suspend the author for good"))
    def suspend_for_good(self, request, reports):
        self._suspend(request, reports, None)

    @admin.action(description=_("Dismiss (nothing wrong)"))
    def dismiss(self, request, reports):
        self._each(request, reports, lambda r: actions.dismiss(request.user, r) or True)


@admin.register(Suspension)
class SuspensionAdmin(admin.ModelAdmin):
    list_display = ["user", "created", "until", "lifted", "reason"]
    list_filter = ["lifted"]
    search_fields = ["user__username"]
    readonly_fields = ["user", "created", "until", "lifted", "reason"]
    actions = ["lift_now"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False  # suspended from a report's actions, which withdraw and log

    @admin.action(description=_("Lift the suspension now"))
    def lift_now(self, request, suspensions):
        lifted = sum(actions.lift(request.user, s) for s in suspensions.select_related("user"))
        self.message_user(request, _("%(n)d lifted.") % {"n": lifted})


@admin.register(ModerationLog)
class ModerationLogAdmin(admin.ModelAdmin):
    list_display = ["created", "moderator", "action", "user", "report", "note"]
    list_filter = ["action"]
    search_fields = ["user__username", "moderator__username"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj=None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj=None) -> bool:
        return False  # the log is kept


@admin.register(ModerationNotice)
class ModerationNoticeAdmin(admin.ModelAdmin):
    list_display = ["created", "user", "read"]
    readonly_fields = ["user", "text", "created", "read"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False
