// Photo metadata through exiv2: reading capture times and positions, XMP sidecars. GPS goes into
// photos through WaymarkMedia's append-only writer, which moves no byte of their structure.
#include "waymark_media.h"
#include "Support.hpp"

#include <exiv2/exiv2.hpp>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <algorithm>
#include <memory>
#include <mutex>
#include <utility>
#include <vector>
#include <stdexcept>

using namespace waymark;

void waymark::ensure_exiv2() {
    static std::once_flag once;
    std::call_once(once, [] {
        Exiv2::LogMsg::setLevel(Exiv2::LogMsg::mute);
        Exiv2::XmpParser::initialize();
        Exiv2::enableBMFF(true);
    });
}

namespace {

std::string string_of(const Exiv2::ExifData &exif, const char *key) {
    auto it = exif.findKey(Exiv2::ExifKey(key));
    if (it == exif.end() || it->count() == 0) return {};
    std::string value = it->toString();
    while (!value.empty() && (value.back() == ' ' || value.back() == '\0')) value.pop_back();
    return value;
}

/// Signed degrees from an Exif GPS coordinate (three rationals) and its N/S/E/W reference.
bool coordinate(const Exiv2::ExifData &exif, const char *key, const char *ref_key, double &out) {
    auto it = exif.findKey(Exiv2::ExifKey(key));
    if (it == exif.end() || it->count() < 3) return false;
    double value = 0, scale = 1;
    for (long i = 0; i < 3; i++) {
        Exiv2::Rational r = it->toRational(i);
        if (r.second == 0) return i > 0;  // "d/1 m/1 0/0" still carries d and m
        value += static_cast<double>(r.first) / r.second / scale;
        scale *= 60;
    }
    std::string ref = string_of(exif, ref_key);
    if (ref == "S" || ref == "W") value = -value;
    out = value;
    return std::isfinite(value);
}

std::string rational(double value, long denominator) {
    char text[64];
    std::snprintf(text, sizeof text, "%lld/%ld", static_cast<long long>(std::llround(value * denominator)), denominator);
    return text;
}

int copy_out(const void *bytes, size_t size, wm_buffer *out) {
    out->data = static_cast<uint8_t *>(std::malloc(size > 0 ? size : 1));
    if (out->data == nullptr) throw std::bad_alloc();
    if (size > 0) std::memcpy(out->data, bytes, size);
    out->size = size;
    return 0;
}

auto open_image(const uint8_t *data, size_t size) {
    ensure_exiv2();
    if (data == nullptr || size == 0) throw std::runtime_error("the file is empty");
    auto image = Exiv2::ImageFactory::open(data, size);
    if (image.get() == nullptr) throw std::runtime_error("not an image format exiv2 knows");
    image->readMetadata();
    return image;
}

} // namespace

extern "C" void wm_buffer_free(wm_buffer *buffer) {
    if (buffer == nullptr) return;
    std::free(buffer->data);
    buffer->data = nullptr;
    buffer->size = 0;
}

extern "C" int wm_read_info(const uint8_t *data, size_t size, wm_info *info, wm_buffer *preview,
                            char *err, size_t err_len) {
    std::memset(info, 0, sizeof *info);
    if (preview != nullptr) *preview = wm_buffer{nullptr, 0};
    return guarded(err, err_len, "reading metadata", [&] {
        auto image = open_image(data, size);
        const Exiv2::ExifData &exif = image->exifData();
        copy_field(info->date_time_original, string_of(exif, "Exif.Photo.DateTimeOriginal"));
        copy_field(info->subsec_time_original, string_of(exif, "Exif.Photo.SubSecTimeOriginal"));
        copy_field(info->offset_time_original, string_of(exif, "Exif.Photo.OffsetTimeOriginal"));
        copy_field(info->create_date, string_of(exif, "Exif.Photo.DateTimeDigitized"));
        copy_field(info->subsec_time_digitized, string_of(exif, "Exif.Photo.SubSecTimeDigitized"));
        copy_field(info->offset_time_digitized, string_of(exif, "Exif.Photo.OffsetTimeDigitized"));
        copy_field(info->make, string_of(exif, "Exif.Image.Make"));
        copy_field(info->model, string_of(exif, "Exif.Image.Model"));
        copy_field(info->mime_type, image->mimeType());
        double lat = 0, lon = 0;
        if (coordinate(exif, "Exif.GPSInfo.GPSLatitude", "Exif.GPSInfo.GPSLatitudeRef", lat) &&
            coordinate(exif, "Exif.GPSInfo.GPSLongitude", "Exif.GPSInfo.GPSLongitudeRef", lon)) {
            info->has_gps = 1;
            info->gps_latitude = lat;
            info->gps_longitude = lon;
        }
        int type = Exiv2::ImageFactory::getType(data, size);
        info->is_jpeg = type == Exiv2::ImageType::jpeg;
        info->pixel_width = image->pixelWidth();
        info->pixel_height = image->pixelHeight();
        auto orientation = exif.findKey(Exiv2::ExifKey("Exif.Image.Orientation"));
        if (orientation != exif.end() && orientation->count() > 0) {
            const long value = orientation->toLong(0);
            if (value >= 1 && value <= 8) info->orientation = static_cast<int>(value);
        }
        if (preview != nullptr && !info->is_jpeg) {
            Exiv2::PreviewManager manager(*image);
            Exiv2::PreviewPropertiesList list = manager.getPreviewProperties();
            const Exiv2::PreviewProperties *best = nullptr;
            for (const auto &p : list) {
                if (p.mimeType_ != "image/jpeg") continue;
                if (best == nullptr || p.width_ * p.height_ > best->width_ * best->height_) best = &p;
            }
            if (best != nullptr) {
                Exiv2::PreviewImage image = manager.getPreviewImage(*best);
                copy_out(image.pData(), image.size(), preview);
            }
        }
        return 0;
    });
}

