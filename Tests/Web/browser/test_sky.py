"""The satellite sky (/sky, #15 point 6) on a phone, on the real server started with the four
CelesTrak fixture files (../shared/fixtures/tle/, epochs 2022-02-02…05): the plot and the table
show exactly the satellites GET /api/v1/sky gives for the phone's place and time, each dot where
its azimuth and elevation put it; the constellation chips narrow the list; old elements are
called old; German; a server without orbit data, and a phone without a position, say so."""
import math
import os
import re
from pathlib import Path
from urllib.parse import urlencode

import pytest
from playwright.sync_api import expect

from conftest import REPO, messages

# The server's database plays no part in what this checks: make test's PostgreSQL pass leaves it out.
pytestmark = pytest.mark.database_independent

FIXTURES = Path(os.environ["WAYMARK_FIXTURES"]) if os.environ.get("WAYMARK_FIXTURES") else REPO.parent / "shared" / "fixtures"
TLE = FIXTURES / "tle"
TLE_ARGS = [arg for name in ("gps-ops.txt", "galileo.txt", "glo-ops.txt", "beidou.txt") for arg in ("--tle", str(TLE / name))]
BERLIN = {"latitude": 52.52, "longitude": 13.405, "accuracy": 8}
WHEN = "2022-02-03T12:00:00Z"

with_orbits = pytest.mark.serve_args(*TLE_ARGS)


def sky(api, constellation="all", place=BERLIN, time=WHEN):
    query = {"latitude": place["latitude"], "longitude": place["longitude"], "constellation": constellation}
    if time:
        query["time"] = time
    answer = api.get("/api/v1/sky?" + urlencode(query))
    assert answer.status == 200, answer.text()
    return answer.json()


def shown_names(page):
    """The satellites the table lists, as the page wrote them (text_content keeps the names' double spaces)."""
    return [cell.text_content() for cell in page.locator(".sky-table .sky-name").all()]


def dots(page):
    """Every dot of the plot (name, centre) and the horizon ring, read back from the SVG."""
    return page.locator(".sky-plot").evaluate("""svg => ({
      horizon: (() => { const ring = svg.querySelector('circle[data-elevation="0"]');
        return { cx: Number(ring.getAttribute('cx')), cy: Number(ring.getAttribute('cy')), r: Number(ring.getAttribute('r')) }; })(),
      dots: [...svg.querySelectorAll('circle.sky-dot')].map((dot) => ({
        name: dot.getAttribute('data-name'), x: Number(dot.getAttribute('cx')), y: Number(dot.getAttribute('cy')),
        constellation: dot.closest('g').getAttribute('class').split(' ').find((c) => c.startsWith('sky-') && c !== 'sky-satellite').slice(4),
      })),
    })""")


def check_positions(plot, satellites):
    """Each dot sits where its azimuth and elevation put it: north up, east right, the distance
    from the centre (90° − elevation) / 90° of the horizon ring's radius."""
    horizon = plot["horizon"]
    by_name = {dot["name"]: dot for dot in plot["dots"]}
    assert len(by_name) == len(plot["dots"]), "one dot per satellite"
    for satellite in satellites:
        dot = by_name[satellite["name"]]
        distance = horizon["r"] * (90 - satellite["elevation"]) / 90
        azimuth = math.radians(satellite["azimuth"])
        expected = (horizon["cx"] + distance * math.sin(azimuth), horizon["cy"] - distance * math.cos(azimuth))
        error = math.hypot(dot["x"] - expected[0], dot["y"] - expected[1])
        assert error < 0.01 * horizon["r"] / 100 + 0.002, f"{satellite['name']} (az {satellite['azimuth']:.2f}, el {satellite['elevation']:.2f}) drawn at {dot}, expected {expected}"
        assert dot["constellation"] == satellite["constellation"], satellite["name"]


