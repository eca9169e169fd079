"""Issue #33 points 1, 2 and 4: the bottom bar of four modules of the person's job and More, the
More sheet with every module, the first screen a newcomer meets, the job kept and changed in
Account, the bar following the account until a job is chosen, and status lines that cover no
control. On a 320 px and a 390 px phone, in English and German."""
import pytest
from playwright.sync_api import expect

from conftest import messages, username, wait_for_service_worker
from flows import sign_in
from test_tasks import make_officer, make_user
from photos_flows import PASSWORD

SIZES = {"320": {"width": 320, "height": 640}, "390": {"width": 390, "height": 844}}
PHONES = [(locale, width) for locale in ("en-US", "de-DE") for width in SIZES]
IDS = [f"{locale[:2]}-{width}" for locale, width in PHONES]

# What jobs.js says, as a user reads it: each job's bar, and every module the sheet lists.
BARS = {
    "photos": ["nav.home", "nav.map", "nav.upload", "nav.account"],
    "geotag": ["nav.record", "nav.routes", "nav.sky", "nav.account"],
    "scenes": ["nav.scenes", "nav.map", "nav.home", "nav.account"],
    "fieldwork": ["nav.tasks", "nav.inspection", "nav.paths", "nav.account"],
    "vault": ["nav.vault", "nav.record", "nav.routes", "nav.account"],
}
MODULES = [("nav.home", "nearby", "/"), ("nav.map", "map", "/map"), ("nav.upload", "upload", "/upload"),
           ("nav.record", "record", "/record"), ("nav.routes", "routes", "/routes"), ("nav.scenes", "scenes", "/scenes"),
           ("nav.tasks", "tasks", "/tasks"), ("nav.paths", "paths", "/paths"), ("nav.inspection", "inspection", "/inspection"),
           ("nav.sky", "sky", "/sky"), ("nav.vault", "vault", "/vault"), ("nav.settings", "settings", "/settings"),
           ("nav.account", "account", "/account")]


def phone_of(phone_for, locale, width, **options):
    size = SIZES[width]
    return phone_for(locale, viewport=size, screen=size, **options)


def bar(page, m):
    return page.get_by_role("navigation", name=m["nav.label"])


def expect_bar(page, m, job):
    """The bar shows `job`'s four modules and More, in order, each whole on the screen."""
    items = bar(page, m).locator(".app-bar-item")
    expect(items).to_have_text([m[key] for key in BARS[job]] + [m["nav.more"]])
    right = page.evaluate("innerWidth")
    for item in items.all():
        box = item.bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= right + 0.5, item.inner_text()
        label = item.locator(".app-bar-label")
        width, room = label.evaluate("span => [span.scrollWidth, span.parentElement.clientWidth]")
        assert width <= room, f"{label.inner_text()!r} needs {width} px of its item's {room}"


@pytest.mark.parametrize("locale,width", PHONES, ids=IDS)
def test_the_bar_and_the_more_sheet_fit_the_phone(phone_for, locale, width):
    """Four modules and More fit a 320 px phone in both languages; More lists every module with
    its icon and a line saying what it is for; a module chosen there opens, the sheet closes and
    More shows that the page is one of its own; Escape closes the sheet."""
    m = messages(locale[:2])
    phone = phone_of(phone_for, locale, width)
    page = phone.page
    page.goto("/")
    expect(page.get_by_role("link", name=m["nav.home"], exact=True)).to_have_attribute("aria-current", "page")
    expect_bar(page, m, "photos")
    # The bar stays at the bottom of the screen, below the page.
    box = bar(page, m).bounding_box()
    assert abs(box["y"] + box["height"] - SIZES[width]["height"]) <= 1, box
    phone.shot(f"bar-{locale}-{width}")

    more = bar(page, m).get_by_role("button", name=m["nav.more"])
    more.click()
    sheet = page.get_by_role("dialog", name=m["nav.more.heading"])
    expect(sheet).to_be_visible()
    links = sheet.get_by_role("link")
    expect(links).to_have_count(len(MODULES))
    for index, (name, module, path) in enumerate(MODULES):
        link = links.nth(index)
        expect(link).to_have_attribute("href", path)
        expect(link.locator(".module-name")).to_have_text(m[name])
        expect(link.locator(".module-line")).to_have_text(m[f"module.{module}.line"])
        expect(link.locator("svg")).to_have_count(1)
    phone.shot(f"more-sheet-{locale}-{width}")
    last = links.nth(len(MODULES) - 1)
    last.scroll_into_view_if_needed()
    box = last.bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= SIZES[width]["width"] + 0.5, box
    assert box["y"] + box["height"] <= SIZES[width]["height"] + 0.5, box

    sheet.get_by_role("link", name=m["nav.scenes"]).click()
    expect(page).to_have_url(phone.url("/scenes"))
    expect(sheet).to_be_hidden()
    expect(more).to_have_class("app-bar-item app-bar-more holds-current")
    expect(bar(page, m).get_by_role("link", name=m["nav.home"], exact=True)).not_to_have_attribute("aria-current", "page")

    more.click()
    expect(sheet).to_be_visible()
    expect(sheet.get_by_role("link", name=m["nav.scenes"])).to_have_attribute("aria-current", "page")
    page.keyboard.press("Escape")
    expect(sheet).to_be_hidden()
    expect(more).to_be_focused()


