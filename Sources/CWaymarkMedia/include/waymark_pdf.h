/*
 * waymark_pdf.h — a PDF document drawn with cairo in Waymark's C++ shim, written to memory.
 *
 * Just enough to lay out a report: pages of a given size in points (1/72 inch, y downwards),
 * UTF-8 text in DejaVu Sans (regular or bold, through fontconfig) with its measured width, lines,
 * filled or stroked rectangles, circles and polygons in an RGBA colour, and JPEG images that are
 * embedded as they are (DCTDecode: the PDF holds the JPEG's own bytes, not re-encoded pixels).
 *
 * Drawing calls return nothing: cairo keeps the first error and every later call does nothing;
 * wm_pdf_finish reports it. Images return a code at once, as a bad image is the caller's
 * business (WM_PDF_BAD_IMAGE). A document is used by one thread at a time; different documents
 * may be drawn on different threads at once. Every C++ exception is caught.
 */
#ifndef WAYMARK_PDF_H
#define WAYMARK_PDF_H

#include <stddef.h>
#include <stdint.h>

#include "waymark_media.h"

#ifdef __cplusplus
extern "C" {
#endif

enum {
    /** The JPEG given to wm_pdf_jpeg cannot be decoded (not a JPEG, truncated, CMYK, too large). */
    WM_PDF_BAD_IMAGE = 1,
};

/** A PDF being drawn; made by wm_pdf_create, released by wm_pdf_free. */
typedef struct wm_pdf wm_pdf;

/** Starts a document whose first page is `width` × `height` points. Returns 0, or -1 with a message. */
int wm_pdf_create(double width, double height, wm_pdf **out, char *err, size_t err_len);

/** Releases a document (finished or not); NULL is allowed. */
void wm_pdf_free(wm_pdf *pdf);

/** Sets the document's title in its metadata (the Info dictionary). */
void wm_pdf_set_title(wm_pdf *pdf, const char *utf8);

/** Ends the current page and starts another of the same size. */
void wm_pdf_new_page(wm_pdf *pdf);

/** The colour of what is drawn next, each channel 0–1. */
void wm_pdf_set_colour(wm_pdf *pdf, double red, double green, double blue, double alpha);

/** The width of stroked lines in points, and their dashes (`dash` 0: solid). */
void wm_pdf_set_line(wm_pdf *pdf, double width, double dash);

/** A straight line, stroked. */
void wm_pdf_line(wm_pdf *pdf, double x1, double y1, double x2, double y2);

/** A rectangle, filled (`fill` non-zero) or stroked. */
void wm_pdf_rectangle(wm_pdf *pdf, double x, double y, double width, double height, int fill);

/** A circle, filled or stroked. */
void wm_pdf_circle(wm_pdf *pdf, double x, double y, double radius, int fill);

/** A closed polygon of `count` points (`xy`: x0, y0, x1, y1, …), filled or stroked. */
void wm_pdf_polygon(wm_pdf *pdf, const double *xy, int count, int fill);

/** The advance width in points of `utf8` at `size` points, bold or regular. */
double wm_pdf_text_width(wm_pdf *pdf, const char *utf8, double size, int bold);

/** Draws `utf8` with its baseline starting at (x, y). */
void wm_pdf_text(wm_pdf *pdf, double x, double y, const char *utf8, double size, int bold);

/**
 * Draws a JPEG held in memory into the box (x, y, width, height), stretched to it (the caller
 * keeps the aspect), embedded as the JPEG itself. The bytes are copied. Returns 0, or
 * WM_PDF_BAD_IMAGE with a message when it cannot be decoded (nothing is drawn then).
 */
int wm_pdf_jpeg(wm_pdf *pdf, const uint8_t *jpeg, size_t size, double x, double y, double width, double height,
                char *err, size_t err_len);

/**
 * Ends the document and hands its bytes over in `out` (release with wm_buffer_free). Returns 0,
 * or -1 with cairo's first error. Nothing can be drawn afterwards.
 */
int wm_pdf_finish(wm_pdf *pdf, wm_buffer *out, char *err, size_t err_len);

#ifdef __cplusplus
}
#endif
#endif
