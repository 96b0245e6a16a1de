"""The demo at any date: the one clock (clubs.clock) runs at DEMO_DATE, TK moves it in the
admin, every page shows it in a banner; in production it is the real date and cannot move."""

from datetime import date, datetime

import pytest
from django.urls import reverse
from django.utils import timezone

from clubs import clock, windows
from clubs.models import DemoClock
from clubs.services.base import ServiceError
from tests.factories import TeamHeatFactory, UserFactory
from tests.ubf.test_settings import run_python

pytestmark = pytest.mark.django_db


def test_demo_now_is_the_demo_date_at_the_real_time_of_day(settings):
    settings.UBF_DEMO_DATE = "2017-03-05"
    before = timezone.localtime(timezone.now()).replace(tzinfo=None)
    now = timezone.localtime(clock.now()).replace(tzinfo=None)
    after = timezone.localtime(timezone.now()).replace(tzinfo=None)
    assert clock.today() == date(2017, 3, 5)
    assert now.date() == date(2017, 3, 5)
    # the real time of day (Stockholm), so a demo day's timestamps keep their order
    assert before.time() <= now.time() <= after.time() or before.date() != after.date()
    assert clock.now() <= clock.now()


def test_a_frozen_clock_is_exact_also_in_the_demo(settings):
    settings.UBF_DEMO_DATE = "2017-03-05"
    with clock.frozen("2016-10-01 09:30"):
        assert timezone.localtime(clock.now()).replace(tzinfo=None) == datetime(2016, 10, 1, 9, 30)
    with clock.frozen(date(2016, 10, 2)):  # a date alone: noon of that day
        assert timezone.localtime(clock.now()).hour == 12


def test_banner_on_every_page_follows_the_demo_clock(settings, client):
    settings.UBF_DEMO_DATE = "2016-11-19"
    for url in ("/lag/", "/par/", reverse("login"), reverse("admin:login")):
        html = client.get(url).content.decode()
        assert "Demo: datum 19 november 2016" in html, url
    DemoClock.objects.create(on=date(2017, 3, 5))  # TK moved it in the admin
    assert "Demo: datum 5 mars 2017" in client.get("/lag/").content.decode()
    assert clock.today() == date(2017, 3, 5)


def test_no_banner_outside_the_demo(client):
    assert 'id="demo-clock"' not in client.get("/lag/").content.decode()


def test_deadlines_follow_the_demo_clock(settings):
    # The team heat takes entries up to 4 Nov 2016 (the day before play on 5 Nov).
    win = windows.heat_windows(TeamHeatFactory())["entries"]
    settings.UBF_DEMO_DATE = "2016-11-04"
    assert windows.enforce(win, UserFactory()) is None
    DemoClock.objects.create(on=date(2016, 11, 5))
    with pytest.raises(ServiceError):
        windows.enforce(win, UserFactory())


def test_production_runs_on_the_real_date(settings):
    settings.UBF_DEMO_DATE = "2016-11-19"
    settings.UBF_CLOCK_OVERRIDE = "2016-11-19T10:00"
    settings.PRODUCTION = True
    assert clock.today() == timezone.localdate()
    assert clock.demo_date() is None


def test_production_refuses_a_demo_date():
    out = run_python(
        "import django; django.setup()",
        DEBUG="false",
        SECRET_KEY="x" * 60,
        ALLOWED_HOSTS="dm.example.se",
        DEMO_DATE="2016-11-19",
    )
    assert out.returncode != 0
    assert "DEMO_DATE" in out.stderr


def test_tk_moves_the_demo_clock_in_the_admin(settings, client):
    settings.UBF_DEMO_DATE = "2016-11-19"
    client.force_login(UserFactory(is_superuser=True, is_staff=True))
    response = client.post("/admin/clubs/democlock/add/", {"on": "2017-01-15"})
    assert response.status_code == 302
    assert clock.today() == date(2017, 1, 15)


def test_the_demo_clock_cannot_be_moved_outside_the_demo(client):
    client.force_login(UserFactory(is_superuser=True, is_staff=True))
    assert client.post("/admin/clubs/democlock/add/", {"on": "2017-01-15"}).status_code == 403
    assert not DemoClock.objects.exists()
