/// The OpenAPI text of the field paths (DESIGN §3.10), spliced into ``OpenAPIDocument/yaml``:
/// `paths` at the end of its `paths:` section (indented two spaces, each ending in a newline),
/// `schemas` at the end of `components.schemas` (indented four spaces).
enum FieldPathAPIDocument {
    static let paths = ""
    static let schemas = ""
}
