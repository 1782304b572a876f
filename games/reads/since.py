"""Since you last looked: what the other players did in a game since one player's previous
view of its board (the marker ``Seat.looked_version``/``looked_scores``/``looked_at``,
written by ``games.play.presence.mark_looked``), in a few lines.

Built only from what that player may read: the game's log lines for their seat
(``games.reads.movelog.describe_move``, the same lines as their move log), the scores of
their own view (``scores(view)``) and the chat lines they may read (``games.community.chat.reads``).
So it never tells a secret: a card another seat drew stays "drew 2 cards", as in their log.
The board shows it at its top; the turn email and push say it in a sentence.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games.community.chat import reads as chat_reads
from games.core.protocol import State
from games.models import Game, Move, Seat
from games.reads.movelog import SITE_EVENTS, describe_move

# The lines a summary names at most (the newest); it counts the others.
MOST_LINES = 8
# The records read at most: a player back after weeks gets the newest of them.
MOST_RECORDS = 200


@dataclass
class Since:
    lines: list[str] = field(default_factory=list)  # what the others did, oldest first
    more: int = 0  # lines left out (older)
    gains: list[tuple[str, int]] = field(default_factory=list)  # (name, points gained)
    chat: int = 0  # lines others wrote in the chat
    score_label: str = ""

    def __bool__(self) -> bool:
        return bool(self.lines or self.gains or self.chat)

    def items(self) -> list[str]:
        """Every line the board lists, oldest first: what the others did, the points they
        gained, the chat."""
        out = list(self.lines)
        out += [
            _("%(name)s gained %(points)d %(label)s")
            % {"name": name, "points": points, "label": self.score_label}
            for name, points in self.gains
        ]
        if self.chat:
            out.append(
                ngettext("%(n)d new line in the chat", "%(n)d new lines in the chat", self.chat)
                % {"n": self.chat}
            )
        return out

    @property
    def latest(self) -> str:
        """The newest line: what the board shows before the rest is asked for."""
        return self.lines[-1] if self.lines else (self.items() or [""])[-1]

    @property
    def rest(self) -> int:
        """How many other lines there are (listed on demand, the oldest counted only)."""
        return self.more + len(self.lines) + len(self.gains) + bool(self.chat) - 1

    def sentence(self, most: int = 3) -> str:
        """The summary in one sentence, for an email's top line or a push's body."""
        parts = self.lines[-most:]
        parts += [
            _("%(name)s gained %(points)d %(label)s")
            % {"name": name, "points": points, "label": self.score_label}
            for name, points in self.gains
        ]
        if self.chat:
            parts.append(
                ngettext("%(n)d new line in the chat", "%(n)d new lines in the chat", self.chat)
                % {"n": self.chat}
            )
        return "; ".join(parts) + ("." if parts else "")


def others_lines(game: Game, state: State, seat: int, after: int) -> list[str]:
    """The log lines, for ``seat``, of the other seats' records after version ``after``
    (headings left out: the lines say who), oldest first."""
    kind = game.game_kind
    records = (
        Move.objects.filter(game=game, number__gt=after)
        .exclude(seat=seat)
        .order_by("-number")
        .values_list("events", flat=True)[:MOST_RECORDS]
    )
    lines: list[str] = []
    for events in records:
        told = [
            e for e in events if e.get("type") in SITE_EVENTS or kind.log_heading(state, e) is None
        ]
        lines[:0] = describe_move(game, state, told, seat)
    return lines


def summary(
    game: Game, seat: Seat, state: State = None, view: dict[str, Any] | None = None
) -> Since:
    """What the others did in ``game`` since ``seat``'s player last looked at its board."""
    kind = game.game_kind
    state = kind.from_json(game.snapshot) if state is None else state
    view = kind.view(state, seat.number) if view is None else view
    lines = others_lines(game, state, seat.number, seat.looked_version)
    out = Since(lines=lines[-MOST_LINES:], more=max(0, len(lines) - MOST_LINES))
    out.score_label = _(kind.score_label)
    if seat.looked_version:
        before = {int(q): points for q, points in (seat.looked_scores or {}).items()}
        for q, points in sorted(kind.scores(view).items()):
            gained = points - before.get(q, points)
            if q != seat.number and gained > 0:
                out.gains.append((game.names[q], gained))
    _lines, out.chat = chat_reads.unseen(game, seat.user, seat.looked_at, most=0)
    return out
