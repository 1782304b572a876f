"""The tournaments' pure part: who meets whom, when, and who stands where. No Django (the
import contract "pure-tournament-formats" keeps it so), like the rules engines.

Players are plain ints (the Django part passes its entries' ids); a table is a tuple of
them in no particular order (the platform draws the seats of each game); a round is a list
of tables; a player of the round at no table has a bye.
"""

from __future__ import annotations

Table = tuple[int, ...]
Round = list[Table]
