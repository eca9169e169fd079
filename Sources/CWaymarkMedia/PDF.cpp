// A PDF document drawn with cairo's PDF surface into memory: the PDF of a photo (DESIGN §3.10).
// Text goes through cairo's own font selection (fontconfig: DejaVu Sans, which cairo embeds as a
// subset with a ToUnicode map, so pdftotext reads it back); JPEGs are embedded as they are
// (CAIRO_MIME_TYPE_JPEG on a surface decoded with libjpeg-turbo), so a photo costs its own bytes.
#include "waymark_pdf.h"
#include "Support.hpp"

#include <cairo-pdf.h>
#include <cairo.h>
#include <turbojpeg.h>

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

using namespace waymark;

struct wm_pdf {
    cairo_surface_t *surface = nullptr;
    cairo_t *cr = nullptr;
    std::vector<uint8_t> bytes;     // what cairo has written so far
    bool finished = false;

    ~wm_pdf() {
        if (cr != nullptr) cairo_destroy(cr);
        if (surface != nullptr) cairo_surface_destroy(surface);
    }
};

namespace {

/// The family every text is set in; fontconfig substitutes another sans when it is missing.
constexpr const char *family = "DejaVu Sans";

/// A decoded JPEG larger than this (in pixels) is refused: a report's photo is a derivative of 2,048 pixels at most.
constexpr long long max_pixels = 40'000'000;

cairo_status_t append(void *closure, const unsigned char *data, unsigned int length) {
    try {
        auto *bytes = static_cast<std::vector<uint8_t> *>(closure);
        bytes->insert(bytes->end(), data, data + length);
        return CAIRO_STATUS_SUCCESS;
    } catch (...) {
        return CAIRO_STATUS_WRITE_ERROR;
    }
}

/// Whether drawing may go on: a document that exists, is not finished, and has no error.
bool usable(const wm_pdf *pdf) {
    return pdf != nullptr && !pdf->finished && pdf->cr != nullptr && cairo_status(pdf->cr) == CAIRO_STATUS_SUCCESS;
}

void use_font(wm_pdf *pdf, double size, int bold) {
    cairo_select_font_face(pdf->cr, family, CAIRO_FONT_SLANT_NORMAL, bold != 0 ? CAIRO_FONT_WEIGHT_BOLD : CAIRO_FONT_WEIGHT_NORMAL);
    cairo_set_font_size(pdf->cr, size);
}

/// The status of the document as a message.
std::string status_message(cairo_status_t status) { return std::string("cairo: ") + cairo_status_to_string(status); }

struct Decompressor {
    tjhandle handle = tjInitDecompress();
    ~Decompressor() { if (handle != nullptr) tjDestroy(handle); }
};

/// Holds a refusal of the image apart from other failures.
struct BadImage {
    std::string message;
};

/// Decodes `jpeg` into a new RGB24 image surface carrying the JPEG as its mime data.
cairo_surface_t *jpeg_surface(const uint8_t *jpeg, size_t size) {
    if (jpeg == nullptr || size == 0) throw BadImage{"no JPEG bytes given"};
    if (size > 0xFFFFFFFFul) throw BadImage{"the JPEG is larger than 4 GB"};
    Decompressor d;
    if (d.handle == nullptr) throw std::runtime_error("libjpeg-turbo could not start");
    int width = 0, height = 0, subsampling = 0, colorspace = 0;
    if (tjDecompressHeader3(d.handle, jpeg, static_cast<unsigned long>(size), &width, &height, &subsampling, &colorspace) != 0)
        throw BadImage{std::string("not a JPEG that can be read: ") + tjGetErrorStr2(d.handle)};
    if (width <= 0 || height <= 0 || static_cast<long long>(width) * height > max_pixels)
        throw BadImage{"the JPEG's size " + std::to_string(width) + " × " + std::to_string(height) + " is not one a report shows"};
    if (colorspace == TJCS_CMYK || colorspace == TJCS_YCCK) throw BadImage{"a CMYK JPEG; a report shows RGB or greyscale ones"};
    cairo_surface_t *surface = cairo_image_surface_create(CAIRO_FORMAT_RGB24, width, height);
    if (cairo_surface_status(surface) != CAIRO_STATUS_SUCCESS) {
        const std::string message = status_message(cairo_surface_status(surface));
        cairo_surface_destroy(surface);
        throw std::runtime_error(message);
    }
    cairo_surface_flush(surface);
    // RGB24 is a native-endian 32-bit word 0x00RRGGBB: BGRX bytes on little-endian machines, XRGB on big-endian ones.
    const uint32_t probe = 1;
    const bool little = *reinterpret_cast<const uint8_t *>(&probe) == 1;
    const int status = tjDecompress2(d.handle, jpeg, static_cast<unsigned long>(size), cairo_image_surface_get_data(surface), width,
                                     cairo_image_surface_get_stride(surface), height, little ? TJPF_BGRX : TJPF_XRGB,
                                     TJFLAG_STOPONWARNING);
    if (status != 0) {
        const std::string message = tjGetErrorStr2(d.handle);
        cairo_surface_destroy(surface);
        throw BadImage{"the JPEG is damaged or incomplete: " + message};
    }
    cairo_surface_mark_dirty(surface);
    // The PDF embeds these bytes as they are (DCTDecode); cairo frees its copy with the surface.
    auto *copy = static_cast<unsigned char *>(std::malloc(size));
    if (copy == nullptr) {
        cairo_surface_destroy(surface);
        throw std::bad_alloc();
    }
    std::memcpy(copy, jpeg, size);
    const cairo_status_t attached = cairo_surface_set_mime_data(surface, CAIRO_MIME_TYPE_JPEG, copy, static_cast<unsigned long>(size), std::free, copy);
    if (attached != CAIRO_STATUS_SUCCESS) {
        std::free(copy);
        cairo_surface_destroy(surface);
        throw std::runtime_error(status_message(attached));
    }
    return surface;
}

} // namespace

