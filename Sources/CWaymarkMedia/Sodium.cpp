// libsodium through the shim: Argon2id password hashing (crypto_pwhash_str*) and the vault's
// sealed boxes (crypto_box_easy and its helpers).
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

static_assert(WM_BOX_PUBLIC_KEY_BYTES == crypto_box_PUBLICKEYBYTES, "the header's size must be libsodium's");
static_assert(WM_BOX_SECRET_KEY_BYTES == crypto_box_SECRETKEYBYTES, "the header's size must be libsodium's");
static_assert(WM_BOX_NONCE_BYTES == crypto_box_NONCEBYTES, "the header's size must be libsodium's");
static_assert(WM_BOX_MAC_BYTES == crypto_box_MACBYTES, "the header's size must be libsodium's");
static_assert(crypto_scalarmult_BYTES == crypto_box_PUBLICKEYBYTES, "a scalar multiple is a box public key");
static_assert(crypto_scalarmult_SCALARBYTES == crypto_box_SECRETKEYBYTES, "a scalar is a box secret key");

extern "C" int wm_box_easy(unsigned char *out, const unsigned char *message, size_t length,
                           const unsigned char nonce[WM_BOX_NONCE_BYTES], const unsigned char public_key[WM_BOX_PUBLIC_KEY_BYTES],
                           const unsigned char secret_key[WM_BOX_SECRET_KEY_BYTES]) {
    if (!ready()) return -1;
    if (length > crypto_box_MESSAGEBYTES_MAX) return -1;
    return crypto_box_easy(out, message, length, nonce, public_key, secret_key) == 0 ? 0 : -1;
}

extern "C" int wm_box_open_easy(unsigned char *out, const unsigned char *box, size_t length,
                                const unsigned char nonce[WM_BOX_NONCE_BYTES], const unsigned char public_key[WM_BOX_PUBLIC_KEY_BYTES],
                                const unsigned char secret_key[WM_BOX_SECRET_KEY_BYTES]) {
    if (!ready()) return -1;
    if (length < crypto_box_MACBYTES) return -1;
    return crypto_box_open_easy(out, box, length, nonce, public_key, secret_key) == 0 ? 0 : -1;
}

extern "C" int wm_box_public_key(unsigned char public_key[WM_BOX_PUBLIC_KEY_BYTES], const unsigned char secret_key[WM_BOX_SECRET_KEY_BYTES]) {
    if (!ready()) return -1;
    return crypto_scalarmult_base(public_key, secret_key) == 0 ? 0 : -1;
}

static_assert(WM_SECRETBOX_KEY_BYTES == crypto_secretbox_KEYBYTES, "the header's size must be libsodium's");
static_assert(WM_SECRETBOX_NONCE_BYTES == crypto_secretbox_NONCEBYTES, "the header's size must be libsodium's");
static_assert(WM_SECRETBOX_MAC_BYTES == crypto_secretbox_MACBYTES, "the header's size must be libsodium's");

extern "C" int wm_secretbox_easy(unsigned char *out, const unsigned char *message, size_t length,
                                 const unsigned char nonce[WM_SECRETBOX_NONCE_BYTES], const unsigned char key[WM_SECRETBOX_KEY_BYTES]) {
    if (!ready()) return -1;
    if (length > crypto_secretbox_MESSAGEBYTES_MAX) return -1;
    return crypto_secretbox_easy(out, message, length, nonce, key) == 0 ? 0 : -1;
}

extern "C" int wm_secretbox_open_easy(unsigned char *out, const unsigned char *box, size_t length,
                                      const unsigned char nonce[WM_SECRETBOX_NONCE_BYTES], const unsigned char key[WM_SECRETBOX_KEY_BYTES]) {
    if (!ready()) return -1;
    if (length < crypto_secretbox_MACBYTES) return -1;
    return crypto_secretbox_open_easy(out, box, length, nonce, key) == 0 ? 0 : -1;
}

extern "C" int wm_random_bytes(unsigned char *out, size_t length) {
    if (!ready()) return -1;
    randombytes_buf(out, length);
    return 0;
}
