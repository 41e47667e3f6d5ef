# The two commands a newcomer needs: `make demo` and `make test`.
# Both create .venv and install what they need, so a fresh clone is enough.

PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-$(shell cat pyproject.toml | cksum | cut -d' ' -f1)

SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

# The firmware tests run MicroPython (WebAssembly) under Node: npm installs it from the lock file.
NPM_STAMP := firmware/tests/node_modules/.installed-$(shell cksum < firmware/tests/package-lock.json | cut -d' ' -f1)

.PHONY: demo test lint typecheck pytest venv clean firmware-deps firmware deploy-firmware bench browser

venv: $(STAMP)

$(STAMP): pyproject.toml
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	@rm -f $(VENV)/.installed-*
	@touch $@

firmware-deps: $(NPM_STAMP)

$(NPM_STAMP): firmware/tests/package-lock.json
	npm ci --prefix firmware/tests --no-audit --no-fund --loglevel=error
	@touch $@

# Compile every firmware file with mpy-cross, as deployed (fails on a compile error).
firmware: venv
	$(BIN)/python firmware/tools/deploy.py build --out firmware/build

# Copy the firmware and hardware/pinmap.json to the Pico (PORT=/dev/ttyACM0 to choose; stop the daemon first).
deploy-firmware: venv
	$(BIN)/python -m pip install --quiet -e '.[dev,pi]'
	$(BIN)/python firmware/tools/deploy.py deploy $(if $(PORT),--port $(PORT))

demo: venv
	$(BIN)/companion run --simulate

lint: venv
	$(BIN)/ruff check companion tests firmware/tools hardware
	$(BIN)/ruff format --check companion tests firmware/tools hardware

typecheck: venv
	$(BIN)/mypy --strict companion/games companion/sensors companion/sim/ringtoss companion/bench.py companion/vision \
		companion/web/teach.py companion/web/setup.py companion/web/claim.py companion/web/webapp.py \
		companion/web/i18n.py companion/web/state.py companion/web/game_texts.py companion/translations \
		companion/config.py companion/datafiles.py companion/words.py companion/device_words.py companion/progress.py \
		companion/club companion/web/club.py

# Debian packages the tests use, installed once when missing: the browser tests drive Debian's chromium
# through Playwright (never a downloaded browser); the collar test renders hardware/print/collar.scad; the club
# tests start a real Mosquitto broker.
SYSTEM_PACKAGES := /usr/bin/chromium:chromium /usr/bin/openscad:openscad /usr/sbin/mosquitto:mosquitto
browser:
	@missing="$(foreach p,$(SYSTEM_PACKAGES),$(if $(wildcard $(word 1,$(subst :, ,$(p)))),,$(word 2,$(subst :, ,$(p)))))"; \
	if [ -n "$$(echo $$missing)" ]; then \
		$(SUDO) apt-get update && $(SUDO) DEBIAN_FRONTEND=noninteractive apt-get install -y $$missing; fi

pytest: venv firmware-deps browser
	$(BIN)/python -m pytest -q

test: lint typecheck firmware pytest

# Figures, not pass or fail: the toss judge over 10,000 physically simulated tosses through each source, and
# 2,000 per tolerance case (about half an hour on two cores: each toss is a tenth of a second of physics).
bench: venv
	$(BIN)/companion bench toss --json

clean:
	rm -rf $(VENV) .mypy_cache .pytest_cache .ruff_cache
