"""The API's Swagger UI works under the site's Content-Security-Policy (``script-src 'self'``,
no inline script): every script of /api/docs/ is a file, its start script included."""

import re

import pytest

pytestmark = pytest.mark.django_db


def test_swagger_ui_has_no_inline_script_and_its_start_script_is_served(client):
    response = client.get("/api/docs/")
    assert response.status_code == 200
    assert "script-src 'self'" in response["Content-Security-Policy"]
    html = response.content.decode()
    scripts = re.findall(r"<script([^>]*)>(.*?)</script>", html, flags=re.S)
    assert scripts
    assert all("src=" in attrs and not body.strip() for attrs, body in scripts), scripts
    start = next(a for a, _ in scripts if "script=" in a)
    url = re.search(r'src="([^"]+)"', start).group(1).replace("&amp;", "&")
    js = client.get(url)
    assert js.status_code == 200
    assert js["Content-Type"].startswith("application/javascript")
    assert "/api/schema/" in js.content.decode()
