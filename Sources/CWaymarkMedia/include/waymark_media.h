/*
 * waymark_media.h — the plain C API of Waymark's one C++ shim.
 *
 * It wraps exiv2 (photo metadata), zxing-cpp (QR decoding), libjpeg-turbo (scaled JPEG
 * decoding) and libqrencode (QR encoding). Every function catches every C++ exception and reports it as a non-zero return
 * with a message in `err`. No function touches the file system except through the paths it
 * is given; the Swift side (WaymarkMedia) owns safe writing.
 */
#ifndef WAYMARK_MEDIA_H
#define WAYMARK_MEDIA_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Bytes allocated by the shim; release with wm_buffer_free. */
typedef struct wm_buffer {
    uint8_t *data;
    size_t size;
} wm_buffer;

void wm_buffer_free(wm_buffer *buffer);

/** What Waymark needs to know of a photo's metadata. Strings are empty when absent. */
typedef struct wm_info {
    char date_time_original[32];
    char subsec_time_original[16];
    char offset_time_original[16];
    char create_date[32];
    char subsec_time_digitized[16];
    char offset_time_digitized[16];
    char make[64];
    char model[64];
    char mime_type[48];
    int has_gps;            /* a GPSLatitude and GPSLongitude are present */
    double gps_latitude;    /* signed degrees, valid when has_gps */
    double gps_longitude;
    int is_jpeg;
    int pixel_width;        /* of the main image when known, else 0 */
    int pixel_height;
    int orientation;        /* Exif Orientation, 1–8 (how to turn the stored pixels upright); 0 when absent or invalid */
} wm_info;

/**
 * Reads the metadata of a photo held in memory. When `preview` is not NULL and the file is not
 * a JPEG, the largest embedded JPEG preview (RAW files carry one) is copied into it (data NULL
 * when there is none). Returns 0, or -1 with a message in err.
 */
int wm_read_info(const uint8_t *data, size_t size, wm_info *info, wm_buffer *preview,
                 char *err, size_t err_len);

enum { WM_MAX_PREVIEWS = 8 };

/** One embedded JPEG preview of a photo. */
typedef struct wm_preview {
    wm_buffer jpeg;         /* the JPEG's bytes; release with wm_buffer_free */
    int width;              /* in pixels, 0 when exiv2 does not know */
    int height;
} wm_preview;

/**
 * Reads every embedded JPEG preview exiv2 finds in a photo held in memory (RAW files carry one or
 * more: a thumbnail, a preview, a full-size JPEG), smallest first (by pixel count, else by bytes),
 * identical copies once. Fills at most `capacity` entries of `previews` (WM_MAX_PREVIEWS is plenty)
 * and sets `*count`; the caller frees each entry's `jpeg`. Returns 0 (count may be 0), or -1 with a
 * message in err and nothing to free.
 */
int wm_read_previews(const uint8_t *data, size_t size, wm_preview *previews, int capacity, int *count,
                     char *err, size_t err_len);

/** The position and time to write into a sidecar. */
typedef struct wm_gps {
    double latitude;        /* signed degrees */
    double longitude;
    int has_altitude;
    double altitude;        /* metres, negative below sea level */
    int has_accuracy;
    double accuracy;        /* horizontal error, metres */
    int year, month, day;   /* UTC date of the photo */
    int hour, minute;
    double second;          /* UTC time of day */
} wm_gps;

/**
 * Makes an XMP sidecar carrying the GPS position: updates `existing` (an earlier sidecar, or
 * NULL/0) and returns the packet in `out`. Returns 0, or -1 with a message in err.
 */
int wm_make_sidecar(const uint8_t *existing, size_t existing_size, const wm_gps *gps,
                    wm_buffer *out, char *err, size_t err_len);

enum { WM_QR_MAX_RESULTS = 8, WM_QR_MAX_TEXT = 256 };

typedef struct wm_qr_result {
    int count;                                       /* QR codes read */
    char texts[WM_QR_MAX_RESULTS][WM_QR_MAX_TEXT];   /* their UTF-8 text */
    int decoded_width;                               /* size of the scaled image they were read in */
    int decoded_height;
    int decodes;                                     /* JPEG decodes made (1) */
} wm_qr_result;

/**
 * Looks for QR codes in a JPEG held in memory. The image is decoded once, in greyscale, with
 * libjpeg-turbo's DCT scaling to a longer side of about `max_long_side` (never full size unless
 * the photo is that small); entropy decoding costs the same at any scale, so one decode serves
 * every scale. Codes are searched in halved copies from about `first_long_side` up to the decoded
 * size, stopping at the first where a code is read. Returns 0 (result->count may be 0), or -1
 * with a message when the JPEG cannot be decoded.
 */
int wm_find_qr(const uint8_t *jpeg, size_t size, int first_long_side, int max_long_side,
               wm_qr_result *result, char *err, size_t err_len);

/** Whether a code's text (NUL-terminated UTF-8) is one the caller looks for: non-zero when it is. */
typedef int (*wm_qr_accept)(const char *text, void *context);

/**
 * wm_find_qr, stopping only at a level where a code is read that `accept` accepts (when `accept`
 * is NULL, any code): a large code of another app no longer hides a small one that only a larger
 * level shows. When no level shows an accepted code, the result holds the codes of the smallest
 * level that showed any.
 */
int wm_find_qr_accepting(const uint8_t *jpeg, size_t size, int first_long_side, int max_long_side,
                         wm_qr_accept accept, void *context, wm_qr_result *result, char *err, size_t err_len);

/** Looks for QR codes in an 8-bit greyscale image (for tests and non-JPEG sources). */
int wm_find_qr_gray(const uint8_t *pixels, int width, int height, wm_qr_result *result,
                    char *err, size_t err_len);

/**
 * Encodes `text` (NUL-terminated UTF-8) as a QR code at error-correction level Q, in the smallest
 * version that holds it; libqrencode picks the densest modes (alphanumeric for a Waymark payload).
 * On success returns 0 and fills `modules` with width × width bytes, row by row, 1 for a dark
 * module and 0 for a light one (no quiet zone), and `*width`. Returns -1 with a message otherwise.
 */
int wm_encode_qr(const char *text, wm_buffer *modules, int *width, char *err, size_t err_len);

#ifdef __cplusplus
}
#endif
#endif
