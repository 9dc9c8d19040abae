"""URLs of the card room."""

from django.urls import path

from .people import languages
from .views import accounts, fair, friends, health, history, home, reports, tables

urlpatterns = [
    path("", home.home, name="home"),
    path("signup/", accounts.signup, name="signup"),
    path("u/<str:username>/", accounts.profile, name="profile"),
    path("tables/new/", tables.new_table, name="new_table"),
    path("tables/options/", tables.table_options, name="table_options"),
    path("play/", tables.play_now_view, name="play_now"),
    path("play/<str:game>/", tables.play_now_page, name="play_now_game"),
    path("t/<str:code>/join/", tables.join_quick_table, name="join_quick_table"),
    path("t/<str:code>/", tables.table, name="table"),
    path("t/<str:code>/invite/", tables.invite_friend, name="invite_friend"),
    path("t/<str:code>/close/", tables.close_table, name="close_table"),
    path("rules/<str:game>/", tables.rules, name="rules"),
    path("t/<str:code>/report/<int:pk>/", reports.report_message, name="report_message"),
    path("report/player/<str:username>/", reports.report_player, name="report_player"),
    path("m/<int:match_id>/", history.match_detail, name="match"),
    path("m/<int:match_id>/replay/", history.replay, name="replay"),
    path("m/<int:match_id>/log.json", history.match_log, name="match_log"),
    path("m/<int:match_id>/deals/<int:number>/", history.deal_review, name="deal_review"),
    path("fair-deals/", fair.fair_deals, name="fair_deals"),
    path("fair-deals/verifier.zip", fair.verifier, name="verifier"),
    path("leaderboard/", history.leaderboards, name="leaderboards"),
    path("leaderboard/<str:game>/", history.leaderboard, name="leaderboard"),
    path("friends/", friends.friends_page, name="friends"),
    path("friends/request/", friends.send_request, name="friend_request"),
    path(
        "friends/requests/<int:pk>/<str:answer>/",
        friends.answer_friend_request,
        name="answer_friend_request",
    ),
    path("friends/requests/<int:pk>/cancel", friends.cancel_request, name="cancel_friend_request"),
    path("friends/remove/", friends.remove_friend, name="remove_friend"),
    path("friends/block/", friends.block, name="block"),
    path("friends/unblock/", friends.unblock, name="unblock"),
    path("friends/choices/", friends.save_choices, name="friend_choices"),
    path("invitations/", friends.notifications, name="notifications"),
    path("invitations/<int:pk>/<str:answer>/", friends.answer_invitation, name="answer_invitation"),
    path("language/", languages.set_language, name="set_language"),
    path("healthz", health.healthz, name="healthz"),
]
