// libsodium through the shim: Argon2id password hashing (crypto_pwhash_str*).
#include "waymark_sodium.h"

#include <sodium.h>

#include <cstring>
#include <string>

#include "Support.hpp"

namespace {

bool ready() {
    // 0: initialised now; 1: already initialised; -1: failure (no entropy source).
    return sodium_init() >= 0;
}

}  // namespace

extern "C" int wm_password_hash(const char *password, size_t length, unsigned long long opslimit, size_t memlimit,
                                char out[WM_PASSWORD_HASH_BYTES], char *err, size_t err_len) {
    static_assert(WM_PASSWORD_HASH_BYTES == crypto_pwhash_STRBYTES, "the header's size must be libsodium's");
    if (!ready()) {
        waymark::report(err, err_len, "libsodium could not be initialised");
        return -1;
    }
    if (crypto_pwhash_str_alg(out, password, length, opslimit, memlimit, crypto_pwhash_ALG_ARGON2ID13) != 0) {
        waymark::report(err, err_len, "Argon2id failed (out of memory, or a cost libsodium refuses)");
        return -1;
    }
    return 0;
}

extern "C" int wm_password_verify(const char *hash, const char *password, size_t length) {
    if (!ready()) return 0;
    // crypto_pwhash_str_verify reads a NUL-terminated string of at most STRBYTES.
    if (strnlen(hash, crypto_pwhash_STRBYTES) >= crypto_pwhash_STRBYTES) return 0;
    return crypto_pwhash_str_verify(hash, password, length) == 0 ? 1 : 0;
}

extern "C" int wm_password_needs_rehash(const char *hash, unsigned long long opslimit, size_t memlimit) {
    if (!ready()) return -1;
    if (strnlen(hash, crypto_pwhash_STRBYTES) >= crypto_pwhash_STRBYTES) return -1;
    return crypto_pwhash_str_needs_rehash(hash, opslimit, memlimit);
}

extern "C" unsigned long long wm_password_opslimit_interactive(void) { return crypto_pwhash_OPSLIMIT_INTERACTIVE; }
extern "C" size_t wm_password_memlimit_interactive(void) { return crypto_pwhash_MEMLIMIT_INTERACTIVE; }
