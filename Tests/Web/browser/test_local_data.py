"""Issue #33 point 6: the app keeps everything in one IndexedDB database (`waymark`, opened by
Web/app/store.js alone). A phone that still has the tasks' and the field paths' databases of
before (`waymark-tasks`, `waymark-paths`) loses nothing: a note waiting for the network and an
unsent walk are moved into it, sent as soon as their pages open, and the old databases are gone."""
from playwright.sync_api import expect

from conftest import messages, username
from test_accessibility import sign_in_by_fetch
from test_tasks import hand_out_task, make_user

# The app's databases as version 4 of `waymark` and the tasks' and paths' own kept them, with a
# note for a task and a walked field, both waiting for the network.
OLD_DATABASES = """async ({taskId, now}) => {
  const make = (name, version, stores) => new Promise((resolve, reject) => {
    const request = indexedDB.open(name, version);
    request.onupgradeneeded = () => { for (const store of stores) request.result.createObjectStore(store, { keyPath: 'id' }); };
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
  const put = (db, store, record) => new Promise((resolve, reject) => {
    const tx = db.transaction(store, 'readwrite');
    tx.objectStore(store).put(record);
    tx.oncomplete = resolve;
    tx.onerror = () => reject(tx.error);
  });
  const main = await make('waymark', 4, ['uploads', 'routes', 'routeDeletes', 'keeper', 'vault', 'sceneOutbox']);
  main.close();
  const tasks = await make('waymark-tasks', 1, ['outbox', 'tasks']);
  await put(tasks, 'outbox', { id: 'old-note', key: 'b6f1b0a2-5d4e-4c1a-9f3e-000000000001', taskId, kind: 'note', createdAt: now,
    state: 'waiting', note: 'Written before the update.', error: null });
  tasks.close();
  const paths = await make('waymark-paths', 1, ['paths']);
  const points = [[48.1000, 11.5000], [48.1000, 11.5010], [48.1007, 11.5010], [48.1007, 11.5000]]
    .map(([latitude, longitude], index) => ({ latitude, longitude, altitude: null, time: now / 1000 - 60 + index * 10 }));
  await put(paths, 'paths', { id: 'old-path', key: 'b6f1b0a2-5d4e-4c1a-9f3e-000000000002', name: 'Walked before the update',
    points, createdAt: now - 60000, state: 'unsent', serverId: null, measure: { area: null, perimeter: null, length: 0 }, error: null });
  paths.close();
  return (await indexedDB.databases()).map((db) => `${db.name}@${db.version}`).sort();
}"""

DATABASES = """async () => {
  const names = (await indexedDB.databases()).map((db) => `${db.name}@${db.version}`).sort();
  const db = await new Promise((resolve) => { const r = indexedDB.open('waymark'); r.onsuccess = () => resolve(r.result); });
  const stores = [...db.objectStoreNames].sort();
  db.close();
  return { names, stores };
}"""


def test_the_tasks_and_paths_databases_of_before_move_into_the_one_database(phone_for, api, tmp_path):
    m = messages("en")
    user_name = username("ulla")
    token = make_user(api, user_name)
    task_id = hand_out_task(api, tmp_path, user_name)

    phone = phone_for("en-US")
    page = phone.page
    page.goto("/healthz")
    before = page.evaluate(OLD_DATABASES, {"taskId": task_id, "now": 1_765_000_000_000})
    assert before == ["waymark-paths@1", "waymark-tasks@1", "waymark@4"], before
    assert sign_in_by_fetch(page, user_name) == 200

    # The walk of before is on the /paths page and is sent as the page opens.
    with page.expect_response(lambda r: r.url.endswith("/api/v1/paths") and r.request.method == "POST" and r.status == 201) as sent:
        page.goto("/paths")
    assert sent.value.json()["name"] == "Walked before the update"
    item = page.locator(".path-item", has_text="Walked before the update")
    expect(item.locator(".path-badge")).to_have_text(m["paths.state.sent"])

    # The note of before is sent as the task opens, with the key it was queued with.
    with page.expect_response(lambda r: r.url.endswith(f"/api/v1/tasks/{task_id}") and r.request.method == "PATCH" and r.status == 200) as patched:
        page.goto(f"/tasks/{task_id}")
    assert patched.value.request.header_value("idempotency-key") == "b6f1b0a2-5d4e-4c1a-9f3e-000000000001"
    expect(page.get_by_label(m["task.note"], exact=True)).to_have_value("Written before the update.")
    kept = api.get(f"/api/v1/tasks/{task_id}", headers={"Authorization": f"Bearer {token}"}).json()
    assert kept["note"] == "Written before the update."
    phone.shot("moved-task")

    after = page.evaluate(DATABASES)
    assert after["names"] == ["waymark@5"], after
    assert {"paths", "taskOutbox", "tasks", "uploads", "routes", "sceneOutbox"} <= set(after["stores"]), after
