"""A signed-in person visits another site whose page posts a form to Waymark's API: the
browser sends the session cookie along (same site, another port), and the server must refuse."""
import pytest
from playwright.sync_api import expect

from conftest import StandIn, messages, serving, username
from flows import sign_up

ATTACKER_PAGE = """<!doctype html><meta charset="utf-8"><title>Win a prize</title>
<form id="f" method="POST" action="{target}" enctype="text/plain">
<input type="hidden" name='{{"name":"evil","x":"' value='"}}'>
</form>
<script>document.getElementById('f').submit();</script>
"""


@pytest.fixture
def attacker(server):
    """A page on another origin (127.0.0.1, another port: the same site, so SameSite=Lax still sends the cookie)."""
    html = ATTACKER_PAGE.format(target=f"{server.url}/api/v1/keys").encode()

    class Handler(StandIn):
        def do_GET(self):
            self.answer("text/html; charset=utf-8", html)

    with serving(Handler) as origin:
        yield origin + "/"


def test_a_form_posted_from_another_origin_is_refused(phone, attacker):
    page = phone.page
    page.goto("/account")
    assert sign_up(phone, "en", username("erin"), "correct horse battery", "Erin").status == 201
    expect(page.get_by_role("heading", level=1)).to_have_text(messages("en")["account.heading"])
    phone.shot("1-signed-in")

    with page.expect_response(lambda r: r.url.endswith("/api/v1/keys") and r.request.method == "POST") as posted:
        page.goto(attacker)
    answer = posted.value
    sent = answer.request.all_headers()
    assert "waymark_session=" in sent.get("cookie", ""), "the browser did not send the cookie: the test proves nothing"
    assert sent.get("origin") == attacker.rstrip("/")
    assert answer.status == 403, f"{answer.status} {answer.text()}"
    assert answer.json()["error"] == "cross_site_request"
    phone.shot("2-refused")

    keys = page.request.get(phone.url("/api/v1/keys"))
    assert keys.status == 200
    # The only key is the one this browser's recorder made for itself at sign-up.
    names = [key["name"] for key in keys.json()["items"]]
    assert all(name.startswith("Waymark web recorder") for name in names) and len(names) <= 1, \
        f"a key was created by the other site's form: {names}"
