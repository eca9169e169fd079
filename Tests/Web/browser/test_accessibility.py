"""Issue #33 point 5: every page of the app, in English and German, in light and dark mode, on a
320 px and a 390 px phone, passes axe-core (Deque's rules, axe-playwright-python pinned in
scripts/python-tools.txt) with no serious or critical violation; and a person with a keyboard
alone can sign in, upload a photo, record a route and finish a task."""
import json
import re

import pytest
from playwright.sync_api import expect
from axe_playwright_python.sync_playwright import Axe

from conftest import WEB, messages, username
from flows import sign_in
from photos_flows import PASSWORD, here, make_jpeg, upload_through_api
from test_scenes import create_scene
from test_tasks import hand_out_task, make_user

# The server's database plays no part in what these check: make test's PostgreSQL pass leaves them out.
pytestmark = pytest.mark.database_independent

PAGES = [page["path"] for page in json.loads((WEB / "app" / "pages.json").read_text())]
SIZES = {"320": {"width": 320, "height": 640}, "390": {"width": 390, "height": 844}}
# What a person with a screen reader or low vision cannot get past; "moderate" and "minor" are
# reported in the failure text too but do not fail the run.
BLOCKING = {"serious", "critical"}
AXE = Axe()
# No preload: axe would fetch the style sheets again to read them (for its orientation-lock rule)
# and resolves their @import against the page rather than the sheet.
OPTIONS = {"resultTypes": ["violations"], "preload": False}


def shot_name(path):
    return re.sub(r"[^a-z0-9]+", "-", path.lower()).strip("-") or "home"


def blocking(results):
    """The serious and critical violations of one axe run, each with where it is."""
    found = []
    for violation in results.response["violations"]:
        if violation["impact"] not in BLOCKING:
            continue
        for node in violation["nodes"]:
            found.append(f"{violation['id']} ({violation['impact']}): {violation['help']} at {node['target']}: {node.get('failureSummary', '')}")
    return found


def audit(phone):
    """axe's results for the page as it is. axe sets style attributes on the page while it
    measures, which the app's CSP refuses and the browser logs; those refusals are axe's, not the
    app's, and are not counted as the app's problems."""
    before = len(phone.problems)
    results = AXE.run(phone.page, options=OPTIONS)
    phone.problems[before:] = [problem for problem in phone.problems[before:] if "Applying inline style violates" not in problem]
    return results


def record(found, where, results, phone, step):
    """Adds `where`'s blocking violations to `found`, with a screenshot of the page that has them."""
    problems = blocking(results)
    if problems:
        phone.shot(step)
        found[where] = problems


def world(api, tmp_path):
    """A user with a photo, a scene and a task an officer gave them: the pages of one thing have
    something to show. Returns the user's name and the paths of those pages."""
    user_name = username("ulla")
    token = make_user(api, user_name)
    photo = upload_through_api(api, token, make_jpeg(tmp_path), "Gate at dawn", here())
    scene = create_scene(api, token, make_jpeg(tmp_path, "reference.jpg"), make_jpeg(tmp_path, "feet.jpg", "640x480"), here(),
                         "2026-12-01T08:00:00Z", name="Old mill")
    task_id = hand_out_task(api, tmp_path, user_name)
    ids = {"/photos/:id": photo["id"], "/scenes/:id": scene["id"], "/scenes/:id/retake": scene["id"],
           "/tasks/:id": task_id, "/tasks/:id/camera": task_id}
    # A route and a vault module live on the phone and in the vault: their pages are met here as a
    # person meets an unknown one, with the page's own "not found".
    unknown = "00000000-0000-4000-8000-000000000000"
    return user_name, [path.replace(":id", str(ids.get(path, unknown))) for path in PAGES]


SIGN_IN = """async ([username, password]) => (await fetch('/api/v1/sessions', { method: 'POST',
  headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ username, password }) })).status"""


def sign_in_by_fetch(page, user_name):
    """Signs the page in as the app does (a session cookie), through the page's own fetch: the
    phone's name (phone.test) is known only to the browser."""
    return page.evaluate(SIGN_IN, [user_name, PASSWORD])