@pytest.mark.parametrize("locale,width", PHONES, ids=IDS)
def test_a_newcomer_chooses_a_job_on_the_first_screen(phone_for, locale, width):
    """A newcomer's `/` opens the first screen: what Waymark does and a card per job. A card
    opens its job's first module and the bar follows; the first screen does not come back."""
    m = messages(locale[:2])
    phone = phone_of(phone_for, locale, width, newcomer=True)
    page = phone.page
    page.goto("/")
    expect(page).to_have_url(phone.url("/welcome"))
    expect(page.locator("main h1")).to_have_text(m["welcome.heading"])
    expect(page.locator("main")).to_contain_text(m["welcome.what"])
    cards = page.get_by_role("region", name=m["welcome.question"]).get_by_role("link")
    expect(cards.locator(".job-name")).to_have_text([m[f"job.{job}.name"] for job in BARS])
    expect(cards.locator(".job-line")).to_have_text([m[f"job.{job}.line"] for job in BARS])
    expect(page.locator(".job-suggested:visible")).to_have_count(0)
    expect_bar(page, m, "photos")
    phone.shot(f"first-screen-{locale}-{width}")

    page.get_by_role("link", name=m["job.fieldwork.name"]).click()
    expect(page).to_have_url(phone.url("/tasks"))
    expect_bar(page, m, "fieldwork")
    expect(bar(page, m).get_by_role("link", name=m["nav.tasks"])).to_have_attribute("aria-current", "page")
    phone.shot(f"fieldwork-bar-{locale}-{width}")

    page.goto("/")
    expect(page).to_have_url(phone.url("/"))
    expect(page.locator("main h1")).to_have_text(m["home.heading"])
    expect_bar(page, m, "fieldwork")


@pytest.mark.parametrize("language", ["en", "de"])
def test_the_job_is_changed_in_account(phone_for, language):
    """Account lists the jobs with the one in use chosen; another choice redraws the bar at once,
    says so in a status line that covers no control of the bar, and is kept."""
    m = messages(language)
    phone = phone_for("en-US" if language == "en" else "de-DE")
    page = phone.page
    page.goto("/account")
    section = page.get_by_role("region", name=m["account.job.heading"])
    expect(section.get_by_role("radio", name=m["job.photos.name"])).to_be_checked()
    section.get_by_role("radio", name=m["job.scenes.name"]).check()
    expect_bar(page, m, "scenes")
    status = page.get_by_role("status").filter(has_text=m["account.job.saved"].replace("{job}", m["job.scenes.name"]))
    expect(status).to_be_visible()
    toast, strip = status.bounding_box(), bar(page, m).bounding_box()
    assert toast["y"] + toast["height"] <= strip["y"], (toast, strip)
    phone.shot(f"account-job-{language}")
    page.reload()
    expect_bar(page, m, "scenes")
    expect(page.get_by_role("region", name=m["account.job.heading"]).get_by_role("radio", name=m["job.scenes.name"])).to_be_checked()


