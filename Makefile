# Waymark — the commands a newcomer needs.
#   make run    start the server and the web app with its embedded SQLite database in ./data on http://127.0.0.1:8080/
#               (ARGS="tag ~/Pictures/trip --track trip.gpx" runs another waymark command instead)
#   make test   install what is missing, build, run every test
#   make bench  benchmarks side by side with reference tools; figures go to docs/BENCHMARKS.md

SWIFT ?= swift
WAYMARK_FIXTURES ?= $(abspath $(CURDIR)/../shared/fixtures)
export WAYMARK_FIXTURES
ARGS ?= serve --data ./data --host 127.0.0.1 --port 8080
# Tests that pace themselves on the wall clock (gpsfake, replays, tmux, a recorder or server killed mid-way) run on
# their own: next to tests that block the cooperative pool for seconds (exiftool, SIGKILL loops) they starve.
REALTIME_TESTS = WaymarkRecorderTests|RecordTerminal|RecordCrash|UploadFault

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
	@echo "== every test but the recorder's real-time ones, the route service on SQLite"
	$(SWIFT) test --skip-build --skip '$(REALTIME_TESTS)'
	@echo "== the recorder against real time (gpsd, replays, a terminal, SIGKILL), apart from the busy tests above"
	$(SWIFT) test --skip-build --filter '$(REALTIME_TESTS)'
	@echo "== the route service's tests again, on a throwaway PostgreSQL (their PostgreSQL cases only)"
	WAYMARK_REQUIRE_POSTGRES=1 WAYMARK_TEST_DATABASES=postgres scripts/with-postgres $(SWIFT) test --skip-build --filter 'WaymarkServerTests|ServeEndToEnd|UsersCommand|PhotosCommand|TasksCommand|VerifyReceipt'
	@echo "== the running server against its OpenAPI document (schemathesis), SQLite then PostgreSQL"
	scripts/api-check
	scripts/with-postgres scripts/api-check
	@echo "== hostile clients (Tests/Hostile), SQLite then PostgreSQL"
	scripts/hostile-check
	scripts/with-postgres scripts/hostile-check
	@echo "== the web app: types, node --test, and Playwright in Chromium against the real server on SQLite; then Playwright again on PostgreSQL"
	scripts/web-check
	WEB_CHECK_BROWSER_ONLY=1 scripts/with-postgres scripts/web-check

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
