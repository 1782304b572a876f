from django.urls import path

import games.converters  # noqa: F401 (the "id" converter)
from games import (
    board_views,
    leaderboard_views,
    log_views,
    replay_views,
    rules_views,
    vacation_views,
    views,
)

app_name = "games"

urlpatterns = [
    # The board page belongs to games.board_views.
    path("games/<id:game_id>/", board_views.board, name="board"),
    path("games/<id:game_id>/move/", board_views.board_move, name="board_move"),
    path("games/<id:game_id>/poll/", board_views.board_poll, name="board_poll"),
    # The replay of a finished game belongs to games.replay_views.
    path("games/<id:game_id>/replay/", replay_views.replay_start, name="replay"),
    path("games/<id:game_id>/replay/<id:step>/", replay_views.replay_step, name="replay_step"),
    path("games/<id:game_id>/log/", log_views.game_log, name="log"),
    path("games/<id:game_id>/actions/", views.game_actions, name="actions"),
    path("games/<id:game_id>/concede/", views.concede, name="concede"),
    path("games/<id:game_id>/cancel-vote/", views.vote_cancel, name="vote_cancel"),
    path("games/next/", views.next_game, name="next"),
    path("vacation/start/", vacation_views.start, name="vacation_start"),
    path("vacation/stop/", vacation_views.stop, name="vacation_stop"),
    path("lobby/", views.lobby, name="lobby"),
    path("leaderboard/<str:game>/", leaderboard_views.leaderboard, name="leaderboard"),
    # A game's rules in the site's words (public): games.rules_views.
    path("games/rules/<str:game>/", rules_views.rules, name="rules"),
    path("lobby/new/", views.create_invitation, name="invitation_new"),
    path("invitations/<id:invitation_id>/accept/", views.accept_invitation, name="accept"),
    path("invitations/<id:invitation_id>/decline/", views.decline_invitation, name="decline"),
    path("invitations/<id:invitation_id>/withdraw/", views.withdraw_invitation, name="withdraw"),
]
