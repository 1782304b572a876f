from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from games.community.moderation.models import Report


class ReportForm(forms.Form):
    reason = forms.ChoiceField(
        label=_("What is wrong?"), choices=Report.Reason.choices, widget=forms.RadioSelect
    )
    comment = forms.CharField(
        label=_("Anything the moderators should know (optional)"),
        required=False,
        max_length=Report.MAX_LENGTH,
        strip=False,
        widget=forms.Textarea(attrs={"rows": 3}),
    )
