/*
 * waymark_sodium.h — libsodium in Waymark's C++ shim: password hashing (Argon2id).
 *
 * The vault's sealed boxes (DESIGN §3.11) will join these. Every function initialises
 * libsodium on first use (sodium_init is thread-safe and idempotent).
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

#ifdef __cplusplus
}
#endif
#endif
