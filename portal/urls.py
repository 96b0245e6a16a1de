"""The portal's pages: the home page (/), the calendar (/kalender/ and its ICS feeds), the club portal (/klubb/), fee lists (/avgifter/), TK's work queue (/tk/), and the public
DM Lag (/lag/) and DM Par (/par/, one competition at /par/<id>/) pages, the heat pages (/par/kval/<id>/, /lag/kval/<id>/) and
the DM Par final page (/par/final/<id>/), and their result lists as PDF (``resultat.pdf``
beside each, and /lag/final/resultat.pdf for the DM Lag final)."""

from django.urls import path, re_path

from portal.views import (
    accounts,
    captain,
    club,
    club_final_reserves,
    club_heats,
    club_sm_partner,
    fees,
    home,
    lag,
    landing,
    par,
    schedules,
    tk,
    tk_direct_final,
    tk_masterpoints,
    tk_rulings,
    tk_sanctions,
    tk_season_data,
    tk_seats,
    tk_semifinal,
    tk_short_heats,
)

app_name = "portal"

_LIST = r"^avgifter/(?P<scope>heat|final)/(?P<kind>parkval|lagkval|parfinal|lagfinal)/(?P<pk>\d+)"

urlpatterns = [
    path("", home.home, name="home"),
    path("kalender/", home.calendar, name="calendar"),
    path("kalender.ics", home.calendar_ics, name="calendar_ics"),
    path("kalender/<int:competition_id>.ics", home.competition_ics, name="competition_ics"),
    path("lag/", lag.standings, name="lag"),
    path("lag/final/", lag.final, name="lag_final"),
    path("lag/final/resultat.pdf", lag.final_pdf, name="lag_final_pdf"),
    path("lag/lag/<int:team_id>/", lag.team, name="lag_team"),
    path("lag/match/<int:match_id>/", lag.match, name="lag_match"),
    path("par/", par.competitions, name="par"),
    path("par/<int:competition_id>/", par.competition, name="par_competition"),
    path("par/kval/<int:heat_id>/", par.heat, name="par_heat"),
    path("par/kval/<int:heat_id>/resultat.pdf", par.heat_pdf, name="par_heat_pdf"),
    path("par/final/<int:competition_id>/", par.final, name="par_final"),
    path("par/final/<int:competition_id>/resultat.pdf", par.final_pdf, name="par_final_pdf"),
    path("lag/kval/<int:heat_id>/", lag.heat, name="lag_heat"),
    path("lag/kval/<int:heat_id>/resultat.pdf", lag.heat_pdf, name="lag_heat_pdf"),
    path("konto/start/", landing.landing, name="landing"),
    path("klubb/", club.dashboard, name="dashboard"),
    path("klubb/spelare/", club.player_lookup, name="player_lookup"),
    path("tk/", tk.queue, name="tk_queue"),
    path("tk/beslut/", tk.decide, name="tk_decide"),
    path("tk/wo/", tk.award_walkover_view, name="tk_award_walkover"),
    path("tk/wo/<int:pk>/aterkalla/", tk.revoke_walkover_view, name="tk_revoke_walkover"),
    path("tk/avdrag/<int:pk>/hav/", tk.lift_penalty_view, name="tk_lift_penalty"),
    path("tk/lott/<int:competition_id>/", tk.draw_lot_view, name="tk_draw_lot"),
    path("tk/lott/<int:competition_id>/hand/", tk.hand_lot_view, name="tk_hand_lot"),
    path(
        "tk/finalplatser/<int:competition_id>/",
        tk_seats.final_seats_view,
        name="tk_final_seats",
    ),
    path("tk/sanktioner/", tk_sanctions.sanctions_page, name="tk_sanctions"),
    path("tk/sanktioner/avdrag/", tk_sanctions.impose_penalty_view, name="tk_impose_penalty"),
    path("tk/sanktioner/diskvalificera/", tk_sanctions.disqualify_view, name="tk_disqualify"),
    path("tk/sasong/", tk.season_view, name="tk_season"),
    path("tk/sasong/mastarpoang/", tk_masterpoints.mp_table_view, name="tk_mp_table"),
    path("tk/direktfinal/", tk_direct_final.direct_final_view, name="tk_direct_final"),
    path(
        "tk/lagfinal/<int:competition_id>/spelschema/",
        schedules.final_schedule_view,
        name="final_schedule",
    ),
    path(
        "klubb/lagkval/<int:heat_id>/spelschema/",
        schedules.heat_schedule_view,
        name="heat_schedule",
    ),
    path("tk/register/", tk_season_data.register_view, name="tk_register"),
    path("tk/nasta-sasong/", tk_season_data.next_season_view, name="tk_next_season"),
    path("tk/domslut/", tk_rulings.rulings_view, name="tk_rulings"),
    path("tk/domslut/<int:pk>/", tk_rulings.ruling_view, name="tk_ruling"),
    path("tk/protester/", tk_rulings.protests_view, name="tk_protests"),
    path("tk/kvalheat/<int:heat_id>/", tk_short_heats.short_heat_page, name="tk_short_heat"),
    path("tk/sm-semifinal/", tk_semifinal.semifinal_page, name="tk_semifinal"),
    path("tk/sm-semifinal/orter/", tk_semifinal.venues_page, name="tk_semifinal_venues"),
    re_path(
        r"^tk/sm-semifinal/lista\.(?P<fmt>csv|xlsx)$",
        tk_semifinal.semifinal_list,
        name="tk_semifinal_list",
    ),
    path("tk/logg/", tk.log, name="tk_log"),
    path("tk/logg.csv", tk.log, {"fmt": "csv"}, name="tk_log_csv"),
    path("klubb/parkval/ny/", club.register_pair_heat_view, name="register_pair_heat"),
    path("klubb/lagkval/ny/", club.register_team_heat_view, name="register_team_heat"),
    path("klubb/parkval/<int:heat_id>/anmal/", club.enter_pair_view, name="enter_pair"),
    re_path(
        r"^klubb/(?P<kind_word>parkval|lagkval)/(?P<heat_id>\d+)/$",
        club_heats.heat_page,
        name="club_heat",
    ),
    path(
        "klubb/direktfinal/<int:competition_id>/anmal/",
        club.enter_direct_final_view,
        name="enter_direct_final",
    ),
    path(
        "klubb/sm-partner/<int:competition_id>/",
        club_sm_partner.sm_partner_view,
        name="sm_partner",
    ),
    path(
        "klubb/parfinal/<int:competition_id>/reserver/",
        club_final_reserves.final_reserves_view,
        name="pair_final_reserves",
    ),
    path("avgifter/", fees.fee_overview, name="fee_overview"),
    # The captain's team page (beside teams.urls' /mitt-lag/ pages; reads results and fees)
    path("mitt-lag/<int:team_id>/", captain.captain_team, name="captain_team"),
    path(
        "mitt-lag/<int:team_id>/kvalplats/<int:offer_id>/",
        tk_short_heats.captain_heat_offer,
        name="captain_heat_offer",
    ),
    path(
        "mitt-lag/<int:team_id>/dispens/",
        captain.ask_balance_dispensation,
        name="captain_balance_dispensation",
    ),
    path(
        "mitt-lag/<int:team_id>/sm-semifinal/",
        tk_semifinal.captain_semifinal,
        name="captain_semifinal",
    ),
    # Accounts by invitation (portal.views.accounts)
    path("tk/inbjudan/", accounts.tk_invite, name="tk_invite"),
    path("klubb/inbjudan/", accounts.club_invite, name="club_invite"),
    path("konto/inbjudan/<str:token>/", accounts.accept_invitation, name="accept_invitation"),
    re_path(_LIST + r"/$", fees.fee_list_page, name="fee_list"),
    re_path(_LIST + r"\.(?P<fmt>csv|xlsx)$", fees.fee_list_download, name="fee_list_download"),
]
