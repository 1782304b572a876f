"""``preferences.wanting`` (a query) says the same as ``preferences.wants`` (one user)."""

import itertools

from accounts.models import User
from games.notifications import preferences
from games.notifications.models import Notification


def test_the_query_and_the_user_agree_on_every_kind(db):
    users = []
    combinations = itertools.product(
        User.TurnEmails.values, [None, 6], [True, False], [True, False], [False, True]
    )
    for n, (turn, reminder, weekly, games, guest) in enumerate(combinations):
        users.append(
            User.objects.create(
                username=f"user{n}",
                email="" if n % 7 == 3 else f"user{n}@example.org",
                is_active=n % 11 != 5,
                is_guest=guest,
                turn_emails=turn,
                reminder_after_hours=reminder,
                weekly_reminders=weekly,
                deadline_emails=not games,
                game_emails=games,
                invitation_emails=weekly,
            )
        )

    for kind in Notification.Kind.values:
        wanting = set(User.objects.filter(preferences.wanting(kind)))
        assert wanting == {u for u in users if preferences.wants(u, kind)}, kind
        assert 0 < len(wanting) < len(users), kind
