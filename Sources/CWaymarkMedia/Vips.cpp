// Images through libvips: the content check of an upload (format and size from the header only)
// and its derivatives (shrink-on-load, upright, stripped of every metadata tag, JPEG or WebP).
#include "waymark_vips.h"
#include "Support.hpp"

#include <vips/vips.h>

#include <sys/stat.h>

#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <mutex>
#include <stdexcept>
#include <string>

using namespace waymark;

namespace {

/// A refusal with one of the header's return codes; `guarded` passes it through to `run`.
struct Refusal {
    int code;
    std::string message;
};

/// The loaders accepted, by the class libvips names their file, buffer and source variants after.
struct Accepted {
    const char *base_class;     // unblocked, with its subclasses …File, …Buffer and …Source
    int format;
};
constexpr Accepted accepted[] = {
    {"VipsForeignLoadJpeg", WM_VIPS_FORMAT_JPEG},
    {"VipsForeignLoadPng", WM_VIPS_FORMAT_PNG},
    {"VipsForeignLoadWebp", WM_VIPS_FORMAT_WEBP},
    {"VipsForeignLoadHeif", WM_VIPS_FORMAT_HEIF},
    {"VipsForeignLoadTiff", WM_VIPS_FORMAT_TIFF},
};

/// libvips's warnings (a damaged tile, an unknown TIFF tag) would go to stderr; the return codes carry what matters.
void drop_log(const gchar *, GLogLevelFlags, const gchar *, gpointer) {}

/// Starts libvips once per process: no operation cache, quiet, and only the accepted loaders.
bool ensure_vips(std::string &failure) {
    static std::once_flag once;
    static bool started = false;
    static std::string why;
    std::call_once(once, [] {
        if (VIPS_INIT("waymark") != 0) {
            char *text = vips_error_buffer_copy();
            why = text != nullptr ? text : "";
            g_free(text);
            return;
        }
        vips_cache_set_max(0);
        vips_cache_set_max_mem(0);
        vips_cache_set_max_files(0);
        g_log_set_handler("VIPS", static_cast<GLogLevelFlags>(G_LOG_LEVEL_WARNING | G_LOG_LEVEL_MESSAGE | G_LOG_LEVEL_INFO | G_LOG_LEVEL_DEBUG),
                          drop_log, nullptr);
        vips_operation_block_set("VipsForeignLoad", TRUE);
        for (const auto &loader : accepted) vips_operation_block_set(loader.base_class, FALSE);
        started = true;
    });
    if (!started) failure = "libvips could not start" + (why.empty() ? std::string() : ": " + why);
    return started;
}

/// libvips's last error message (a global buffer: under concurrent calls it may hold another call's message too), cleared.
std::string vips_message(const char *fallback) {
    char *text = vips_error_buffer_copy();
    std::string message = text != nullptr ? text : "";
    g_free(text);
    while (!message.empty() && (message.back() == '\n' || message.back() == ' ')) message.pop_back();
    // Several lines: keep them, on one line.
    for (auto &c : message) if (c == '\n') c = ';';
    return message.empty() ? fallback : message;
}

/// Frees libvips's per-thread buffers when a call ends: the caller's threads are not libvips's own.
struct ThreadCleanup {
    ~ThreadCleanup() { vips_thread_shutdown(); }
};

struct Image {
    VipsImage *image = nullptr;
    Image() = default;
    Image(const Image &) = delete;
    Image &operator=(const Image &) = delete;
    ~Image() { if (image != nullptr) g_object_unref(image); }
    /// Replaces the image by the next stage of the pipeline.
    void replace(VipsImage *next) {
        if (image != nullptr) g_object_unref(image);
        image = next;
    }
};

/// The image to work on: a file, or bytes in memory.
struct Input {
    const char *path = nullptr;
    const uint8_t *data = nullptr;
    size_t size = 0;

    std::string name() const { return path != nullptr ? std::string(path) : "the image in memory"; }

    /// Throws -1's std::runtime_error when the file cannot be opened as a regular file.
    void check_readable() const {
        if (path == nullptr) return;
        struct stat info {};
        if (::stat(path, &info) != 0) throw std::runtime_error(std::string("cannot open ") + path + ": " + std::strerror(errno));
        if (!S_ISREG(info.st_mode)) throw std::runtime_error(std::string(path) + " is not a regular file");
        std::FILE *file = std::fopen(path, "rb");
        if (file == nullptr) throw std::runtime_error(std::string("cannot open ") + path + ": " + std::strerror(errno));
        std::fclose(file);
    }

