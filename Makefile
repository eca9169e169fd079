# Waymark — the commands a newcomer needs.
#   make run    start the server and the web app with its embedded SQLite database in ./data on http://127.0.0.1:8080/
#               (ARGS="tag ~/Pictures/trip --track trip.gpx" runs another waymark command instead)
#   make test   install what is missing, build, run every test (in two lanes: scripts/test-lanes)
#   make bench  benchmarks side by side with reference tools; figures go to docs/BENCHMARKS.md

SWIFT ?= swift
WAYMARK_FIXTURES ?= $(abspath $(CURDIR)/../shared/fixtures)
export WAYMARK_FIXTURES
ARGS ?= serve --data ./data --host 127.0.0.1 --port 8080

.PHONY: bootstrap build release run test bench fuzz contract clean

bootstrap:
	@scripts/bootstrap

build: bootstrap
	$(SWIFT) build

release: bootstrap
	$(SWIFT) build -c release --product waymark
	$(SWIFT) build -c release --product waymark-load

# The service worker's manifest is written from Web/'s files first, so a phone gets what was just changed.
run: bootstrap
	node scripts/shell-version.mjs
	$(SWIFT) run waymark $(ARGS)

test: bootstrap
	@test -d "$(WAYMARK_FIXTURES)" || { echo "make test: the shared test files are missing at $(WAYMARK_FIXTURES); set WAYMARK_FIXTURES" >&2; exit 1; }
	$(SWIFT) build --build-tests
	SWIFT=$(SWIFT) scripts/test-lanes

bench: release
	scripts/bench

# Writes Web/app/contract.js from the API contract (Sources/WaymarkAPI/Contract/*.yaml); make test fails while it is stale.
contract: bootstrap
	WAYMARK_WRITE_CONTRACT=1 $(SWIFT) test --filter WebModuleTests

# libFuzzer over every track reader and the route envelope, ≥ 10⁶ inputs (not part of make test).
fuzz: bootstrap
	scripts/fuzz

clean:
	rm -rf .build
