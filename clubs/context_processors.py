"""Template context from the core: the demo's date for the banner on every page."""

from clubs import clock


def demo_clock(request):
    return {"demo_date": clock.demo_date()}