def chips_in_one_row(page):
    """The five constellation chips fit one row of a 390 px phone, above the plot."""
    tops = {round(chip.bounding_box()["y"]) for chip in page.locator(".sky-choice label").all()}
    assert len(tops) == 1, f"the chips wrap: {tops}"


def open_sky(phone, path):
    page = phone.page
    page.goto(path)
    expect(page.locator(".sky-table")).to_be_visible()
    return page


@with_orbits
def test_the_sky_shows_what_the_server_computes_and_narrows_to_gps(phone_for, api):
    en = messages("en")
    phone = phone_for("en-US", geolocation=BERLIN)
    page = open_sky(phone, f"/sky?time={WHEN}")
    expected = sky(api)["satellites"]
    assert len(expected) > 20, "the fixture data has satellites over Berlin at noon"
    counts = {c: sum(1 for s in expected if s["constellation"] == c) for c in ("gps", "galileo", "glonass", "beidou")}
    assert all(counts.values()), counts

    expect(page.locator("main h1")).to_have_text(en["sky.title"])
    expect(page.locator(".sky-summary")).to_have_text(en["sky.count"].replace("{count}", str(len(expected))))
    expect(page.locator(".sky-where")).to_contain_text("52.5200° N, 13.4050° E")
    expect(page.locator(".sky-where")).to_contain_text("Feb 3, 2022, 1:00:00 PM")  # noon UTC on a Berlin phone
    assert shown_names(page) == [s["name"] for s in expected], "the table lists the server's satellites, highest first"
    plot = dots(page)
    assert sorted(dot["name"] for dot in plot["dots"]) == sorted(s["name"] for s in expected)
    check_positions(plot, expected)
    for constellation, count in counts.items():
        expect(page.locator(f".sky-counts .sky-{constellation}")).to_have_text(f"{en['sky.' + constellation]} {count}")
    expect(page.locator(".sky-message .warning")).to_have_count(0)  # elements a day old are fine
    # The first row: the short label, the name, azimuth and elevation as a person reads them.
    first = expected[0]
    cells = page.locator(".sky-table tbody tr").first.locator("td")
    expect(cells.nth(2)).to_have_text(f"{first['azimuth']:.1f}°")
    expect(cells.nth(3)).to_have_text(f"{first['elevation']:.1f}°")
    # Legible on a 390 px phone: the plot fills the width, the labels are at least 10 px high.
    box = page.locator(".sky-plot").bounding_box()
    assert box["width"] >= 300 and box["x"] >= 0 and box["x"] + box["width"] <= 390, box
    heights = page.locator(".sky-label").evaluate_all("labels => labels.map((label) => label.getBoundingClientRect().height)")
    assert len(heights) == len(expected) and min(heights) >= 10, heights[:5]
    chips_in_one_row(page)
    # 54 labels on a 390 px phone: most stay clear of each other (without placing them, a
    # third of them ran into another).
    overlaps = page.locator(".sky-plot").evaluate("""svg => {
      const boxes = [...svg.querySelectorAll('.sky-label')].map((label) => label.getBBox());
      let count = 0;
      boxes.forEach((a, i) => boxes.slice(i + 1).forEach((b) => {
        if (Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x) > 0.5 && Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y) > 0.5) count += 1;
      }));
      return count;
    }""")
    assert overlaps <= len(expected) / 5, f"{overlaps} of {len(expected)} labels run into another"
    phone.shot("all")

    page.get_by_role("radio", name=en["sky.gps"]).check()
    gps = sky(api, "gps")["satellites"]
    assert len(gps) == counts["gps"]
    expect(page.locator(".sky-summary")).to_have_text(en["sky.count"].replace("{count}", str(len(gps))))
    assert shown_names(page) == [s["name"] for s in gps]
    plot = dots(page)
    assert {dot["constellation"] for dot in plot["dots"]} == {"gps"}
    check_positions(plot, gps)
    assert [label.text_content() for label in page.locator(".sky-label").all()] == [re.sub(r".*\(PRN (\d+)\)\s*$", r"G\1", s["name"]) for s in gps]
    expect(page.locator(".sky-counts li")).to_have_count(1)
    assert "constellation=gps" in page.url, "the choice stays in the address"
    # With few dots, no label covers another.
    boxes = page.locator(".sky-label").evaluate_all("labels => labels.map((label) => { const b = label.getBoundingClientRect(); return [b.left, b.top, b.right, b.bottom]; })")
    for i, a in enumerate(boxes):
        for b in boxes[i + 1:]:
            assert min(a[2], b[2]) - max(a[0], b[0]) <= 1 or min(a[3], b[3]) - max(a[1], b[1]) <= 1, f"labels overlap: {a} {b}"
    phone.shot("gps")

    # A reload keeps GPS only.
    page.reload()
    expect(page.get_by_role("radio", name=en["sky.gps"])).to_be_checked()
    expect(page.locator(".sky-table tbody tr")).to_have_count(len(gps))


