from django.urls import path

import games.converters  # noqa: F401 (the "id" converter)
from games.community.chat import views as chat
from games.web import (
    analysis,
    board,
    leaderboard,
    lobby,
    log,
    notes,
    profile,
    quiet_hours,
    replay,
    rules,
    since,
    stand_in,
    vacation,
)

app_name = "games"

urlpatterns = [
    # The board page belongs to games.web.board.
    path("games/<id:game_id>/", board.board, name="board"),
    path("games/<id:game_id>/move/", board.board_move, name="board_move"),
    path("games/<id:game_id>/poll/", board.board_poll, name="board_poll"),
    # The player's private note beside the board: games.web.notes.
    path("games/<id:game_id>/note/", notes.game_note, name="note"),
    # The game's chat beside the board: games.community.chat.views.
    path("games/<id:game_id>/chat/", chat.game_chat, name="chat"),
    # What the others did since the player last looked: games.web.since.
    path("games/<id:game_id>/since/", since.since_last_look, name="since"),
    # The replay of a finished game belongs to games.web.replay.
    path("games/<id:game_id>/replay/", replay.replay_start, name="replay"),
    path("games/<id:game_id>/replay/<id:step>/", replay.replay_step, name="replay_step"),
    # Asking for a finished game's analysis (shown on its replay): games.web.analysis.
    path("games/<id:game_id>/analysis/", analysis.request_analysis, name="analysis"),
    path("games/<id:game_id>/log/", log.game_log, name="log"),
    path("games/<id:game_id>/actions/", lobby.game_actions, name="actions"),
    path("games/<id:game_id>/concede/", lobby.concede, name="concede"),
    path("games/<id:game_id>/cancel-vote/", lobby.vote_cancel, name="vote_cancel"),
    path("games/<id:game_id>/rematch/", lobby.rematch, name="rematch"),
    path("games/next/", lobby.next_game, name="next"),
    path("vacation/start/", vacation.start, name="vacation_start"),
    path("vacation/stop/", vacation.stop, name="vacation_stop"),
    path("quiet-hours/", quiet_hours.set_quiet_hours, name="quiet_hours"),
    # The computer stand-in by consent: games.web.stand_in.
    path("games/<id:game_id>/stand-in/", stand_in.start, name="stand_in"),
    path("games/<id:game_id>/stand-in/stop/", stand_in.stop, name="stand_in_stop"),
    path("stand-in/", stand_in.start_everywhere, name="stand_in_everywhere"),
    path("stand-in/stop/", stand_in.stop_everywhere, name="stand_in_stop_everywhere"),
    path("u/<str:username>/", profile.profile, name="profile"),
    path("lobby/", lobby.lobby, name="lobby"),
    path("leaderboard/<str:game>/", leaderboard.leaderboard, name="leaderboard"),
    # A game's rules in the site's words (public): games.web.rules.
    path("games/rules/<str:game>/", rules.rules, name="rules"),
    path("lobby/new/", lobby.create_invitation, name="invitation_new"),
    path("invitations/<id:invitation_id>/accept/", lobby.accept_invitation, name="accept"),
    path("invitations/<id:invitation_id>/decline/", lobby.decline_invitation, name="decline"),
    path("invitations/<id:invitation_id>/withdraw/", lobby.withdraw_invitation, name="withdraw"),
]