@pytest.mark.phone_origin
@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("locale", ["en-US", "de-DE"])
def test_every_page_passes_axe(phone_for, api, tmp_path, locale, scheme):
    m = messages(locale[:2])
    user_name, paths = world(api, tmp_path)
    found = {}
    for width, size in SIZES.items():
        phone = phone_for(locale, viewport=size, screen=size, color_scheme=scheme)
        page = phone.page
        for signed_in in (False, True):
            if signed_in:
                assert sign_in_by_fetch(page, user_name) == 200
            for path in paths:
                page.goto(path)
                expect(page.locator("main h1")).to_have_count(1)
                expect(page.locator("main#main")).not_to_have_attribute("aria-busy", "true")
                where = f"{path} ({width} px, {'signed in' if signed_in else 'signed out'})"
                record(found, where, audit(phone), phone, f"{shot_name(path)}-{width}-{'in' if signed_in else 'out'}")
        # The More sheet open over a page, and a refused sign-in with its error shown.
        page.goto("/account")
        page.get_by_role("button", name=m["nav.more"]).click()
        expect(page.get_by_role("dialog")).to_be_visible()
        record(found, f"the More sheet ({width} px)", audit(phone), phone, f"more-{width}")
        page.keyboard.press("Escape")
        assert page.evaluate("fetch('/api/v1/sessions/current', { method: 'DELETE' }).then((answer) => answer.status)") in (200, 204)
        page.goto("/account")
        sign_in(phone, locale[:2], user_name, "not the password")
        expect(page.locator("#sign-in-form .form-error")).to_be_visible()
        record(found, f"a refused sign-in ({width} px)", audit(phone), phone, f"refused-{width}")
    assert found == {}, "\n".join(f"{where}:\n  " + "\n  ".join(problems) for where, problems in found.items())


def test_axe_finds_what_a_person_would_stumble_on(phone):
    """The check above can fail: on a page given an image without words, a button without a
    name and grey text on grey, axe reports each as serious or critical."""
    page = phone.page
    page.goto("/")
    expect(page.locator("main h1")).to_have_count(1)
    page.evaluate("""() => {
      const main = document.querySelector('main');
      const image = document.createElement('img');
      image.src = '/icons/icon-192.png';
      const button = document.createElement('button');
      const faint = document.createElement('p');
      faint.textContent = 'Hard to read';
      faint.className = 'axe-self-check';
      main.append(image, button, faint);
      const sheet = new CSSStyleSheet();
      sheet.replaceSync('.axe-self-check { color: #bbb; background: #ccc; }');
      document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet];
    }""")
    rules = {problem.split(" ", 1)[0] for problem in blocking(audit(phone))}
    assert {"image-alt", "button-name", "color-contrast"} <= rules, rules


FOCUSED = """(element) => element === document.activeElement"""
# What the focused control looks like: the app's focus ring (app.css) is an outline.
RING = """() => {
  const element = document.activeElement;
  // The heading the router focuses on a new page is no Tab stop and draws no ring on purpose.
  if (!element || element === document.body || element.tabIndex < 0) return null;
  const style = getComputedStyle(element);
  return { visible: element.matches(':focus-visible'), outline: style.outlineStyle, width: parseFloat(style.outlineWidth),
           label: element.getAttribute('aria-label') || element.textContent.trim().slice(0, 40) || element.id || element.tagName };
}"""


def arrive(page, heading):
    """A new page is shown: its heading says `heading` and has the focus (the router puts it there,
    so a screen reader announces the page and the keyboard starts from it)."""
    h1 = page.get_by_role("heading", level=1)
    expect(h1).to_have_text(heading)
    expect(h1).to_be_focused()


def tab_to(page, target, limit=80):
    """Presses Tab, as a keyboard user does, until `target` has the focus; every control passed on
    the way shows the focus ring. Fails when `target` is not reached within `limit` presses."""
    for _ in range(limit):
        page.keyboard.press("Tab")
        ring = page.evaluate(RING)
        if ring is not None:
            assert ring["visible"] and ring["outline"] != "none" and ring["width"] >= 2, f"no visible focus ring on {ring}"
        if target.evaluate(FOCUSED):
            return
    raise AssertionError(f"{target} is not reached with the Tab key in {limit} presses")


@pytest.mark.phone_origin
@pytest.mark.parametrize("locale,width", [(locale, width) for locale in ("en-US", "de-DE") for width in SIZES],
                         ids=[f"{locale[:2]}-{width}" for locale in ("en", "de") for width in SIZES])
