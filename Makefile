# Two commands for a new user: `make build` and `make test`. Both set up what they need first.
VENV := .venv
BIN := $(VENV)/bin
ARGS ?=

.PHONY: setup setup-test build check test golden bench clean

setup:
	@bash scripts/setup.sh

# The tests also need a browser and Java (HTML validator); only they install those.
setup-test:
	@bash scripts/setup.sh --test

build: setup
	$(BIN)/rulesheets build $(ARGS)

check: setup
	$(BIN)/rulesheets check $(ARGS)

test: setup-test
	$(BIN)/python -m pytest -q $(ARGS)

# Regenerate the golden HTML snapshots after an intended change to the rendered HTML.
golden: setup
	$(BIN)/python -m tests.golden --update

bench: setup
	$(BIN)/python -m generator.bench $(ARGS)

clean:
	rm -rf output .cache