    /// The accepted loader libvips picks by content (its nickname in `nickname`, e.g. "jpegload"),
    /// or a WM_VIPS_NOT_IMAGE refusal. libvips names the loader's class ("VipsForeignLoadJpegFile"),
    /// and names a blocked loader too: the list decides.
    const Accepted &loader(std::string &nickname) const {
        const char *found = nullptr;
        if (path != nullptr) {
            found = vips_foreign_find_load(path);
        } else if (data != nullptr && size > 0) {
            found = vips_foreign_find_load_buffer(data, size);
        }
        if (found == nullptr) {
            vips_error_clear();
            throw Refusal{WM_VIPS_NOT_IMAGE, "not an image in a format accepted here (JPEG, PNG, WebP, HEIF/HEIC, TIFF)"};
        }
        const std::string class_name = found;
        const GType type = g_type_from_name(found);
        const char *nick = type != 0 ? vips_nickname_find(type) : nullptr;
        nickname = nick != nullptr ? nick : class_name;
        for (const auto &loader : accepted) {
            const std::string base = loader.base_class;
            if (class_name == base + "File" || class_name == base + "Buffer" || class_name == base + "Source") return loader;
        }
        throw Refusal{WM_VIPS_NOT_IMAGE, "an image format that is not accepted here (libvips would read it with " + nickname +
                                             "); accepted: JPEG, PNG, WebP, HEIF/HEIC, TIFF"};
    }

    /// The image with its header read and no pixel decoded, or a WM_VIPS_BROKEN refusal.
    void open_header(Image &out) const {
        if (path != nullptr) {
            out.image = vips_image_new_from_file(path, "access", VIPS_ACCESS_SEQUENTIAL, "fail_on", VIPS_FAIL_ON_ERROR, nullptr);
        } else {
            out.image = vips_image_new_from_buffer(data, size, "", "access", VIPS_ACCESS_SEQUENTIAL, "fail_on", VIPS_FAIL_ON_ERROR, nullptr);
        }
        if (out.image == nullptr) throw Refusal{WM_VIPS_BROKEN, "the image's header cannot be read: " + vips_message("no reason given")};
    }

