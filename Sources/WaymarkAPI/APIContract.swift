import Foundation
import Yams

/// The API's contract (DESIGN §3.3): OpenAPI 3.1 files under `Sources/WaymarkAPI/Contract/`, one
/// per area and `common.yaml` for what they share (the document's header, security schemes, the
/// `Idempotency-Key` parameter, the error body, the shared answers). ``merged()`` joins them into
/// the one document `GET /openapi.yaml` serves.
///
/// An area's file is a partial document: `paths` and the `components` it adds. Two files that
/// define the same path or the same component are a contract error, not a silent override.
public enum APIContract {
    /// The files, in the order their paths appear in the merged document.
    public static let areas = ["common", "routes", "accounts", "keys", "photos", "qr", "sky", "tasks", "paths", "receipts", "scenes", "owntracks"]

    /// Why the contract could not be assembled.
    public enum Problem: Error, Equatable, CustomStringConvertible {
        /// A file of ``areas`` is not among the resources.
        case missingFile(String)
        /// A file is not YAML, or not a mapping (file, what the YAML parser said).
        case unreadable(String, String)
        /// Two files define the same path or component (file, e.g. `paths./api/v1/tasks`).
        case duplicate(String, String)

        public var description: String {
            switch self {
            case .missingFile(let name): "the contract file \(name).yaml is missing from WaymarkAPI's resources"
            case .unreadable(let name, let why): "the contract file \(name).yaml is not a YAML mapping: \(why)"
            case .duplicate(let name, let key): "the contract file \(name).yaml defines \(key) again"
            }
        }
    }

    /// The text of one contract file.
    public static func file(_ name: String) throws(Problem) -> String {
        guard let url = Bundle.module.url(forResource: name, withExtension: "yaml", subdirectory: "Contract"),
              let data = try? Data(contentsOf: url) else { throw .missingFile(name) }
        return String(decoding: data, as: UTF8.self)
    }

    /// The merged document of every file of ``areas``.
    public static func merged() throws(Problem) -> Node {
        try merge(areas.map { name throws(Problem) in (name, try file(name)) })
    }

    /// The merged document as YAML, as `/openapi.yaml` serves it.
    public static func yaml() throws -> String {
        try yaml(of: merged())
    }

    /// `document` (a ``merged()`` one) as YAML.
    public static func yaml(of document: Node) throws -> String {
        try Yams.serialize(node: document, indent: 2, width: -1, allowUnicode: true)
    }

    /// Merges named documents: the first is the base; every later one adds its `paths` and the
    /// entries of each `components` section, none of which may be there already.
    public static func merge(_ documents: [(name: String, text: String)]) throws(Problem) -> Node {
        var base: Node.Mapping?
        for (name, text) in documents {
            let mapping: Node.Mapping
            do {
                guard let node = try Yams.compose(yaml: text), let found = node.mapping else { throw Problem.unreadable(name, "the top level is not a mapping") }
                mapping = found
            } catch let problem as Problem {
                throw problem
            } catch {
                throw .unreadable(name, "\(error)")
            }
            guard var merged = base else { base = mapping; continue }
            merged["paths"] = .mapping(try add(mapping["paths"]?.mapping, to: merged["paths"]?.mapping ?? [:], file: name, key: "paths"))
            if let components = mapping["components"]?.mapping {
                var all = merged["components"]?.mapping ?? [:]
                for (section, entries) in components {
                    let key = section.string ?? "?"
                    all[section] = .mapping(try add(entries.mapping, to: all[section]?.mapping ?? [:], file: name, key: "components.\(key)"))
                }
                merged["components"] = .mapping(all)
            }
            base = merged
        }
        return .mapping(base ?? [:])
    }

    private static func add(_ entries: Node.Mapping?, to mapping: Node.Mapping, file: String, key: String) throws(Problem) -> Node.Mapping {
        var result = mapping
        for (name, value) in entries ?? [:] {
            guard result[name] == nil else { throw .duplicate(file, "\(key).\(name.string ?? "?")") }
            result[name] = value
        }
        return result
    }
}