def test_sign_in_upload_record_and_a_task_with_the_keyboard_alone(phone_for, api, tmp_path, locale, width):
    """A person who uses no pointer: Tab moves from control to control with a visible ring,
    Enter and Space do what a tap does, and the file chooser opens from the keyboard."""
    m = messages(locale[:2])
    user_name = username("kim")
    make_user(api, user_name)
    task_id = hand_out_task(api, tmp_path, user_name)
    size = SIZES[width]
    phone = phone_for(locale, geolocation=here(), viewport=size, screen=size)
    page = phone.page
    # Playwright turns on the interception of file choosers when a page first listens for one,
    # without waiting for the browser to confirm: listening from the start means it is on long
    # before the first chooser opens (else, on a loaded machine, one opened before it was on).
    page.on("filechooser", lambda chooser: None)

    # Sign in: the fields by Tab, the form sent with Enter.
    page.goto("/account")
    form = page.locator("#sign-in-form")
    tab_to(page, form.get_by_label(m["field.username"]))
    page.keyboard.type(user_name)
    tab_to(page, form.get_by_label(m["field.password"], exact=True), limit=3)
    page.keyboard.type(PASSWORD)
    with page.expect_response(lambda r: r.url.endswith("/api/v1/sessions") and r.request.method == "POST") as answer:
        page.keyboard.press("Enter")
    assert answer.value.status == 200
    expect(page.locator("dl.facts").first).to_contain_text(user_name)
    phone.shot("keyboard-1-signed-in")

    # Upload: the bar's Upload by Tab and Enter, the photo chosen with Space, sent with Enter.
    tab_to(page, page.get_by_role("navigation", name=m["nav.label"]).get_by_role("link", name=m["nav.upload"], exact=True), limit=120)
    page.keyboard.press("Enter")
    arrive(page, m["upload.heading"])
    expect(page.locator(".position-line")).to_contain_text(m["upload.positionFound"].split("{")[0].strip())
    tab_to(page, page.get_by_label(m["upload.take"]))
    with page.expect_file_chooser() as chooser:
        page.keyboard.press("Space")
    chooser.value.set_files(str(make_jpeg(tmp_path)))
    expect(page.get_by_role("img", name=m["upload.previewAlt"])).to_be_visible()
    tab_to(page, page.get_by_label(m["upload.title"], exact=True))
    page.keyboard.type("Hedge by keyboard")
    tab_to(page, page.get_by_role("button", name=m["upload.submit"], exact=True))
    with page.expect_response(lambda r: r.url.endswith("/api/v1/photos") and r.request.method == "POST") as posted:
        page.keyboard.press("Enter")
    assert posted.value.status == 201, posted.value.text()
    expect(page.get_by_role("status")).to_have_text(m["upload.status.sent"].replace("{title}", "Hedge by keyboard"))
    phone.shot("keyboard-2-uploaded")

    # Record: the passphrase typed, Continue and Start with Enter, Stop with Space.
    page.goto("/record")
    expect(page.get_by_role("heading", level=1)).to_have_text(m["connection.heading"])
    tab_to(page, page.get_by_label(m["connection.passphrase"], exact=True))
    page.keyboard.type("a passphrase typed by hand")
    tab_to(page, page.get_by_role("button", name=m["connection.continue"]))
    page.keyboard.press("Enter")
    expect(page.get_by_role("heading", level=1)).to_have_text(m["record.heading"])
    tab_to(page, page.get_by_role("button", name=m["record.start"], exact=True))
    page.keyboard.press("Enter")
    expect(page.get_by_role("heading", level=1)).to_have_text(m["record.recording"])
    phone.shot("keyboard-3-recording")
    tab_to(page, page.get_by_role("button", name=m["record.stop"]))
    page.keyboard.press("Space")
    expect(page).to_have_url(re.compile(r"/routes/[0-9a-f-]+$"), timeout=30000)

    # A task: opened from the list, a note typed and saved, a photo added, sent; the question
    # before sending answered with Enter.
    page.goto("/tasks")
    tab_to(page, page.locator(f".task-item[data-id='{task_id}']").get_by_role("link", name="Field 7 hedge"))
    page.keyboard.press("Enter")
    arrive(page, "Field 7 hedge")
    tab_to(page, page.get_by_label(m["task.note"], exact=True))
    page.keyboard.type("Hedge trimmed.")
    tab_to(page, page.get_by_role("button", name=m["task.note.save"]))
    save = page.get_by_role("button", name=m["task.note.save"])
    with page.expect_response(lambda r: r.url.endswith(f"/api/v1/tasks/{task_id}") and r.request.method == "PATCH" and r.status == 200):
        page.keyboard.press("Enter")
    # The task is drawn again with the saved note; the keyboard stays where it was.
    expect(save).to_be_enabled()
    expect(save).to_be_focused()
    tab_to(page, page.get_by_text(m["task.photo.add"], exact=True).locator("..").locator("input[type=file]"))
    with page.expect_file_chooser() as chooser:
        page.keyboard.press("Space")
    with page.expect_response(lambda r: "/photos" in r.url and r.request.method == "POST" and r.status == 201):
        chooser.value.set_files(str(make_jpeg(tmp_path, "hedge.jpg", "640x480")))
    expect(page.locator(".task-photo img")).to_have_count(1)
    tab_to(page, page.get_by_role("button", name=m["task.send"], exact=True))
    page.once("dialog", lambda dialog: dialog.accept())
    with page.expect_response(lambda r: r.url.endswith("/send") and r.status == 200):
        page.keyboard.press("Enter")
    expect(page.locator(".task-facts .task-status")).to_contain_text(m["tasks.status.data_provided"])
    phone.shot("keyboard-4-task-sent")
