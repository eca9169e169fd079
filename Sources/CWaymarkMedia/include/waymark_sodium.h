/*
 * waymark_sodium.h — libsodium in Waymark's C++ shim: password hashing (Argon2id) and the
 * vault's sealed boxes (crypto_box_easy, DESIGN §3.11).
 *
 * Every function initialises libsodium on first use (sodium_init is thread-safe and idempotent).
 */
#ifndef WAYMARK_SODIUM_H
#define WAYMARK_SODIUM_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/** The size of an encoded password hash, terminating NUL included (crypto_pwhash_STRBYTES). */
enum { WM_PASSWORD_HASH_BYTES = 128 };

/**
 * Hashes `password` (`length` bytes, any bytes) with Argon2id and a random salt into `out`, as
 * the self-describing string "$argon2id$v=19$m=…,t=…,p=1$salt$hash". `opslimit` and `memlimit`
 * (bytes) are the cost. Returns 0, or -1 with a message in err (out of memory, or a cost libsodium
 * refuses).
 */
int wm_password_hash(const char *password, size_t length, unsigned long long opslimit, size_t memlimit,
                     char out[WM_PASSWORD_HASH_BYTES], char *err, size_t err_len);

/**
 * Checks `password` against an encoded hash made by wm_password_hash (constant time in the
 * hash). Returns 1 when it matches, 0 when it does not or the hash is not a valid encoding.
 */
int wm_password_verify(const char *hash, const char *password, size_t length);

/**
 * Whether an encoded hash was made with another algorithm or cost than the ones given, so that
 * it should be replaced at the next successful sign-in. Returns 1 (yes), 0 (no) or -1 (not a
 * valid encoding).
 */
int wm_password_needs_rehash(const char *hash, unsigned long long opslimit, size_t memlimit);

/** libsodium's interactive cost (operations, memory in bytes), for online sign-in. */
unsigned long long wm_password_opslimit_interactive(void);
size_t wm_password_memlimit_interactive(void);

/** Sizes of crypto_box (X25519, XSalsa20-Poly1305): keys, nonce, and the tag a box adds. */
enum {
    WM_BOX_PUBLIC_KEY_BYTES = 32,
    WM_BOX_SECRET_KEY_BYTES = 32,
    WM_BOX_NONCE_BYTES = 24,
    WM_BOX_MAC_BYTES = 16,
};

/**
 * crypto_box_easy: seals `length` bytes of `message` for `public_key` from `secret_key` with
 * `nonce` into `out`, which holds `length + WM_BOX_MAC_BYTES` bytes (the tag, then the ciphertext).
 * Returns 0, or -1 (libsodium not initialised, or a key it refuses).
 */
int wm_box_easy(unsigned char *out, const unsigned char *message, size_t length,
                const unsigned char nonce[WM_BOX_NONCE_BYTES], const unsigned char public_key[WM_BOX_PUBLIC_KEY_BYTES],
                const unsigned char secret_key[WM_BOX_SECRET_KEY_BYTES]);

/**
 * crypto_box_open_easy: opens `length` bytes of `box` (at least WM_BOX_MAC_BYTES) sealed for
 * `secret_key` by `public_key` into `out`, which holds `length - WM_BOX_MAC_BYTES` bytes.
 * Returns 0, or -1 when the box is too short, forged, or sealed with other keys or another nonce.
 */
int wm_box_open_easy(unsigned char *out, const unsigned char *box, size_t length,
                     const unsigned char nonce[WM_BOX_NONCE_BYTES], const unsigned char public_key[WM_BOX_PUBLIC_KEY_BYTES],
                     const unsigned char secret_key[WM_BOX_SECRET_KEY_BYTES]);

/** crypto_scalarmult_base: the public key of `secret_key`. Returns 0, or -1. */
int wm_box_public_key(unsigned char public_key[WM_BOX_PUBLIC_KEY_BYTES], const unsigned char secret_key[WM_BOX_SECRET_KEY_BYTES]);

/** Sizes of crypto_secretbox (XSalsa20-Poly1305): the key, the nonce, and the tag a box adds. */
enum {
    WM_SECRETBOX_KEY_BYTES = 32,
    WM_SECRETBOX_NONCE_BYTES = 24,
    WM_SECRETBOX_MAC_BYTES = 16,
};

/**
 * crypto_secretbox_easy: seals `length` bytes of `message` under `key` with `nonce` into `out`,
 * which holds `length + WM_SECRETBOX_MAC_BYTES` bytes (the tag, then the ciphertext): what the
 * OwnTracks apps send as an encrypted message (DESIGN §3.13). Returns 0, or -1.
 */
int wm_secretbox_easy(unsigned char *out, const unsigned char *message, size_t length,
                      const unsigned char nonce[WM_SECRETBOX_NONCE_BYTES], const unsigned char key[WM_SECRETBOX_KEY_BYTES]);

/**
 * crypto_secretbox_open_easy: opens `length` bytes of `box` (at least WM_SECRETBOX_MAC_BYTES) into
 * `out`, which holds `length - WM_SECRETBOX_MAC_BYTES` bytes. Returns 0, or -1 when the box is too
 * short, forged, or sealed under another key or nonce.
 */
int wm_secretbox_open_easy(unsigned char *out, const unsigned char *box, size_t length,
                           const unsigned char nonce[WM_SECRETBOX_NONCE_BYTES], const unsigned char key[WM_SECRETBOX_KEY_BYTES]);

/** randombytes_buf: `length` bytes from the system's CSPRNG into `out`. Returns 0, or -1. */
int wm_random_bytes(unsigned char *out, size_t length);

#ifdef __cplusplus
}
#endif
#endif
