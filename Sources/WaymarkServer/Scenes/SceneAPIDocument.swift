/// The OpenAPI text of the scenes (DESIGN §3.9), spliced into ``OpenAPIDocument/yaml``:
/// `paths` at the end of its `paths:` section (indented two spaces, each ending in a newline),
/// `schemas` at the end of `components.schemas` (indented four spaces).
enum SceneAPIDocument {
    static let paths = ""
    static let schemas = ""
}
