/*
 * waymark_vips.h — images through libvips in Waymark's C++ shim: the content check of an upload
 * (which format, how many pixels, read from the header only) and its derivatives (shrink-on-load
 * thumbnails, orientation applied, every metadata tag stripped, encoded as JPEG or WebP).
 *
 * libvips is started once per process on first use, with its operation cache off (a server must
 * not grow with the photos it has seen), its warnings silenced (the return codes say it all), and
 * every loader blocked except JPEG, PNG, WebP, HEIF/HEIC/AVIF and TIFF: the other loaders (PDF,
 * SVG, ImageMagick, …) are not hardened against hostile input and are never needed here. That
 * block is process-wide.
 *
 * Every function may be called from any thread at the same time. Every C++ exception is caught.
 * The return codes: 0; WM_VIPS_NOT_IMAGE, WM_VIPS_BROKEN, WM_VIPS_TOO_MANY_PIXELS (see below);
 * -1 when the file cannot be opened or libvips cannot start. A message is in `err` whenever the
 * return is not 0.
 */
#ifndef WAYMARK_VIPS_H
#define WAYMARK_VIPS_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

enum {
    /** Not an image in a format accepted here (JPEG, PNG, WebP, HEIF/HEIC/AVIF, TIFF): unknown
        bytes, text, an empty file, a RAW file, or a format libvips reads only through a blocked loader. */
    WM_VIPS_NOT_IMAGE = 1,
    /** One of those formats, but damaged: its header cannot be read, or (when making a derivative)
        its pixels cannot be decoded — a truncated JPEG is this, never a grey half image. */
    WM_VIPS_BROKEN = 2,
    /** width × height is over the caller's limit; refused from the header, nothing was decoded. */
    WM_VIPS_TOO_MANY_PIXELS = 3,
};

/** The formats accepted; wm_vips_probe.format. */
typedef enum wm_vips_format {
    WM_VIPS_FORMAT_JPEG = 1,
    WM_VIPS_FORMAT_PNG = 2,
    WM_VIPS_FORMAT_WEBP = 3,
    WM_VIPS_FORMAT_HEIF = 4,    /* HEIC, HEIF and AVIF: libheif through libvips's heifload */
    WM_VIPS_FORMAT_TIFF = 5,
} wm_vips_format;

/** What an image's header says. */
typedef struct wm_vips_probe {
    int format;             /* a wm_vips_format */
    char loader[32];        /* libvips's loader, e.g. "jpegload" or "heifload_buffer" */
    int width;              /* pixels as stored, before the orientation is applied */
    int height;
    int orientation;        /* the EXIF orientation libvips will apply, 1–8 (1 when none) */
} wm_vips_probe;

/**
 * Reads the header of the image file at `path` (a NUL-terminated path): its format is found from
 * its bytes, never its name, and no pixel is decoded. Refuses an image of more than `max_pixels`
 * pixels (width × height; 0 or less: no limit). Returns 0 and fills `out`, or WM_VIPS_NOT_IMAGE,
 * WM_VIPS_BROKEN, WM_VIPS_TOO_MANY_PIXELS (with the header's size in `out`), or -1 (cannot be opened).
 */
int wm_vips_probe_file(const char *path, int64_t max_pixels, wm_vips_probe *out, char *err, size_t err_len);

/** wm_vips_probe_file for an image held in memory (`size` bytes at `data`; not copied, not kept). */
int wm_vips_probe_memory(const uint8_t *data, size_t size, int64_t max_pixels, wm_vips_probe *out,
                         char *err, size_t err_len);

/** The encodings of a derivative. */
typedef enum wm_vips_encoding {
    WM_VIPS_ENCODE_JPEG = 1,    /* progressive, optimised Huffman tables; alpha flattened onto white */
    WM_VIPS_ENCODE_WEBP = 2,    /* lossy; alpha kept */
} wm_vips_encoding;

/** What derivative to make. */
typedef struct wm_vips_derive_options {
    int size;               /* square: the side; else the longest side, in pixels (> 0) */
    int square;             /* non-zero: the largest centred square, shrunk to size × size */
    int encoding;           /* a wm_vips_encoding */
    int quality;            /* 1–100 (JPEG 85 and WebP 80 are good defaults) */
    int64_t max_pixels;     /* as wm_vips_probe_file's, checked again before anything is decoded */
    int orientation;        /* 1–8: apply this EXIF orientation instead of the image's own (a RAW file's
                               preview carries none: the RAW's applies); 0: the image's own */
} wm_vips_derive_options;

/** An encoded derivative allocated by the shim; release with wm_vips_image_free. */
typedef struct wm_vips_image {
    uint8_t *data;
    size_t size;
    int width;              /* as displayed: the orientation is applied */
    int height;
} wm_vips_image;

void wm_vips_image_free(wm_vips_image *image);

/**
 * Makes a derivative of the image file at `path`: decoded with shrink-on-load (JPEG's DCT scaling,
 * HEIF's and WebP's own), turned upright by its EXIF orientation, converted to sRGB when it carries
 * another ICC profile, shrunk to fit `options` and never enlarged (a small image keeps its size;
 * its square is the largest centred one), then encoded with every metadata tag stripped: no EXIF,
 * GPS, XMP, IPTC or ICC profile. A decoding error anywhere, a truncation included, fails the whole
 * derivative. Returns 0 and fills `out`, or the codes of wm_vips_probe_file.
 */
int wm_vips_derive_file(const char *path, const wm_vips_derive_options *options, wm_vips_image *out,
                        char *err, size_t err_len);

/** wm_vips_derive_file for an image held in memory (a RAW file's embedded JPEG preview). */
int wm_vips_derive_memory(const uint8_t *data, size_t size, const wm_vips_derive_options *options,
                          wm_vips_image *out, char *err, size_t err_len);

/**
 * Decodes the image held in memory (`size` bytes at `data`) to 8-bit greyscale for a QR code search:
 * shrunk on load so that its longer side is at most `max_long_side` pixels (> 0; never enlarged),
 * turned upright, converted to sRGB as for a derivative, transparency flattened onto white, then
 * reduced to its luminance. Refuses more than `max_pixels` pixels from the header, as
 * wm_vips_probe_file. Returns 0 and fills `out` — `data` holds width × height bytes row by row
 * (`size` is that count); release with wm_vips_image_free — or the codes of wm_vips_probe_file.
 */
int wm_vips_load_gray(const uint8_t *data, size_t size, int max_long_side, int64_t max_pixels, wm_vips_image *out,
                      char *err, size_t err_len);

#ifdef __cplusplus
}
#endif
#endif
