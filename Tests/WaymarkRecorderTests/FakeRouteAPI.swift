import Foundation
import WaymarkClient
import WaymarkRecorder
import WaymarkTestSupport

/// A small stand-in for the route API (Python's http.server): stores routes honouring
/// `Idempotency-Key` like the real server, finds them by lookup key, deletes them with the
/// right token, and injects scripted faults into its first requests:
/// a status code (answered with an API error body), `"drop"` (closes the connection without
/// answering), or `"commit-drop"` (does the work, then closes without answering: the lost answer).
///
/// It does not check signatures; the real server's tests do.
final class FakeRouteAPI {
    static let script = #"""
import hashlib, http.server, json, os, sys
log = sys.argv[1]; faults = json.loads(sys.argv[2])
state = {"requests": [], "routes": {}}
keys = {}
counter = [0]
class H(http.server.BaseHTTPRequestHandler):
    def reply(self, status, obj=None):
        body = b"" if obj is None else json.dumps(obj).encode()
        self.send_response(status)
        if obj is not None: self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)
    def serve(self, method, body):
        path, _, query = self.path.partition("?")
        routes = state["routes"]
        if method == "POST" and path == "/api/v1/routes":
            request = json.loads(body)
            key = self.headers.get("Idempotency-Key")
            rid = keys.get(key)
            if rid is None:
                counter[0] += 1
                rid = keys[key] = "r-%d" % counter[0]
                routes[rid] = {"lookup": request["lookup"], "deleteTokenHash": request["deleteTokenHash"], "envelope": request["envelope"]}
            return 201, {"route_id": rid, "creation_time": 1700000000}
        found = None
        if method == "GET" and path == "/api/v1/routes" and query.startswith("lookup="):
            found = next((rid for rid, r in routes.items() if r["lookup"] == query[7:]), None)
        elif path.startswith("/api/v1/routes/"):
            found = path[len("/api/v1/routes/"):]
            if found not in routes: found = None
        if found is None:
            return 404, {"error": "not_found", "reason": "No route has this id or lookup key."}
        if method == "DELETE":
            token = bytes.fromhex(self.headers.get("X-Delete-Token", ""))
            if hashlib.sha256(token).hexdigest() != routes[found]["deleteTokenHash"]:
                return 403, {"error": "wrong_delete_token", "reason": "The delete token does not belong to this route."}
            del routes[found]
            return 204, None
        return 200, {"route_id": found, "creation_time": 1700000000, "envelope": routes[found]["envelope"]}
    def handle_any(self, method):
        body = self.rfile.read(int(self.headers.get("Content-Length") or 0)).decode()
        state["requests"].append({"method": method, "path": self.path, "headers": dict(self.headers), "body": body})
        fault = faults.pop(0) if faults else None
        answer = None
        try:
            if isinstance(fault, int):
                code = "unknown_key" if fault == 401 else "unavailable"
                answer = (fault, {"error": code, "reason": "scripted %d" % fault})
            elif fault != "drop":
                status, obj = self.serve(method, body)
                if fault != "commit-drop": answer = (status, obj)
        finally:
            # The log is complete before the client hears back (it reads it as soon as it
            # has its answer), and replaced whole, so that it is never read half written.
            open(log + ".tmp", "w").write(json.dumps(state))
            os.replace(log + ".tmp", log)
        if answer: self.reply(*answer)
    def do_GET(self): self.handle_any("GET")
    def do_POST(self): self.handle_any("POST")
    def do_DELETE(self): self.handle_any("DELETE")
    def log_message(self, *args): pass
server = http.server.HTTPServer(("127.0.0.1", 0), H)
print(server.server_address[1], flush=True)
server.serve_forever()
"""#

    let server: ScriptedServer

    /// Starts the server; `faults` apply to its first requests, in order (`null` for none).
    init(faults: [Any] = []) throws {
        let json = String(decoding: try JSONSerialization.data(withJSONObject: faults), as: UTF8.self)
        server = try ScriptedServer(script: Self.script, arguments: [json])
    }

    /// A client that makes one attempt per call (the uploader's queue does the retrying here).
    var client: WaymarkClient {
        RouteUploader.client(for: ServerCredentials(serverURL: server.url, key: "test-key", secret: "test-secret"), requestTimeout: 5)
    }

    private var state: [String: Any] { ((try? server.logged()) as? [String: Any]) ?? [:] }

    /// The requests so far: method, path, headers, body.
    var requests: [[String: Any]] { state["requests"] as? [[String: Any]] ?? [] }
    /// The Idempotency-Key of every POST so far.
    var idempotencyKeys: [String] {
        requests.filter { $0["method"] as? String == "POST" }.compactMap { ($0["headers"] as? [String: String])?["Idempotency-Key"] }
    }
    /// The routes the server holds: id → lookup key.
    var routes: [String: String] {
        (state["routes"] as? [String: [String: Any]] ?? [:]).compactMapValues { $0["lookup"] as? String }
    }
}