    /// Shrink-on-load to fit width × height (never enlarged), sRGB, upright by its own orientation unless
    /// `no_rotate`; decoding is lazy, done by the encoder.
    ///
    /// An embedded ICC profile is converted to sRGB. An RGB image without one is taken as sRGB (the
    /// fallback import profile: without it libvips 8.14 shifts untagged colours, pure blue to
    /// 84,15,253); a CMYK one without one gets libvips's CMYK fallback. `stored` is the header's
    /// interpretation.
    void thumbnail(int width, int height, bool square, bool no_rotate, VipsInterpretation stored, Image &out) const {
        const VipsInteresting crop = square ? VIPS_INTERESTING_CENTRE : VIPS_INTERESTING_NONE;
        const gboolean keep = no_rotate ? TRUE : FALSE;
        // A greyscale image without a profile gets none: libvips cannot apply an RGB one to it
        // ("profile incompatible with image") and its grey needs no conversion.
        const bool grey = stored == VIPS_INTERPRETATION_B_W || stored == VIPS_INTERPRETATION_GREY16;
        const char *import_profile = stored == VIPS_INTERPRETATION_CMYK ? "cmyk" : "srgb";
        int status;
        if (path != nullptr) {
            status = grey ? vips_thumbnail(path, &out.image, width, "height", height, "size", VIPS_SIZE_DOWN, "crop", crop,
                                           "no_rotate", keep, "export_profile", "srgb", "fail_on", VIPS_FAIL_ON_ERROR, nullptr)
                          : vips_thumbnail(path, &out.image, width, "height", height, "size", VIPS_SIZE_DOWN, "crop", crop,
                                           "no_rotate", keep, "import_profile", import_profile, "export_profile", "srgb",
                                           "fail_on", VIPS_FAIL_ON_ERROR, nullptr);
        } else {
            uint8_t *bytes = const_cast<uint8_t *>(data);
            status = grey ? vips_thumbnail_buffer(bytes, size, &out.image, width, "height", height, "size", VIPS_SIZE_DOWN,
                                                  "crop", crop, "no_rotate", keep, "export_profile", "srgb",
                                                  "fail_on", VIPS_FAIL_ON_ERROR, nullptr)
                          : vips_thumbnail_buffer(bytes, size, &out.image, width, "height", height, "size", VIPS_SIZE_DOWN,
                                                  "crop", crop, "no_rotate", keep, "import_profile", import_profile,
                                                  "export_profile", "srgb", "fail_on", VIPS_FAIL_ON_ERROR, nullptr);
        }
        if (status != 0 || out.image == nullptr) throw Refusal{WM_VIPS_BROKEN, "the image cannot be decoded: " + vips_message("no reason given")};
    }
};

/// Reads the header and checks the pixel limit; fills `probe`.
void read_probe(const Input &input, int64_t max_pixels, wm_vips_probe &probe, Image &header) {
    input.check_readable();
    std::string nickname;
    const Accepted &loader = input.loader(nickname);
    probe.format = loader.format;
    copy_field(probe.loader, nickname);
    input.open_header(header);
    probe.width = vips_image_get_width(header.image);
    probe.height = vips_image_get_height(header.image);
    probe.orientation = vips_image_get_orientation(header.image);
    if (probe.width <= 0 || probe.height <= 0) throw Refusal{WM_VIPS_BROKEN, "the image's header gives no size"};
    const int64_t pixels = static_cast<int64_t>(probe.width) * probe.height;
    if (max_pixels > 0 && pixels > max_pixels) {
        throw Refusal{WM_VIPS_TOO_MANY_PIXELS, std::to_string(probe.width) + " × " + std::to_string(probe.height) + " pixels (" +
                                                   std::to_string(pixels) + ") is over the limit of " + std::to_string(max_pixels)};
    }
}

template <typename Body>
int run(char *err, size_t err_len, const char *what, Body body) {
    try {
        std::string failure;
        if (!ensure_vips(failure)) {
            report(err, err_len, failure);
            return -1;
        }
        ThreadCleanup cleanup;
        return guarded<Refusal>(err, err_len, what, body);
    } catch (const Refusal &refusal) {
        report(err, err_len, refusal.message);
        return refusal.code;
    }
}

int probe(const Input &input, int64_t max_pixels, wm_vips_probe *out, char *err, size_t err_len) {
    std::memset(out, 0, sizeof *out);
    return run(err, err_len, "reading the image's header", [&] {
        Image header;
        read_probe(input, max_pixels, *out, header);
        return 0;
    });
}

/// Turns the image upright by the EXIF `orientation` given (1–8), whatever its own tag says.
void turn_upright(int orientation, Image &image) {
    VipsImage *tagged = nullptr;
    if (vips_copy(image.image, &tagged, nullptr) != 0) throw Refusal{WM_VIPS_BROKEN, "copying the image: " + vips_message("no reason given")};
    image.replace(tagged);
    vips_image_set_int(image.image, VIPS_META_ORIENTATION, orientation);
    VipsImage *upright = nullptr;
    if (vips_autorot(image.image, &upright, nullptr) != 0) throw Refusal{WM_VIPS_BROKEN, "turning the image upright: " + vips_message("no reason given")};
    image.replace(upright);
}

/// Removes every metadata field (EXIF, XMP, IPTC, ICC profile, orientation, …) from a private copy:
/// libvips 8.14.1's webpsave writes EXIF and XMP even with strip set, so nothing is left for a saver to write.
void strip_metadata(Image &image) {
    VipsImage *copy = nullptr;
    if (vips_copy(image.image, &copy, nullptr) != 0) throw Refusal{WM_VIPS_BROKEN, "copying the image: " + vips_message("no reason given")};
    image.replace(copy);
    gchar **fields = vips_image_get_fields(image.image);
    for (gchar **field = fields; field != nullptr && *field != nullptr; field++) vips_image_remove(image.image, *field);
    g_strfreev(fields);
}

uint32_t le32(const uint8_t *p) { return uint32_t(p[0]) | uint32_t(p[1]) << 8 | uint32_t(p[2]) << 16 | uint32_t(p[3]) << 24; }
void put_le32(uint8_t *p, uint32_t v) { p[0] = uint8_t(v); p[1] = uint8_t(v >> 8); p[2] = uint8_t(v >> 16); p[3] = uint8_t(v >> 24); }

/// Removes the EXIF, XMP and ICC chunks of a WebP file in place and clears their flags in its VP8X
/// header; returns the new length. libvips 8.14.1's webpsave writes an EXIF chunk it rebuilds
/// from the image's resolution even when every field is removed and strip is set.
size_t strip_webp_chunks(uint8_t *bytes, size_t length) {
    if (length < 12 || std::memcmp(bytes, "RIFF", 4) != 0 || std::memcmp(bytes + 8, "WEBP", 4) != 0)
        throw std::runtime_error("libvips wrote no WebP file");
    size_t read = 12, write = 12;
    while (read + 8 <= length) {
        const uint32_t size = le32(bytes + read + 4);
        const size_t chunk = 8 + size_t(size) + (size & 1);
        if (chunk > length - read) throw std::runtime_error("libvips wrote a WebP chunk past the end of the file");
        const bool metadata = std::memcmp(bytes + read, "EXIF", 4) == 0 || std::memcmp(bytes + read, "XMP ", 4) == 0 ||
                              std::memcmp(bytes + read, "ICCP", 4) == 0;
        if (!metadata) {
            std::memmove(bytes + write, bytes + read, chunk);
            if (std::memcmp(bytes + write, "VP8X", 4) == 0 && size >= 1) bytes[write + 8] &= uint8_t(~(0x20 | 0x08 | 0x04));
            write += chunk;
        }
        read += chunk;
    }
    put_le32(bytes + 4, uint32_t(write - 8));
    return write;
}

/// 8-bit sRGB or greyscale, the alpha flattened onto white for JPEG.
void prepare_for(int encoding, Image &image) {
    VipsImage *next = nullptr;
    const int colour_bands = image.image->Bands - (vips_image_hasalpha(image.image) ? 1 : 0);
    if (vips_colourspace_issupported(image.image)) {
        const VipsInterpretation target = colour_bands < 3 ? VIPS_INTERPRETATION_B_W : VIPS_INTERPRETATION_sRGB;
        if (vips_image_get_interpretation(image.image) != target || vips_image_get_format(image.image) != VIPS_FORMAT_UCHAR) {
            if (vips_colourspace(image.image, &next, target, nullptr) != 0) throw Refusal{WM_VIPS_BROKEN, "converting to sRGB: " + vips_message("no reason given")};
            image.replace(next);
        }
    }
    if (encoding == WM_VIPS_ENCODE_JPEG && vips_image_hasalpha(image.image)) {
        VipsArrayDouble *white = vips_array_double_newv(1, 255.0);
        const int status = vips_flatten(image.image, &next, "background", white, nullptr);
        vips_area_unref(VIPS_AREA(white));
        if (status != 0) throw Refusal{WM_VIPS_BROKEN, "flattening the transparency: " + vips_message("no reason given")};
        image.replace(next);
    }
}

int derive(const Input &input, const wm_vips_derive_options *options, wm_vips_image *out, char *err, size_t err_len) {
    std::memset(out, 0, sizeof *out);
    return run(err, err_len, "making the derivative", [&]() -> int {
        if (options == nullptr || options->size <= 0) throw std::invalid_argument("the derivative's size must be positive");
        if (options->encoding != WM_VIPS_ENCODE_JPEG && options->encoding != WM_VIPS_ENCODE_WEBP)
            throw std::invalid_argument("unknown encoding " + std::to_string(options->encoding));
        const int quality = options->quality < 1 ? 1 : (options->quality > 100 ? 100 : options->quality);
        wm_vips_probe probe{};
        VipsInterpretation stored;
        {
            Image header;
            read_probe(input, options->max_pixels, probe, header);
            stored = vips_image_get_interpretation(header.image);
        }
        // A square is the largest centred one, shrunk to the size asked for when larger: never enlarged.
        int width = options->size, height = options->size;
        if (options->square != 0) {
            const int short_side = probe.width < probe.height ? probe.width : probe.height;
            if (short_side < width) width = height = short_side;
        }
        // The size asked for is a square box (or a square), so turning upright after shrinking gives the same size.
        const bool override_orientation = options->orientation >= 1 && options->orientation <= 8;
        Image image;
        input.thumbnail(width, height, options->square != 0, override_orientation, stored, image);
        if (override_orientation) turn_upright(options->orientation, image);
        prepare_for(options->encoding, image);
        strip_metadata(image);
        void *bytes = nullptr;
        size_t length = 0;
        int status;
        if (options->encoding == WM_VIPS_ENCODE_JPEG) {
            status = vips_jpegsave_buffer(image.image, &bytes, &length, "Q", quality, "strip", TRUE, "interlace", TRUE,
                                          "optimize_coding", TRUE, nullptr);
        } else {
            status = vips_webpsave_buffer(image.image, &bytes, &length, "Q", quality, "strip", TRUE, nullptr);
        }
        // The pixels are decoded while encoding: a damaged or truncated image fails here.
        if (status != 0 || bytes == nullptr) {
            g_free(bytes);
            throw Refusal{WM_VIPS_BROKEN, "the image cannot be decoded: " + vips_message("no reason given")};
        }
        if (options->encoding == WM_VIPS_ENCODE_WEBP) {
            try {
                length = strip_webp_chunks(static_cast<uint8_t *>(bytes), length);
            } catch (...) {
                g_free(bytes);
                throw;
            }
        }
        out->data = static_cast<uint8_t *>(bytes);
        out->size = length;
        out->width = vips_image_get_width(image.image);
        out->height = vips_image_get_height(image.image);
        return 0;
    });
}

int load_gray(const Input &input, int max_long_side, int64_t max_pixels, wm_vips_image *out, char *err, size_t err_len) {
    std::memset(out, 0, sizeof *out);
    return run(err, err_len, "decoding the image to grey", [&]() -> int {
        if (max_long_side <= 0) throw std::invalid_argument("the longer side must be positive");
        wm_vips_probe probe{};
        VipsInterpretation stored;
        {
            Image header;
            read_probe(input, max_pixels, probe, header);
            stored = vips_image_get_interpretation(header.image);
        }
        Image image;
        input.thumbnail(max_long_side, max_long_side, false, false, stored, image);
        // 8-bit sRGB or greyscale with the transparency on white (a code drawn on a transparent
        // background reads as dark on light), then its luminance alone.
        prepare_for(WM_VIPS_ENCODE_JPEG, image);
        VipsImage *next = nullptr;
        if (vips_image_get_interpretation(image.image) != VIPS_INTERPRETATION_B_W) {
            if (vips_colourspace(image.image, &next, VIPS_INTERPRETATION_B_W, nullptr) != 0)
                throw Refusal{WM_VIPS_BROKEN, "converting to grey: " + vips_message("no reason given")};
            image.replace(next);
        }
        if (image.image->Bands > 1) {
            if (vips_extract_band(image.image, &next, 0, nullptr) != 0)
                throw Refusal{WM_VIPS_BROKEN, "taking the grey band: " + vips_message("no reason given")};
            image.replace(next);
        }
        if (vips_image_get_format(image.image) != VIPS_FORMAT_UCHAR) {
            if (vips_cast_uchar(image.image, &next, nullptr) != 0)
                throw Refusal{WM_VIPS_BROKEN, "converting to 8 bits: " + vips_message("no reason given")};
            image.replace(next);
        }
        // The pixels are decoded here: a damaged or truncated image fails.
        size_t length = 0;
        void *pixels = vips_image_write_to_memory(image.image, &length);
        const int width = vips_image_get_width(image.image), height = vips_image_get_height(image.image);
        if (pixels == nullptr) throw Refusal{WM_VIPS_BROKEN, "the image cannot be decoded: " + vips_message("no reason given")};
        if (width <= 0 || height <= 0 || length != static_cast<size_t>(width) * static_cast<size_t>(height)) {
            g_free(pixels);
            throw std::runtime_error("libvips decoded " + std::to_string(length) + " bytes for " + std::to_string(width) + " × " +
                                     std::to_string(height) + " grey pixels");
        }
        out->data = static_cast<uint8_t *>(pixels);
        out->size = length;
        out->width = width;
        out->height = height;
        return 0;
    });
}

} // namespace