@with_orbits
def test_now_with_2022_elements_warns_and_refreshes_every_30_seconds(phone_for, api):
    en = messages("en")
    phone = phone_for("en-US", geolocation=BERLIN)
    page = phone.page
    page.clock.install()
    asked = []
    page.on("request", lambda request: asked.append(request.url) if "/api/v1/sky" in request.url else None)
    page.goto("/sky")
    expect(page.locator(".sky-table")).to_be_visible()
    warning = page.locator(".sky-message .warning")
    before, after = en["sky.old"].split("{days}")
    expect(warning).to_have_text(re.compile("^" + re.escape(before) + r"[\d,]+" + re.escape(after) + "$"))
    days = int(re.search(r"[\d,]+", warning.inner_text()).group().replace(",", ""))
    assert days > 1000, f"elements of February 2022 are years old now, not {days} days"
    assert all("time=" not in url for url in asked), "now is the server's now"
    expect(page.locator(".sky-where")).to_contain_text("now")
    phone.shot("old")
    assert len(asked) == 1, asked
    # The page's clock also runs on in real time (a second or two for the checks above).
    page.clock.run_for(25_000)
    page.wait_for_timeout(300)
    assert len(asked) == 1, "not before 30 s"
    page.clock.run_for(6_000)
    for _ in range(50):
        if len(asked) >= 2:
            break
        page.wait_for_timeout(100)
    assert len(asked) == 2, f"a second look after 30 s: {asked}"


@with_orbits
def test_a_fixed_time_is_not_refreshed(phone_for):
    phone = phone_for("en-US", geolocation=BERLIN)
    page = phone.page
    page.clock.install()
    asked = []
    page.on("request", lambda request: asked.append(request.url) if "/api/v1/sky" in request.url else None)
    open_sky(phone, f"/sky?time={WHEN}")
    page.clock.run_for(95_000)
    page.wait_for_timeout(500)
    assert len(asked) == 1, asked
    assert "time=2022-02-03T12%3A00%3A00.000Z" in asked[0], asked[0]


@with_orbits
def test_the_german_sky(phone_for, api):
    de = messages("de")
    phone = phone_for("de-DE", geolocation=BERLIN)
    page = open_sky(phone, f"/sky?time={WHEN}&constellation=galileo")
    galileo = sky(api, "galileo")["satellites"]
    expect(page.locator("main h1")).to_have_text(de["sky.title"])
    expect(page.locator("main .lead")).to_have_text(de["sky.lead"])
    expect(page.get_by_role("radio", name=de["sky.all"])).not_to_be_checked()
    expect(page.get_by_role("radio", name=de["sky.galileo"])).to_be_checked()
    expect(page.locator(".sky-summary")).to_have_text(de["sky.count"].replace("{count}", str(len(galileo))))
    expect(page.locator(".sky-where")).to_contain_text("52,5200° N, 13,4050° O")
    expect(page.locator(".sky-where")).to_contain_text("03.02.2022, 13:00:00")
    headers = [cell.inner_text() for cell in page.locator(".sky-table th").all()]
    assert headers == [de["sky.label"], de["sky.name"], de["sky.azimuth"], de["sky.elevation"]]
    assert shown_names(page) == [s["name"] for s in galileo]
    for row, satellite in zip(page.locator(".sky-table tbody tr").all(), galileo):
        azimuth, elevation = (row.locator("td").nth(n).inner_text() for n in (2, 3))
        assert re.fullmatch(r"\d+(\.\d{3})*,\d°", azimuth) and re.fullmatch(r"\d+,\d°", elevation), (azimuth, elevation)
        assert abs(float(azimuth[:-1].replace(".", "").replace(",", ".")) - satellite["azimuth"]) <= 0.05
        assert abs(float(elevation[:-1].replace(",", ".")) - satellite["elevation"]) <= 0.05
    chips_in_one_row(page)
    compass = [text.text_content() for text in page.locator(".sky-compass").all()]
    assert compass == ["N", "O", "S", "W"], compass
    phone.shot("de")


