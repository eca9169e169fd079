import Foundation

/// JSON written one way only, as RFC 8785 (the JSON Canonicalization Scheme, JCS) writes it: no
/// whitespace, object members sorted by the UTF-16 code units of their names, strings and numbers
/// exactly as ECMAScript's `JSON.stringify` writes them. So any language that has a
/// `JSON.stringify` (or a JCS library) produces the same bytes from the same values, and a hash of
/// them can be checked anywhere (``ReceiptMetadata``).
public enum CanonicalJSON {
    /// A JSON value, for writing.
    public indirect enum Value: Sendable, Equatable {
        case null
        case bool(Bool)
        /// Must be finite.
        case number(Double)
        case string(String)
        case array([Value])
        case object([String: Value])
    }

    /// The canonical text of `value`; `nil` when it holds a number that JSON cannot write (∞, NaN).
    public static func text(_ value: Value) -> String? {
        switch value {
        case .null: return "null"
        case let .bool(flag): return flag ? "true" : "false"
        case let .number(number): return self.number(number)
        case let .string(string): return self.string(string)
        case let .array(items):
            var parts: [String] = []
            for item in items {
                guard let text = text(item) else { return nil }
                parts.append(text)
            }
            return "[" + parts.joined(separator: ",") + "]"
        case let .object(members):
            var parts: [String] = []
            for name in members.keys.sorted(by: { Array($0.utf16).lexicographicallyPrecedes(Array($1.utf16)) }) {
                guard let member = members[name], let text = text(member) else { return nil }
                parts.append(string(name) + ":" + text)
            }
            return "{" + parts.joined(separator: ",") + "}"
        }
    }

    /// A number as ECMAScript's `Number.prototype.toString` writes it (ECMA-262 §6.1.6.1.20): the
    /// shortest digits that read back as the same double, an integer without `.0` up to 10²¹,
    /// a plain decimal down to 10⁻⁶, otherwise `1.5e+21` / `1e-7`; −0 as `0`. `nil` for ∞ and NaN.
    public static func number(_ value: Double) -> String? {
        guard value.isFinite else { return nil }
        if value == 0 { return "0" }
        if value < 0 { return number(-value).map { "-" + $0 } }
        // Swift's description is the shortest round-trip form ("1.0", "0.001", "1e-05",
        // "1.2345e+16"); its digits and decimal exponent are rewritten in ECMAScript's layout.
        let text = value.description
        var mantissa = Substring(text)
        var exponent = 0
        if let mark = text.firstIndex(where: { $0 == "e" || $0 == "E" }) {
            mantissa = text[..<mark]
            exponent = Int(text[text.index(after: mark)...]) ?? 0
        }
        let parts = mantissa.split(separator: ".", omittingEmptySubsequences: false)
        let integer = parts[0]
        let fraction = parts.count > 1 ? parts[1] : ""
        var digits = Array(integer + fraction)
        // value = 0.d₁d₂…d_k × 10^n
        var n = integer.count + exponent
        while digits.first == "0" {
            digits.removeFirst()
            n -= 1
        }
        while digits.last == "0" { digits.removeLast() }
        let k = digits.count
        let all = String(digits)
        if k <= n && n <= 21 {
            return all + String(repeating: "0", count: n - k)
        }
        if 0 < n && n <= 21 {
            return String(digits[..<n]) + "." + String(digits[n...])
        }
        if -6 < n && n <= 0 {
            return "0." + String(repeating: "0", count: -n) + all
        }
        let e = n - 1
        let sign = e < 0 ? "-" : "+"
        let head = k == 1 ? all : String(digits[0]) + "." + String(digits[1...])
        return head + "e" + sign + String(abs(e))
    }

    /// A string as `JSON.stringify` writes it: `"` and `\` escaped, the control characters as
    /// `\b \t \n \f \r` or `\u00xx` (lowercase hex), everything else as it is (UTF-8).
    public static func string(_ value: String) -> String {
        var out = "\""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\u{08}": out += "\\b"
            case "\u{09}": out += "\\t"
            case "\u{0A}": out += "\\n"
            case "\u{0C}": out += "\\f"
            case "\u{0D}": out += "\\r"
            default:
                if scalar.value < 0x20 {
                    out += "\\u00" + (scalar.value < 0x10 ? "0" : "") + String(scalar.value, radix: 16)
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }
}