extern "C" int wm_vips_load_gray(const uint8_t *data, size_t size, int max_long_side, int64_t max_pixels, wm_vips_image *out,
                                 char *err, size_t err_len) {
    return load_gray(Input{nullptr, data, size}, max_long_side, max_pixels, out, err, err_len);
}

extern "C" void wm_vips_image_free(wm_vips_image *image) {
    if (image == nullptr) return;
    g_free(image->data);
    image->data = nullptr;
    image->size = 0;
    image->width = image->height = 0;
}

extern "C" int wm_vips_probe_file(const char *path, int64_t max_pixels, wm_vips_probe *out, char *err, size_t err_len) {
    if (path == nullptr) {
        std::memset(out, 0, sizeof *out);
        report(err, err_len, "no path given");
        return -1;
    }
    return probe(Input{path, nullptr, 0}, max_pixels, out, err, err_len);
}

extern "C" int wm_vips_probe_memory(const uint8_t *data, size_t size, int64_t max_pixels, wm_vips_probe *out,
                                    char *err, size_t err_len) {
    return probe(Input{nullptr, data, size}, max_pixels, out, err, err_len);
}

extern "C" int wm_vips_derive_file(const char *path, const wm_vips_derive_options *options, wm_vips_image *out,
                                   char *err, size_t err_len) {
    if (path == nullptr) {
        std::memset(out, 0, sizeof *out);
        report(err, err_len, "no path given");
        return -1;
    }
    return derive(Input{path, nullptr, 0}, options, out, err, err_len);
}

extern "C" int wm_vips_derive_memory(const uint8_t *data, size_t size, const wm_vips_derive_options *options,
                                     wm_vips_image *out, char *err, size_t err_len) {
    return derive(Input{nullptr, data, size}, options, out, err, err_len);
}