extern "C" int wm_pdf_create(double width, double height, wm_pdf **out, char *err, size_t err_len) {
    *out = nullptr;
    return guarded(err, err_len, "starting the PDF", [&] {
        if (!(width > 0 && height > 0 && width <= 14400 && height <= 14400))
            throw std::invalid_argument("a page must be 0 to 14,400 points wide and high");
        auto pdf = new wm_pdf();
        pdf->surface = cairo_pdf_surface_create_for_stream(append, &pdf->bytes, width, height);
        if (cairo_surface_status(pdf->surface) != CAIRO_STATUS_SUCCESS) {
            const std::string message = status_message(cairo_surface_status(pdf->surface));
            delete pdf;
            throw std::runtime_error(message);
        }
        cairo_pdf_surface_set_metadata(pdf->surface, CAIRO_PDF_METADATA_CREATOR, "Waymark");
        pdf->cr = cairo_create(pdf->surface);
        if (cairo_status(pdf->cr) != CAIRO_STATUS_SUCCESS) {
            const std::string message = status_message(cairo_status(pdf->cr));
            delete pdf;
            throw std::runtime_error(message);
        }
        cairo_set_line_join(pdf->cr, CAIRO_LINE_JOIN_ROUND);
        cairo_set_line_cap(pdf->cr, CAIRO_LINE_CAP_ROUND);
        *out = pdf;
        return 0;
    });
}

extern "C" void wm_pdf_free(wm_pdf *pdf) { delete pdf; }

extern "C" void wm_pdf_set_title(wm_pdf *pdf, const char *utf8) {
    if (!usable(pdf) || utf8 == nullptr) return;
    cairo_pdf_surface_set_metadata(pdf->surface, CAIRO_PDF_METADATA_TITLE, utf8);
}

extern "C" void wm_pdf_new_page(wm_pdf *pdf) {
    if (usable(pdf)) cairo_show_page(pdf->cr);
}

extern "C" void wm_pdf_set_colour(wm_pdf *pdf, double red, double green, double blue, double alpha) {
    if (usable(pdf)) cairo_set_source_rgba(pdf->cr, red, green, blue, alpha);
}

extern "C" void wm_pdf_set_line(wm_pdf *pdf, double width, double dash) {
    if (!usable(pdf)) return;
    cairo_set_line_width(pdf->cr, width);
    if (dash > 0) {
        const double dashes[] = {dash, dash};
        cairo_set_dash(pdf->cr, dashes, 2, 0);
    } else {
        cairo_set_dash(pdf->cr, nullptr, 0, 0);
    }
}

extern "C" void wm_pdf_line(wm_pdf *pdf, double x1, double y1, double x2, double y2) {
    if (!usable(pdf)) return;
    cairo_move_to(pdf->cr, x1, y1);
    cairo_line_to(pdf->cr, x2, y2);
    cairo_stroke(pdf->cr);
}

static void paint(wm_pdf *pdf, int fill) {
    if (fill != 0) cairo_fill(pdf->cr);
    else cairo_stroke(pdf->cr);
}

