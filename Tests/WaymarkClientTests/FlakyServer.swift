#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import WaymarkTestSupport

/// A real HTTP server (Python's http.server) that fails a given number of times with 503 and
/// Retry-After, then answers 201, and records every request's headers and body in its log.
enum FlakyServer {
    static let script = #"""
import http.server, json, sys
log = sys.argv[1]; failures = int(sys.argv[2]); retry_after = sys.argv[3]
seen = []
class H(http.server.BaseHTTPRequestHandler):
    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
        seen.append({"path": self.path, "headers": dict(self.headers), "body": body.decode()})
        open(log, "w").write(json.dumps(seen))
        if len(seen) <= failures:
            self.send_response(503); self.send_header("Retry-After", retry_after); self.send_header("Content-Length", "0"); self.end_headers(); return
        out = json.dumps({"route_id": "r-1", "creation_time": 1700000000}).encode()
        self.send_response(201); self.send_header("Content-Type", "application/json"); self.send_header("Content-Length", str(len(out))); self.end_headers(); self.wfile.write(out)
    def log_message(self, *args): pass
server = http.server.HTTPServer(("127.0.0.1", 0), H)
print(server.server_address[1], flush=True)
server.serve_forever()
"""#

    static func start(failures: Int, retryAfter: String) throws -> ScriptedServer {
        try ScriptedServer(script: script, arguments: [String(failures), retryAfter])
    }
}
