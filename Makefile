# Two commands on a fresh machine: `make demo` and `make test`.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
PORT ?= 8000
STAMP := $(VENV)/.installed
# DEBUG defaults to off (production: SECRET_KEY, ALLOWED_HOSTS, collected static files). The
# demo and the developer's commands below turn it on explicitly; pytest does so in pyproject.
DEV := DEBUG=true

.PHONY: demo test install lint pytest migrate messages clean serve browser screenshots

$(STAMP): pyproject.toml
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

install: $(STAMP)

migrate: install
	mkdir -p var
	$(DEV) $(PY) manage.py migrate --noinput

# The demo season as of one day inside it: heats played and uploaded, a pair heat open for
# entries, heat registration open (Open), a team heat with its last day to play (its rosters
# open). `DEMO_DATE=2017-03-05 make demo` shows the team final after round 7 instead.
DEMO_DATE ?= 2016-11-18

demo: migrate
	$(DEV) DEMO_DATE=$(DEMO_DATE) $(PY) manage.py load_demo
	$(DEV) DEMO_DATE=$(DEMO_DATE) $(PY) manage.py runserver 127.0.0.1:$(PORT)

lint: install
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/lint-imports
	$(DEV) $(PY) manage.py makemigrations --check --dry-run

pytest: install
	$(VENV)/bin/pytest

test: lint pytest

# The browser tests (tests/browser, marker `browser`) drive Debian's Chromium through Playwright;
# Playwright's own browser downloads are not used. `make browser` installs Chromium when
# /usr/bin/chromium is missing (apt; as root, else with sudo) and runs those tests; without it
# `make test` skips them and says so.
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
browser: install
	test -x /usr/bin/chromium || DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y chromium \
	  || ($(SUDO) apt-get update && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y chromium)
	$(VENV)/bin/pytest -m browser tests/browser

# Recompile translations after editing locale/*/LC_MESSAGES/django.po (needs GNU gettext).
# Every public page of the demo at 390 px and 1280 px, at two demo dates, into docs/screenshots/
# (a throwaway database, runserver, Debian's Chromium: see tools/screenshots.py).
screenshots: install
	$(DEV) $(PY) tools/screenshots.py

messages: install
	$(DEV) $(PY) manage.py makemessages -l sv -l en --ignore='.venv/*' --ignore='var/*'
	$(DEV) $(PY) manage.py compilemessages --ignore='.venv/*'

clean:
	rm -rf $(VENV) var .pytest_cache .ruff_cache
