"""docker-compose.yml parses and names the production services (no engine here to run it)."""

from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[2]


def test_compose_file_names_every_service():
    data = yaml.safe_load((ROOT / "docker-compose.yml").read_text())
    assert set(data["services"]) == {"postgres", "redis", "web", "worker", "beat"}
    assert "gunicorn ubf.wsgi" in data["services"]["web"]["command"]
    assert data["services"]["worker"]["command"].startswith("celery -A ubf worker")
    assert data["services"]["beat"]["command"].startswith("celery -A ubf beat")


def test_dockerfile_installs_the_project_and_serves_with_gunicorn():
    text = (ROOT / "Dockerfile").read_text()
    assert "pip install" in text
    assert "gunicorn" in text