def test_the_bar_follows_the_account_until_a_job_is_chosen(phone_for, api, tmp_path):
    """Before a job is chosen, an officer's bar leads with Tasks and Inspection, and so does the
    bar of a user who was given a task; the first screen marks that job as suggested. A choice
    wins over the suggestion."""
    m = messages("en")
    officer_name, farmer_name = username("otto"), username("fenna")
    make_officer(tmp_path, officer_name)
    make_user(api, farmer_name)

    officer = phone_for("en-US", newcomer=True)
    page = officer.page
    page.goto("/account")
    expect_bar(page, m, "photos")
    assert sign_in(officer, "en", officer_name, PASSWORD).status == 200
    expect_bar(page, m, "fieldwork")
    page.goto("/")
    expect(page).to_have_url(officer.url("/welcome"))
    suggested = page.locator(".job-card.suggested")
    expect(suggested).to_have_count(1)
    expect(suggested.locator(".job-name")).to_have_text(m["job.fieldwork.name"])
    expect(suggested.locator(".job-suggested")).to_have_text(m["job.suggested"])
    officer.shot("first-screen-officer")

    token = api.post("/api/v1/sessions", data={"username": officer_name, "password": PASSWORD}).json()["token"]
    created = api.post("/api/v1/tasks", headers={"Authorization": f"Bearer {token}"},
                       data={"assignee": farmer_name, "name": "Field 7 hedge", "instructions": "Photograph the hedge.", "dueDate": "2026-12-15"})
    assert created.status == 201, created.text()

    farmer = phone_for("en-US", newcomer=True)
    page = farmer.page
    page.goto("/account")
    assert sign_in(farmer, "en", farmer_name, PASSWORD).status == 200
    expect_bar(page, m, "fieldwork")
    page.get_by_role("region", name=m["account.job.heading"]).get_by_role("radio", name=m["job.geotag.name"]).check()
    expect_bar(page, m, "geotag")
    page.reload()
    expect_bar(page, m, "geotag")


COVERED_FIXED_CONTROLS = """(toast) => {
  const fixed = (element) => { for (let at = element; at; at = at.parentElement) if (getComputedStyle(at).position === 'fixed') return at; return null; };
  const status = document.getElementById('status');
  return [...document.querySelectorAll('button, a[href], input, select')].filter((control) => {
    const holder = fixed(control);
    if (!holder || holder === status || status.contains(control)) return false;
    const box = control.getBoundingClientRect();
    if (box.width === 0 || box.height === 0 || getComputedStyle(control).visibility === 'hidden') return false;
    return !(box.bottom <= toast.y || box.top >= toast.y + toast.height || box.right <= toast.x || box.left >= toast.x + toast.width);
  }).map((control) => control.textContent.trim() || control.getAttribute('aria-label'));
}"""


@pytest.mark.phone_origin
@pytest.mark.parametrize("locale,width", PHONES, ids=IDS)
def test_a_status_leaves_when_what_it_said_has_changed(phone_for, api, locale, width):
    """A route stopped offline: the status says it is sent when the phone is online, above the bar
    and clear of its controls. Once online and stored, that status leaves (it is no longer so)
    and the queue's own notice says the route is stored."""
    m = messages(locale[:2])
    name = username("rita")
    make_user(api, name)
    phone = phone_of(phone_for, locale, width, geolocation={"latitude": 48.1, "longitude": 11.5, "accuracy": 5})
    page = phone.page
    page.goto("/account")
    assert sign_in(phone, locale[:2], name, PASSWORD).status == 200
    # The app's files are kept on the phone before it goes offline.
    wait_for_service_worker(page)
    page.goto("/record")
    page.get_by_label(m["connection.passphrase"], exact=True).fill("a passphrase for the toast")
    page.get_by_role("button", name=m["connection.continue"]).click()
    page.get_by_role("button", name=m["record.start"], exact=True).click()
    expect(page.get_by_role("heading", level=1)).to_have_text(m["record.recording"])
    phone.context.set_offline(True)
    page.get_by_role("button", name=m["record.stop"]).click()
    status = page.locator("#status")
    expect(status).to_have_text(m["record.stopped"])
    toast, strip = status.bounding_box(), bar(page, m).bounding_box()
    assert toast["y"] + toast["height"] <= strip["y"], (toast, strip)
    # The controls that stay put while the page scrolls (the bar, floating buttons): the status
    # never lies over one of them. (The page's own content scrolls out from under it.)
    covered = page.evaluate(COVERED_FIXED_CONTROLS, toast)
    assert covered == [], f"the status covers {covered}"
    phone.shot(f"status-offline-{locale[:2]}-{width}")
    with page.expect_response(lambda r: r.url.endswith("/api/v1/routes") and r.request.method == "POST" and r.status in (200, 201)):
        phone.context.set_offline(False)
    expect(page.locator("#route-notice")).to_have_text(m["routes.stored.one"])
    expect(status).to_have_text("")
    phone.shot(f"status-stored-{locale[:2]}-{width}")
