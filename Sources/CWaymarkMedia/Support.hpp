// Shared helpers of the shim: error reporting and one-time library set-up.
#pragma once

#include <cstddef>
#include <cstring>
#include <string>

namespace waymark {

/// Copies `message` into a caller's error buffer, truncating safely.
inline void report(char *err, size_t err_len, const std::string &message) {
    if (err == nullptr || err_len == 0) return;
    size_t n = message.size() < err_len - 1 ? message.size() : err_len - 1;
    std::memcpy(err, message.data(), n);
    err[n] = '\0';
}

/// Copies `value` into a fixed-size field, truncating safely.
template <size_t N> inline void copy_field(char (&field)[N], const std::string &value) {
    size_t n = value.size() < N - 1 ? value.size() : N - 1;
    std::memcpy(field, value.data(), n);
    field[n] = '\0';
}

/// Initialises exiv2 once per process (XMP toolkit, quiet logging, BMFF/HEIC support).
void ensure_exiv2();

/// An exception type no code throws: the default for `guarded`'s pass-through parameter.
struct NoPassThrough {};

/// Runs `body`, turning any C++ exception into a -1 return with its message; exceptions of type
/// `PassThrough` are rethrown for the caller to map to a return code of its own.
template <typename PassThrough = NoPassThrough, typename Body>
int guarded(char *err, size_t err_len, const char *what, Body body) {
    try {
        return body();
    } catch (const PassThrough &) {
        throw;
    } catch (const std::exception &e) {
        report(err, err_len, std::string(what) + ": " + e.what());
    } catch (...) {
        report(err, err_len, std::string(what) + ": unknown C++ exception");
    }
    return -1;
}

} // namespace waymark
