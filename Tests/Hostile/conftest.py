"""Fixtures of the hostile-client suite (issue #34): a fresh real `waymark serve` per test
(`server`, `start_server(...)`) or per module (`module_server`), each on a free port with its own
data folder and, when DATABASE_URL is set, its own PostgreSQL database; stopped after its test or
module. A failing test's report ends with the logs of the servers that were running."""
import pytest

import hostile


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    report = outcome.get_result()
    if report.failed:
        for server in list(hostile.RUNNING):
            report.sections.append((f"{server.name} log (the last lines of {server.log})", server.log_text()))


@pytest.fixture
def start_server(tmp_path):
    """start_server(*extra, web=False): a started server with more `serve` arguments; each is
    stopped after the test."""
    started = []

    def start(*extra, web=False):
        server = hostile.Server(tmp_path / f"server{len(started) + 1}", extra=extra, web=web, name=f"server{len(started) + 1}")
        started.append(server)
        return server.start()

    yield start
    for server in started:
        server.stop()


@pytest.fixture
def server(start_server):
    """A fresh server for this test alone (the API without the web app)."""
    return start_server()


@pytest.fixture(scope="module")
def module_server(tmp_path_factory, request):
    """One server for the tests of a module that leave nothing behind that another would see."""
    server = hostile.Server(tmp_path_factory.mktemp(request.module.__name__), name=f"{request.module.__name__} server")
    try:
        yield server.start()
    finally:
        server.stop()


@pytest.fixture(scope="session")
def huge_png():
    """A 9,990 × 9,990 PNG of one colour: about 310 KB that decode to 300 MB of pixels."""
    return hostile.one_colour_png(9990, 9990)