extern "C" void wm_pdf_rectangle(wm_pdf *pdf, double x, double y, double width, double height, int fill) {
    if (!usable(pdf)) return;
    cairo_rectangle(pdf->cr, x, y, width, height);
    paint(pdf, fill);
}

extern "C" void wm_pdf_circle(wm_pdf *pdf, double x, double y, double radius, int fill) {
    if (!usable(pdf) || !(radius > 0)) return;
    cairo_new_sub_path(pdf->cr);
    cairo_arc(pdf->cr, x, y, radius, 0, 2 * M_PI);
    paint(pdf, fill);
}

extern "C" void wm_pdf_polygon(wm_pdf *pdf, const double *xy, int count, int fill) {
    if (!usable(pdf) || xy == nullptr || count < 2) return;
    cairo_move_to(pdf->cr, xy[0], xy[1]);
    for (int i = 1; i < count; i++) cairo_line_to(pdf->cr, xy[2 * i], xy[2 * i + 1]);
    cairo_close_path(pdf->cr);
    paint(pdf, fill);
}

extern "C" double wm_pdf_text_width(wm_pdf *pdf, const char *utf8, double size, int bold) {
    if (!usable(pdf) || utf8 == nullptr) return 0;
    use_font(pdf, size, bold);
    cairo_text_extents_t extents{};
    cairo_text_extents(pdf->cr, utf8, &extents);
    return extents.x_advance;
}

extern "C" void wm_pdf_text(wm_pdf *pdf, double x, double y, const char *utf8, double size, int bold) {
    if (!usable(pdf) || utf8 == nullptr) return;
    use_font(pdf, size, bold);
    cairo_move_to(pdf->cr, x, y);
    cairo_show_text(pdf->cr, utf8);
    cairo_new_path(pdf->cr);
}

extern "C" int wm_pdf_jpeg(wm_pdf *pdf, const uint8_t *jpeg, size_t size, double x, double y, double width, double height,
                           char *err, size_t err_len) {
    try {
        return guarded<BadImage>(err, err_len, "drawing the JPEG", [&] {
            if (pdf == nullptr || pdf->finished) throw std::invalid_argument("the document is finished");
            if (!(width > 0 && height > 0)) throw std::invalid_argument("the image's box must have a size");
            cairo_surface_t *image = jpeg_surface(jpeg, size);
            const double scale_x = width / cairo_image_surface_get_width(image);
            const double scale_y = height / cairo_image_surface_get_height(image);
            cairo_save(pdf->cr);
            cairo_translate(pdf->cr, x, y);
            cairo_scale(pdf->cr, scale_x, scale_y);
            cairo_set_source_surface(pdf->cr, image, 0, 0);
            cairo_paint(pdf->cr);
            cairo_restore(pdf->cr);
            cairo_surface_destroy(image);  // the pattern keeps its own reference until the page is written
            if (cairo_status(pdf->cr) != CAIRO_STATUS_SUCCESS) throw std::runtime_error(status_message(cairo_status(pdf->cr)));
            return 0;
        });
    } catch (const BadImage &bad) {
        report(err, err_len, bad.message);
        return WM_PDF_BAD_IMAGE;
    }
}

extern "C" int wm_pdf_finish(wm_pdf *pdf, wm_buffer *out, char *err, size_t err_len) {
    out->data = nullptr;
    out->size = 0;
    return guarded(err, err_len, "writing the PDF", [&] {
        if (pdf == nullptr || pdf->finished) throw std::invalid_argument("the document is finished already");
        pdf->finished = true;
        const cairo_status_t drawn = cairo_status(pdf->cr);
        cairo_destroy(pdf->cr);
        pdf->cr = nullptr;
        cairo_surface_finish(pdf->surface);
        const cairo_status_t written = cairo_surface_status(pdf->surface);
        if (drawn != CAIRO_STATUS_SUCCESS) throw std::runtime_error(status_message(drawn));
        if (written != CAIRO_STATUS_SUCCESS) throw std::runtime_error(status_message(written));
        if (pdf->bytes.empty()) throw std::runtime_error("cairo wrote nothing");
        auto *data = static_cast<uint8_t *>(std::malloc(pdf->bytes.size()));
        if (data == nullptr) throw std::bad_alloc();
        std::memcpy(data, pdf->bytes.data(), pdf->bytes.size());
        out->data = data;
        out->size = pdf->bytes.size();
        return 0;
    });
}
