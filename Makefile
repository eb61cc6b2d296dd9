# Two commands for a new user: `make build` and `make test`. Both set up what they need first.
VENV := .venv
BIN := $(VENV)/bin
ARGS ?=

.PHONY: setup setup-test build check test test-full golden bench clean

setup:
	@bash scripts/setup.sh

# The tests also need a browser and Java (HTML validator); only they install those.
setup-test:
	@bash scripts/setup.sh --test

# A sample evening's kits (output/kit/): a Hindi Bunco night for twelve, a Bengali Tonk night for seven.
SAMPLE_BUNCO := आशा,बेन,क्लोए,देव,एमरे,फ़राह,गीता,हिरो,इनेस,जुन,किरण,लीना
SAMPLE_TONK := রিনা,সাম,তারিক,মেই,জো,আদে,নীলা

build: setup
	$(BIN)/rulesheets build $(ARGS)
	$(BIN)/rulesheets kit bunco --players "$(SAMPLE_BUNCO)" --locale hi --group "शुक्रवार क्लब" --date 2026-12-04
	$(BIN)/rulesheets kit tonk --players "$(SAMPLE_TONK)" --locale bn

check: setup
	$(BIN)/rulesheets check $(ARGS)

# Python and pytest keep their bytecode (and pytest its rewritten test modules) even where the environment
# says PYTHONDONTWRITEBYTECODE: each worker would otherwise compile them all again on every run.
PYTEST := env -u PYTHONDONTWRITEBYTECODE $(BIN)/python -m pytest

# The everyday loop: both cores, the exhaustive sweeps left out (under 3 minutes on 2 cores).
test: setup-test
	$(PYTEST) -q -n 2 --dist loadfile -m "not full" $(ARGS)

# Everything `make test` leaves out: every PDF of full builds, sweeps over house rules and sizes,
# the wheel in a fresh environment, signal injection, three PDF readers; and the costly property tests
# again at full strength (`make test` runs them with a fifth of their examples). CI runs it after `make test`.
test-full: setup-test
	HYPOTHESIS_PROFILE=full $(PYTEST) -q -n 2 --dist loadfile -m "full or hypothesis" $(ARGS)

# Regenerate the golden HTML snapshots after an intended change to the rendered HTML.
golden: setup
	$(BIN)/python -m tests.golden --update

bench: setup-test
	$(BIN)/python -m generator.dev.bench $(ARGS)

clean:
	rm -rf output .cache
