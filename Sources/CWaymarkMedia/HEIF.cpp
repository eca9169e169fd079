// HEIF/HEIC decoding: libheif (with libde265 for HEVC) decodes the image, the luma plane is kept.
#include "waymark_heif.h"
#include "Support.hpp"

#include <libheif/heif.h>

#include <cstdlib>
#include <mutex>
#include <stdexcept>
#include <string>
#include <vector>

using namespace waymark;

namespace {

/// libheif's plugins are registered once per process (heif_init is reference-counted; never undone).
void ensure_libheif() {
    static std::once_flag once;
    std::call_once(once, [] { heif_init(nullptr); });
}

void check(const heif_error &error, const char *what) {
    if (error.code != heif_error_Ok)
        throw std::runtime_error(std::string(what) + ": " + (error.message != nullptr ? error.message : "unknown libheif error"));
}

struct Context {
    heif_context *ctx = heif_context_alloc();
    ~Context() { if (ctx != nullptr) heif_context_free(ctx); }
};

struct Handle {
    heif_image_handle *handle = nullptr;
    ~Handle() { if (handle != nullptr) heif_image_handle_release(handle); }
};

struct Image {
    heif_image *image = nullptr;
    ~Image() { if (image != nullptr) heif_image_release(image); }
};

/// A plane of 8-bit or deeper samples read as 8-bit values.
struct Plane {
    const uint8_t *data;
    int stride;      // bytes per row
    int bits;        // bits per sample (8, or 10/12/16 stored in 16-bit words)
    int channels;    // 1 for a luma plane, 3 for interleaved RGB

    int sample(int x, int y) const {
        const uint8_t *row = data + static_cast<size_t>(y) * static_cast<size_t>(stride);
        if (channels == 3) {
            const uint8_t *p = row + 3 * static_cast<size_t>(x);
            return (299 * p[0] + 587 * p[1] + 114 * p[2]) / 1000;
        }
        if (bits <= 8) return row[x];
        const uint16_t value = reinterpret_cast<const uint16_t *>(row)[x];
        return value >> (bits - 8);
    }
};

/// Averages k×k blocks so that the longer side is at most max_long_side (no scaling when it already is, or when it is ≤ 0).
void shrink_into(const Plane &plane, int width, int height, int max_long_side, wm_gray_image *out) {
    const int long_side = width > height ? width : height;
    int k = 1;
    if (max_long_side > 0 && long_side > max_long_side) k = (long_side + max_long_side - 1) / max_long_side;
    const int w = width / k > 0 ? width / k : 1, h = height / k > 0 ? height / k : 1;
    const int kx = width >= k ? k : width, ky = height >= k ? k : height;
    auto *pixels = static_cast<uint8_t *>(std::malloc(static_cast<size_t>(w) * static_cast<size_t>(h)));
    if (pixels == nullptr) throw std::runtime_error("out of memory for a " + std::to_string(w) + "×" + std::to_string(h) + " image");
    for (int y = 0; y < h; y++) {
        for (int x = 0; x < w; x++) {
            long long sum = 0;
            for (int dy = 0; dy < ky; dy++)
                for (int dx = 0; dx < kx; dx++) sum += plane.sample(x * k + dx, y * k + dy);
            pixels[static_cast<size_t>(y) * static_cast<size_t>(w) + static_cast<size_t>(x)] = static_cast<uint8_t>(sum / (static_cast<long long>(kx) * ky));
        }
    }
    out->pixels = pixels;
    out->width = w;
    out->height = h;
}

} // namespace

extern "C" void wm_gray_image_free(wm_gray_image *image) {
    if (image == nullptr) return;
    std::free(image->pixels);
    image->pixels = nullptr;
    image->width = image->height = 0;
}

extern "C" int wm_heif_decode_gray(const uint8_t *data, size_t size, int want_thumbnail, int max_long_side,
                                   wm_gray_image *out, char *err, size_t err_len) {
    *out = wm_gray_image{nullptr, 0, 0};
    return guarded(err, err_len, "decoding the HEIF image", [&] {
        ensure_libheif();
        Context context;
        if (context.ctx == nullptr) throw std::runtime_error("libheif could not start");
        check(heif_context_read_from_memory_without_copy(context.ctx, data, size, nullptr), "reading the file");
        Handle primary;
        check(heif_context_get_primary_image_handle(context.ctx, &primary.handle), "finding the primary image");
        Handle thumbnail;
        heif_image_handle *chosen = primary.handle;
        if (want_thumbnail != 0) {
            if (heif_image_handle_get_number_of_thumbnails(primary.handle) < 1) return static_cast<int>(WM_HEIF_NO_THUMBNAIL);
            heif_item_id id = 0;
            if (heif_image_handle_get_list_of_thumbnail_IDs(primary.handle, &id, 1) < 1) return static_cast<int>(WM_HEIF_NO_THUMBNAIL);
            check(heif_image_handle_get_thumbnail(primary.handle, id, &thumbnail.handle), "finding the thumbnail");
            chosen = thumbnail.handle;
        }
        // The coded colour space first (YCbCr for HEVC), whose luma plane needs no conversion.
        Image image;
        check(heif_decode_image(chosen, &image.image, heif_colorspace_undefined, heif_chroma_undefined, nullptr), "decoding");
        Plane plane{nullptr, 0, 8, 1};
        int width = 0, height = 0;
        if (heif_image_has_channel(image.image, heif_channel_Y) != 0) {
            plane.data = heif_image_get_plane_readonly(image.image, heif_channel_Y, &plane.stride);
            plane.bits = heif_image_get_bits_per_pixel_range(image.image, heif_channel_Y);
            width = heif_image_get_width(image.image, heif_channel_Y);
            height = heif_image_get_height(image.image, heif_channel_Y);
        } else {
            // An RGB-coded image: converted by libheif to 8-bit interleaved RGB, luma computed here.
            Image rgb;
            check(heif_decode_image(chosen, &rgb.image, heif_colorspace_RGB, heif_chroma_interleaved_RGB, nullptr), "decoding as RGB");
            std::swap(image.image, rgb.image);
            plane.data = heif_image_get_plane_readonly(image.image, heif_channel_interleaved, &plane.stride);
            plane.channels = 3;
            width = heif_image_get_width(image.image, heif_channel_interleaved);
            height = heif_image_get_height(image.image, heif_channel_interleaved);
        }
        if (plane.data == nullptr || width <= 0 || height <= 0 || plane.bits < 1 || plane.bits > 16)
            throw std::runtime_error("libheif returned no usable image plane");
        if (plane.channels == 1 && plane.stride < (plane.bits > 8 ? 2 : 1) * width)
            throw std::runtime_error("libheif returned an image plane narrower than the image");
        shrink_into(plane, width, height, max_long_side, out);
        return 0;
    });
}
