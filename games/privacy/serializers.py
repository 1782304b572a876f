"""The shape of a player's data (``export.player_data``): one serializer per kind of row,
which is both what the download holds and its description in the OpenAPI schema.

Never a secret: no token or webhook secret, no device key or push address, no other
player's hidden information (only the moves the player made themselves, never a game's
snapshot, seed, events or another seat's actions), and nobody's report against them.
"""

from __future__ import annotations

from typing import Any

from rest_framework import serializers


class DataEmailAddressSerializer(serializers.Serializer[dict[str, Any]]):
    email = serializers.CharField()
    verified = serializers.BooleanField()
    primary = serializers.BooleanField()


class AccountDeletionSerializer(serializers.Serializer[dict[str, Any]]):
    requested_at = serializers.DateTimeField(allow_null=True)
    due_at = serializers.DateTimeField(
        allow_null=True, help_text="When the account will be deleted; null: nobody asked."
    )
    running_games = serializers.CharField(
        allow_blank=True, help_text="concede or computer (blank: nobody asked)."
    )


class DataAccountSerializer(serializers.Serializer[dict[str, Any]]):
    id = serializers.IntegerField()
    username = serializers.CharField()
    display_name = serializers.CharField(allow_blank=True)
    name = serializers.CharField(help_text="The name other players see.")
    first_name = serializers.CharField(allow_blank=True)
    last_name = serializers.CharField(allow_blank=True)
    email = serializers.CharField(allow_blank=True)
    email_addresses = DataEmailAddressSerializer(many=True)
    is_guest = serializers.BooleanField()
    date_joined = serializers.DateTimeField()
    last_login = serializers.DateTimeField(allow_null=True)
    deletion = AccountDeletionSerializer()


class DataQuietHoursSerializer(serializers.Serializer[dict[str, Any]]):
    start = serializers.IntegerField(allow_null=True, help_text="Hour of the night's start.")
    end = serializers.IntegerField(allow_null=True, help_text="Hour of its end.")
    changed_at = serializers.DateTimeField(allow_null=True)


class DataStandInSerializer(serializers.Serializer[dict[str, Any]]):
    level = serializers.CharField(allow_blank=True)
    until = serializers.DateTimeField(allow_null=True)


class DataPreferencesSerializer(serializers.Serializer[dict[str, Any]]):
    time_zone = serializers.CharField()
    language = serializers.CharField(allow_blank=True, help_text="Blank: the browser's.")
    browser_language = serializers.CharField(allow_blank=True)
    turn_emails = serializers.CharField()
    reminder_after_hours = serializers.IntegerField(allow_null=True)
    weekly_reminders = serializers.BooleanField()
    deadline_emails = serializers.BooleanField()
    game_emails = serializers.BooleanField()
    invitation_emails = serializers.BooleanField()
    chat_emails = serializers.BooleanField()
    message_emails = serializers.BooleanField()
    push_turn = serializers.BooleanField()
    push_finished = serializers.BooleanField()
    push_invitation = serializers.BooleanField()
    push_chat = serializers.BooleanField()
    push_message = serializers.BooleanField()
    quiet_hours = DataQuietHoursSerializer()
    stand_in_everywhere = DataStandInSerializer()


class DataVacationSerializer(serializers.Serializer[dict[str, Any]]):
    start = serializers.DateTimeField()
    end = serializers.DateTimeField()
    created = serializers.DateTimeField()


class DataMoveSerializer(serializers.Serializer[dict[str, Any]]):
    number = serializers.IntegerField(help_text="The game's version after it.")
    created = serializers.DateTimeField()
    action = serializers.JSONField(help_text="The action as the player sent it.")


class DataGameSerializer(serializers.Serializer[dict[str, Any]]):
    id = serializers.IntegerField()
    game = serializers.CharField(help_text="Which game of the catalog.")
    status = serializers.CharField()
    created = serializers.DateTimeField()
    finished = serializers.DateTimeField(allow_null=True)
    rated = serializers.BooleanField()
    seat = serializers.IntegerField(help_text="The player's seat, 0 playing first.")
    names = serializers.ListField(child=serializers.CharField(), help_text="Every seat's name.")
    rank = serializers.IntegerField(allow_null=True)
    score = serializers.IntegerField(allow_null=True)
    resigned = serializers.BooleanField()
    abandoned = serializers.BooleanField()
    moves = DataMoveSerializer(
        many=True, help_text="The moves the player made (not the computer's for them)."
    )


class DataRatingSerializer(serializers.Serializer[dict[str, Any]]):
    game = serializers.CharField()
    rating = serializers.IntegerField()
    games = serializers.IntegerField()


