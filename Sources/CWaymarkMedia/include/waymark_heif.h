/*
 * waymark_heif.h — HEIF/HEIC decoding in Waymark's C++ shim, over libheif.
 *
 * HEIC images are HEVC-coded; libheif (with libde265) decodes them. Only the luma plane is
 * returned: the QR search needs nothing else. Every C++ exception is caught and reported as a
 * non-zero return with a message in `err`.
 */
#ifndef WAYMARK_HEIF_H
#define WAYMARK_HEIF_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** An 8-bit greyscale image allocated by the shim; release with wm_gray_image_free. */
typedef struct wm_gray_image {
    uint8_t *pixels;        /* width × height bytes, row by row, no padding */
    int width;
    int height;
} wm_gray_image;

void wm_gray_image_free(wm_gray_image *image);

/** wm_heif_decode_gray's return when `want_thumbnail` is set and the primary image has no thumbnail. */
enum { WM_HEIF_NO_THUMBNAIL = 1 };

/**
 * Decodes the primary image of a HEIF/HEIC file held in memory (or, with `want_thumbnail`, its
 * first thumbnail) and returns its luma plane in `out`, 8 bits per pixel (higher bit depths are
 * scaled down), shrunk by an integer box filter until its longer side is at most `max_long_side`
 * (when `max_long_side` > 0). Returns 0, WM_HEIF_NO_THUMBNAIL, or -1 with a message in err.
 */
int wm_heif_decode_gray(const uint8_t *data, size_t size, int want_thumbnail, int max_long_side,
                        wm_gray_image *out, char *err, size_t err_len);

#ifdef __cplusplus
}
#endif
#endif