extern "C" int wm_read_previews(const uint8_t *data, size_t size, wm_preview *previews, int capacity, int *count,
                                char *err, size_t err_len) {
    *count = 0;
    return guarded(err, err_len, "reading the embedded previews", [&] {
        auto image = open_image(data, size);
        Exiv2::PreviewManager manager(*image);
        Exiv2::PreviewPropertiesList list = manager.getPreviewProperties();
        list.erase(std::remove_if(list.begin(), list.end(), [](const Exiv2::PreviewProperties &p) {
            return p.mimeType_ != "image/jpeg";
        }), list.end());
        std::stable_sort(list.begin(), list.end(), [](const Exiv2::PreviewProperties &a, const Exiv2::PreviewProperties &b) {
            const uint64_t pa = uint64_t(a.width_) * a.height_, pb = uint64_t(b.width_) * b.height_;
            if (pa != 0 && pb != 0 && pa != pb) return pa < pb;
            return a.size_ < b.size_;
        });
        std::vector<Exiv2::PreviewImage> chosen;
        for (const auto &p : list) {
            if (static_cast<int>(chosen.size()) >= capacity) break;
            Exiv2::PreviewImage preview = manager.getPreviewImage(p);
            if (preview.size() == 0) continue;
            const bool seen = std::any_of(chosen.begin(), chosen.end(), [&](const Exiv2::PreviewImage &other) {
                return other.size() == preview.size() && std::memcmp(other.pData(), preview.pData(), preview.size()) == 0;
            });
            if (!seen) chosen.push_back(preview);
        }
        try {
            for (const auto &preview : chosen) {
                wm_preview &out = previews[*count];
                out = wm_preview{{nullptr, 0}, static_cast<int>(preview.width()), static_cast<int>(preview.height())};
                copy_out(preview.pData(), preview.size(), &out.jpeg);
                (*count)++;
            }
        } catch (...) {
            for (int i = 0; i < *count; i++) wm_buffer_free(&previews[i].jpeg);
            *count = 0;
            throw;
        }
        return 0;
    });
}

namespace {
/// XMP's GPSCoordinate: "DDD,MM.mmmmmmmK" with K one of N, S, E, W.
std::string xmp_coordinate(double degrees, char positive, char negative) {
    char ref = degrees < 0 ? negative : positive;
    degrees = std::fabs(degrees);
    int d = static_cast<int>(degrees);
    double minutes = (degrees - d) * 60.0;
    char text[64];
    std::snprintf(text, sizeof text, "%d,%.8f%c", d, minutes, ref);
    return text;
}
} // namespace

extern "C" int wm_make_sidecar(const uint8_t *existing, size_t existing_size, const wm_gps *gps,
                               wm_buffer *out, char *err, size_t err_len) {
    *out = wm_buffer{nullptr, 0};
    return guarded(err, err_len, "writing the XMP sidecar", [&] {
        ensure_exiv2();
        Exiv2::XmpData xmp;
        if (existing != nullptr && existing_size > 0) {
            std::string packet(reinterpret_cast<const char *>(existing), existing_size);
            if (Exiv2::XmpParser::decode(xmp, packet) != 0)
                throw std::runtime_error("the existing sidecar is not valid XMP; move it aside and run again");
        }
        for (auto it = xmp.begin(); it != xmp.end();) {
            if (it->key().rfind("Xmp.exif.GPS", 0) == 0) it = xmp.erase(it); else ++it;
        }
        xmp["Xmp.exif.GPSVersionID"] = "2.3.0.0";
        xmp["Xmp.exif.GPSLatitude"] = xmp_coordinate(gps->latitude, 'N', 'S');
        xmp["Xmp.exif.GPSLongitude"] = xmp_coordinate(gps->longitude, 'E', 'W');
        if (gps->has_altitude) {
            xmp["Xmp.exif.GPSAltitudeRef"] = gps->altitude < 0 ? "1" : "0";
            xmp["Xmp.exif.GPSAltitude"] = rational(std::fabs(gps->altitude), 1000);
        }
        if (gps->has_accuracy) xmp["Xmp.exif.GPSHPositioningError"] = rational(gps->accuracy, 100);
        char stamp[64];
        std::snprintf(stamp, sizeof stamp, "%04d-%02d-%02dT%02d:%02d:%06.3fZ", gps->year, gps->month,
                      gps->day, gps->hour, gps->minute, gps->second < 0 ? 0 : gps->second);
        xmp["Xmp.exif.GPSTimeStamp"] = stamp;
        xmp["Xmp.exif.GPSMapDatum"] = "WGS-84";
        std::string packet;
        if (Exiv2::XmpParser::encode(packet, xmp, Exiv2::XmpParser::omitPacketWrapper | Exiv2::XmpParser::useCompactFormat) != 0)
            throw std::runtime_error("exiv2 could not serialise the XMP packet");
        return copy_out(packet.data(), packet.size(), out);
    });
}
