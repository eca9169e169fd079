"""Routes made on the phone for the route pages' tests: recorded through the app's own modules
(the recorder engine, the IndexedDB route store and its queue, the passphrase keeper) in the
page, as the recording screen does, instead of hand-written records."""
import math

PASSPHRASE = "correct horse battery staple"

# Recorded the way the recording screen does it: every fix through the engine, each accepted
# one saved at once, a gap (the page hidden) as breakTrack, then stop, progress and finishRoute
# (sealed here and queued). Returns the local id.
RECORD = """async ({passphrase, start, tracks, gapSeconds}) => {
  const keeper = await import('/recorder/keeper.js');
  const routes = await import('/recorder/routes.js');
  const { RecorderEngine, defaultSettings, makeNonce } = await import('/recorder/engine.js');
  if ((await keeper.passphraseState()) !== 'kept') await keeper.adoptPassphrase(passphrase);
  const id = crypto.randomUUID();
  const nonce = makeNonce();
  const settings = { ...defaultSettings };
  const base = start - 1;
  const instant = (wall) => ({ uptime: wall - base, wall });
  const engine = new RecorderEngine({ settings, nonce, sourceIsLive: false, start: instant(start) });
  await routes.beginRoute({ id, nonce, settings, startedAt: start });
  const gaps = [];
  let time = start;
  for (let index = 0; index < tracks.length; index++) {
    if (index > 0) {
      engine.breakTrack(instant(time));
      gaps.push({ from: time, to: time + gapSeconds });
      time += gapSeconds;
    }
    for (const [latitude, longitude] of tracks[index]) {
      time += 1;
      const fix = { latitude, longitude, altitude: 40, accuracy: 5, time };
      const outcome = engine.handle({ fix }, instant(time));
      if (!outcome.accepted) throw new Error(`fix refused: ${JSON.stringify(outcome)}`);
      await routes.saveFix(id, outcome.accepted.track, fix);
    }
  }
  const route = engine.stop(instant(time + 1));
  await routes.saveProgress(id, {
    engine: engine.toState(), distance: engine.distance, elapsed: engine.elapsed(instant(time + 1)),
    trackCount: route.tracks.length, fixCount: route.tracks.reduce((sum, track) => sum + track.length, 0), gaps,
  });
  await routes.finishRoute(id, route, passphrase);
  return id;
}"""

# A route still being recorded (as a closed tab leaves it): begun, one fix saved, never finished.
BEGIN = """async ({start, fix}) => {
  const routes = await import('/recorder/routes.js');
  const { RecorderEngine, defaultSettings, makeNonce } = await import('/recorder/engine.js');
  const id = crypto.randomUUID();
  const nonce = makeNonce();
  const engine = new RecorderEngine({ settings: defaultSettings, nonce, sourceIsLive: false, start: { uptime: 1, wall: start } });
  await routes.beginRoute({ id, nonce, settings: { ...defaultSettings }, startedAt: start });
  const point = { latitude: fix[0], longitude: fix[1], altitude: null, accuracy: 5, time: start + 1 };
  const outcome = engine.handle({ fix: point }, { uptime: 2, wall: start + 1 });
  await routes.saveFix(id, outcome.accepted.track, point);
  await routes.saveProgress(id, { engine: engine.toState(), distance: 0, elapsed: 1, trackCount: 1, fixCount: 1, gaps: [] });
  return id;
}"""

# The server's answer to a signed GET of the route (with the phone's device key): 200 or 404.
SERVER_STATUS = """async (serverId) => {
  const keeper = await import('/recorder/keeper.js');
  const { signRequest } = await import('/app/api.js');
  const device = await keeper.deviceKey();
  if (!device) return 'no device key';
  const target = `/api/v1/routes/${serverId}`;
  const headers = await signRequest({ secret: device.secret, key: device.key, method: 'GET', target });
  const answer = await fetch(target, { headers });
  return answer.status;
}"""

LOCAL_ROUTE = """async (id) => {
  const routes = await import('/recorder/routes.js');
  const route = await routes.getRoute(id);
  return route && { status: route.status, serverRouteId: route.serverRouteId, distance: route.distance, tracks: route.tracks.length };
}"""

# What the queue keeps on a route the server refused for good (route-queue.js's lastError); made
# by hand here because a real refusal needs a broken server.
REFUSED = """async ({id, code, reason}) => {
  const { records } = await import('/app/store.js');
  const routes = records('routes');
  const route = await routes.get(id);
  await routes.put({ ...route, lastError: { status: 400, code, reason, permanent: true } });
}"""

SYNC_NOW = """async () => {
  const keeper = await import('/recorder/keeper.js');
  const routes = await import('/recorder/routes.js');
  await keeper.ensureDeviceKey();
  await routes.syncNow();
}"""


def walk(latitude, longitude, metres_north, metres_east, steps):
    """`steps` points from (latitude, longitude) towards the offset, evenly spaced."""
    points = []
    for step in range(1, steps + 1):
        f = step / steps
        points.append([latitude + metres_north * f / 111_320,
                       longitude + metres_east * f / (111_320 * math.cos(math.radians(latitude)))])
    return points


def record_route(page, start, tracks, gap_seconds=120):
    """Records a route on the phone (the page must be the app) and returns its local id."""
    return page.evaluate(RECORD, {"passphrase": PASSPHRASE, "start": start, "tracks": tracks, "gapSeconds": gap_seconds})


def begin_route(page, start, fix):
    """Leaves a route recording (unfinished) on the phone and returns its local id."""
    return page.evaluate(BEGIN, {"start": start, "fix": list(fix)})


def local_route(page, route_id):
    return page.evaluate(LOCAL_ROUTE, route_id)


def server_status(page, server_id):
    return page.evaluate(SERVER_STATUS, server_id)


def mark_refused(page, route_id, code, reason):
    """Marks the route as refused for good by the server with this error code and (English) reason."""
    page.evaluate(REFUSED, {"id": route_id, "code": code, "reason": reason})


def sync_now(page):
    page.evaluate(SYNC_NOW)


def long_press(page, locator, ms=700):
    """Holds the pointer on the middle of `locator` for `ms` and lets go."""
    locator.scroll_into_view_if_needed()
    box = locator.bounding_box()
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.down()
    page.wait_for_timeout(ms)
    page.mouse.up()


def press(page, locator):
    """Puts the pointer down on the middle of `locator` (and keeps it there)."""
    locator.scroll_into_view_if_needed()
    box = locator.bounding_box()
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.down()


def touch_long_press(phone, locator, ms=800):
    """A finger held on the middle of `locator` for `ms` (real touch events through the DevTools
    protocol, so the browser's own long-press handling, its context menu, takes part)."""
    page = phone.page
    locator.scroll_into_view_if_needed()
    box = locator.bounding_box()
    point = {"x": box["x"] + box["width"] / 2, "y": box["y"] + box["height"] / 2}
    session = phone.context.new_cdp_session(page)
    try:
        session.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [point]})
        page.wait_for_timeout(ms)
        session.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    finally:
        session.detach()
