// QR search: libjpeg-turbo decodes at reduced scale in greyscale, zxing-cpp reads the codes.
#include "waymark_media.h"
#include "Support.hpp"

#define ZX_USE_UTF8 1  // text() returns UTF-8 std::string (zxing-cpp 1.4 transition switch)
#include <ReadBarcode.h>
#include <turbojpeg.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <vector>

using namespace waymark;

namespace {

struct Decompressor {
    tjhandle handle = tjInitDecompress();
    ~Decompressor() { if (handle != nullptr) tjDestroy(handle); }
};

/// Reads every QR code in a greyscale image into `result`; returns how many were read.
int read_codes(const uint8_t *pixels, int width, int height, wm_qr_result *result) {
    ZXing::DecodeHints hints;
    hints.setFormats(ZXing::BarcodeFormat::QRCode);
    hints.setTryHarder(true);
    hints.setTryRotate(false);  // QR finder patterns are rotation-invariant already
    hints.setMaxNumberOfSymbols(WM_QR_MAX_RESULTS);
    ZXing::ImageView view(pixels, width, height, ZXing::ImageFormat::Lum);
    ZXing::Results found = ZXing::ReadBarcodes(view, hints);
    result->count = 0;
    for (const ZXing::Result &code : found) {
        if (!code.isValid() || result->count >= WM_QR_MAX_RESULTS) continue;
        const std::string text = code.text();  // bound to a local: one string, one pair of iterators
        copy_field(result->texts[result->count], text);
        result->count++;
    }
    result->decoded_width = width;
    result->decoded_height = height;
    return result->count;
}

/// The libjpeg-turbo scaling factor (≤ 1) whose longer side comes closest to `target`.
tjscalingfactor factor_for(int long_side, int target) {
    int count = 0;
    tjscalingfactor *factors = tjGetScalingFactors(&count);
    tjscalingfactor best{1, 1};
    double best_error = 1e300;
    for (int i = 0; i < count; i++) {
        const tjscalingfactor f = factors[i];
        if (f.num > f.denom) continue;
        const double side = TJSCALED(long_side, f);
        const double error = std::fabs(std::log(side / target));
        if (error < best_error) { best = f; best_error = error; }
    }
    return best;
}

} // namespace

extern "C" int wm_find_qr_gray(const uint8_t *pixels, int width, int height, wm_qr_result *result,
                               char *err, size_t err_len) {
    std::memset(result, 0, sizeof *result);
    return guarded(err, err_len, "reading QR codes", [&] {
        read_codes(pixels, width, height, result);
        return 0;
    });
}

extern "C" int wm_find_qr(const uint8_t *jpeg, size_t size, int first_long_side, int max_long_side,
                          wm_qr_result *result, char *err, size_t err_len) {
    return wm_find_qr_accepting(jpeg, size, first_long_side, max_long_side, nullptr, nullptr, result, err, err_len);
}

extern "C" int wm_find_qr_accepting(const uint8_t *jpeg, size_t size, int first_long_side, int max_long_side,
                                    wm_qr_accept accept, void *context, wm_qr_result *result, char *err, size_t err_len) {
    std::memset(result, 0, sizeof *result);
    return guarded(err, err_len, "decoding the JPEG", [&] {
        Decompressor d;
        if (d.handle == nullptr) throw std::runtime_error("libjpeg-turbo could not start");
        int width = 0, height = 0, subsampling = 0, colorspace = 0;
        if (tjDecompressHeader3(d.handle, jpeg, static_cast<unsigned long>(size), &width, &height,
                                &subsampling, &colorspace) != 0)
            throw std::runtime_error(tjGetErrorStr2(d.handle));
        const int long_side = std::max(width, height);
        first_long_side = std::max(first_long_side, 64);
        if (max_long_side <= 0) max_long_side = long_side;
        // Entropy decoding costs the same at every scale, so decode once, at the largest scale
        // searched, and search smaller copies of it first.
        const tjscalingfactor f = factor_for(long_side, std::min(max_long_side, long_side));
        int w = TJSCALED(width, f), h = TJSCALED(height, f);
        std::vector<uint8_t> pixels(static_cast<size_t>(w) * h);
        if (tjDecompress2(d.handle, jpeg, static_cast<unsigned long>(size), pixels.data(), w, 0, h,
                          TJPF_GRAY, TJFLAG_FASTDCT | TJFLAG_FASTUPSAMPLE) != 0 &&
            tjGetErrorCode(d.handle) == TJERR_FATAL)
            throw std::runtime_error(tjGetErrorStr2(d.handle));
        result->decodes = 1;
        // The pyramid: halve (2×2 box average) while the image is at least twice the first size.
        std::vector<std::vector<uint8_t>> levels;
        std::vector<std::pair<int, int>> sizes;
        levels.push_back(std::move(pixels));
        sizes.emplace_back(w, h);
        while (std::max(sizes.back().first, sizes.back().second) >= 2 * first_long_side * 9 / 10) {
            const auto [pw, ph] = sizes.back();
            const int hw = pw / 2, hh = ph / 2;
            const std::vector<uint8_t> &src = levels.back();
            std::vector<uint8_t> half(static_cast<size_t>(hw) * hh);
            for (int y = 0; y < hh; y++) {
                const uint8_t *r0 = &src[static_cast<size_t>(2 * y) * pw], *r1 = r0 + pw;
                uint8_t *out = &half[static_cast<size_t>(y) * hw];
                for (int x = 0; x < hw; x++)
                    out[x] = static_cast<uint8_t>((r0[2 * x] + r0[2 * x + 1] + r1[2 * x] + r1[2 * x + 1] + 2) / 4);
            }
            levels.push_back(std::move(half));
            sizes.emplace_back(hw, hh);
        }
        // Stop at the first level where a code is read that the caller accepts; codes it does not
        // accept (another app's) do not hide a smaller one that only a larger level shows.
        wm_qr_result level{};
        bool kept = false;
        for (size_t i = levels.size(); i-- > 0;) {
            if (read_codes(levels[i].data(), sizes[i].first, sizes[i].second, &level) == 0) continue;
            const bool accepted = accept == nullptr ||
                std::any_of(level.texts, level.texts + level.count, [&](const char *text) { return accept(text, context) != 0; });
            if (accepted || !kept) {
                level.decodes = 1;
                *result = level;
                kept = true;
            }
            if (accepted) break;
        }
        if (!kept) { result->decoded_width = sizes.front().first; result->decoded_height = sizes.front().second; }
        result->decodes = 1;
        return 0;
    });
}