def test_a_server_without_orbit_data_says_so(phone_for, api):
    en = messages("en")
    answer = api.get("/api/v1/sky?latitude=52.52&longitude=13.405")
    assert answer.status == 404 and answer.json()["error"] == "no_orbit_data"
    # No permission to read the position either: a server without orbit data is no reason to ask for it.
    phone = phone_for("en-US")
    page = phone.page
    # Reached from the settings, as a person finds it.
    page.goto("/settings")
    page.get_by_role("link", name=en["settings.toSky"]).click()
    expect(page.locator("main h1")).to_have_text(en["sky.title"])
    expect(page.locator(".sky-message .form-error")).to_have_text(en["sky.noData"])
    expect(page.locator(".sky-figure")).to_be_hidden()
    expect(page.locator(".sky-table")).to_be_hidden()
    expect(page.locator(".sky-choices")).to_be_hidden()
    expect(page.get_by_text(en["position.denied"])).to_have_count(0)
    phone.shot("no-data")


@with_orbits
def test_without_a_position_the_page_says_so_and_takes_one_from_the_address(phone_for, api):
    en = messages("en")
    phone = phone_for("en-US")  # no permission to read the position
    page = phone.page
    page.goto("/sky")
    expect(page.locator(".sky-message .form-error")).to_have_text(en["position.denied"])
    expect(page.locator(".sky-message .hint")).to_have_text(en["sky.noPosition"])
    expect(page.locator(".sky-figure")).to_be_hidden()
    phone.shot("no-position")
    # Sydney, given in the address instead.
    sydney = {"latitude": -33.87, "longitude": 151.21}
    page.goto(f"/sky?latitude=-33.87&longitude=151.21&time={WHEN}")
    expect(page.locator(".sky-where")).to_contain_text("33.8700° S, 151.2100° E")
    assert shown_names(page) == [s["name"] for s in sky(api, place=sydney)["satellites"]]
    page.goto("/sky?latitude=95&longitude=0")
    expect(page.locator(".sky-message .form-error")).to_have_text(en["sky.badPlace"])
    page.goto("/sky?latitude=1&longitude=2&time=tomorrow")
    expect(page.locator(".sky-message .form-error")).to_have_text(en["sky.badTime"])


def test_an_older_server_that_does_not_tell_in_its_configuration(phone_for):
    """Without `sky` in GET /api/v1/config the page asks for the sky anyway, and the server's
    404 no_orbit_data still reads as "no orbit data"."""
    en = messages("en")
    phone = phone_for("en-US", geolocation=BERLIN)
    page = phone.page

    def without_sky(route):
        answer = route.fetch()
        config = answer.json()
        config.pop("sky", None)
        route.fulfill(response=answer, json=config)

    page.route("**/api/v1/config", without_sky)
    page.goto("/sky")
    expect(page.locator(".sky-message .form-error")).to_have_text(en["sky.noData"])
    expect(page.locator(".sky-figure")).to_be_hidden()