class DataRatingChangeSerializer(serializers.Serializer[dict[str, Any]]):
    game_id = serializers.IntegerField()
    game = serializers.CharField()
    rank = serializers.IntegerField()
    finished = serializers.DateTimeField()
    rating_before = serializers.IntegerField()
    rating_after = serializers.IntegerField()


class DataChatLineSerializer(serializers.Serializer[dict[str, Any]]):
    game_id = serializers.IntegerField()
    text = serializers.CharField()
    created = serializers.DateTimeField()
    hidden = serializers.BooleanField(help_text="Hidden by a moderator.")


class DataMessageSerializer(serializers.Serializer[dict[str, Any]]):
    conversation_id = serializers.IntegerField()
    to = serializers.CharField(help_text="The recipient's username.")
    text = serializers.CharField()
    created = serializers.DateTimeField()
    hidden = serializers.BooleanField(help_text="Hidden by a moderator.")


class DataNoteSerializer(serializers.Serializer[dict[str, Any]]):
    game_id = serializers.IntegerField()
    text = serializers.CharField(allow_blank=True)
    updated = serializers.DateTimeField()


class DataPersonSerializer(serializers.Serializer[dict[str, Any]]):
    username = serializers.CharField()
    since = serializers.DateTimeField()


class DataTokenSerializer(serializers.Serializer[dict[str, Any]]):
    key = serializers.CharField(help_text="The token's first characters (never the token).")
    name = serializers.CharField()
    created = serializers.DateTimeField()
    expiry = serializers.DateTimeField(allow_null=True)
    last_used = serializers.DateTimeField(allow_null=True)


class DataWebhookSerializer(serializers.Serializer[dict[str, Any]]):
    url = serializers.CharField()
    token = serializers.CharField(help_text="The name of the token it belongs to.")
    events = serializers.ListField(child=serializers.CharField())
    active = serializers.BooleanField()
    created = serializers.DateTimeField()


class DataDeviceSerializer(serializers.Serializer[dict[str, Any]]):
    # (Named like Field.label: DRF's metaclass takes a declared field out of the class.)
    label = serializers.CharField(  # type: ignore[assignment]
        allow_blank=True, help_text="Browser and system."
    )
    created = serializers.DateTimeField()
    last_success = serializers.DateTimeField(allow_null=True)


class DataInvitationSerializer(serializers.Serializer[dict[str, Any]]):
    id = serializers.IntegerField()
    game = serializers.CharField()
    status = serializers.CharField()
    created = serializers.DateTimeField()


class DataEntrySerializer(serializers.Serializer[dict[str, Any]]):
    tournament_id = serializers.IntegerField()
    tournament = serializers.CharField(help_text="Its name.")
    status = serializers.CharField()
    joined = serializers.DateTimeField()


class DataReportSerializer(serializers.Serializer[dict[str, Any]]):
    kind = serializers.CharField()
    reason = serializers.CharField()
    comment = serializers.CharField(allow_blank=True)
    status = serializers.CharField()
    created = serializers.DateTimeField()


class DataModerationNoticeSerializer(serializers.Serializer[dict[str, Any]]):
    text = serializers.CharField()
    created = serializers.DateTimeField()


class DataSuspensionSerializer(serializers.Serializer[dict[str, Any]]):
    until = serializers.DateTimeField(allow_null=True)
    reason = serializers.CharField(allow_blank=True)
    created = serializers.DateTimeField()
    lifted = serializers.DateTimeField(allow_null=True)


class PlayerDataSerializer(serializers.Serializer[dict[str, Any]]):
    """Everything the site holds about the player, as of ``created``."""

    created = serializers.DateTimeField(help_text="When this download was made.")
    account = DataAccountSerializer()
    preferences = DataPreferencesSerializer()
    vacations = DataVacationSerializer(many=True)
    games = DataGameSerializer(many=True)
    ratings = DataRatingSerializer(many=True)
    rating_changes = DataRatingChangeSerializer(many=True)
    chat_lines = DataChatLineSerializer(many=True)
    messages = DataMessageSerializer(many=True, help_text="The messages the player wrote.")
    notes = DataNoteSerializer(many=True)
    friends = DataPersonSerializer(many=True)
    blocks = DataPersonSerializer(many=True)
    tokens = DataTokenSerializer(many=True)
    webhooks = DataWebhookSerializer(many=True)
    push_devices = DataDeviceSerializer(many=True)
    invitations = DataInvitationSerializer(many=True, help_text="The invitations the player made.")
    tournament_entries = DataEntrySerializer(many=True)
    reports = DataReportSerializer(many=True, help_text="The reports the player made.")
    moderation_notices = DataModerationNoticeSerializer(many=True)
    suspensions = DataSuspensionSerializer(many=True)
