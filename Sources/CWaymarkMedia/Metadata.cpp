// Photo metadata through exiv2: reading capture times, writing GPS tags, XMP sidecars.
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

/// "d/1 m/1 s/10000" for the absolute value of a coordinate; seconds to 1/10000 (≈3 mm).
std::string dms(double degrees) {
    degrees = std::fabs(degrees);
    long long total = std::llround(degrees * 3600.0 * 10000.0);  // in 1/10000 arc-seconds
    long long d = total / (3600LL * 10000), rest = total % (3600LL * 10000);
    long long m = rest / (60LL * 10000), s = rest % (60LL * 10000);
    char text[96];
    std::snprintf(text, sizeof text, "%lld/1 %lld/1 %lld/10000", d, m, s);
    return text;
}

void set_value(Exiv2::ExifData &exif, const Exiv2::ExifKey &key, Exiv2::TypeId type, const std::string &text) {
    auto value = Exiv2::Value::create(type);  // AutoPtr in exiv2 0.27, UniquePtr in 0.28
    if (value->read(text) != 0) throw std::runtime_error("exiv2 rejected the value " + text + " for " + key.key());
    exif.add(key, value.get());
}

void write_gps(Exiv2::ExifData &exif, const wm_gps &gps) {
    for (auto it = exif.begin(); it != exif.end();) {
        if (it->groupName() == "GPSInfo") it = exif.erase(it); else ++it;
    }
    set_value(exif, Exiv2::ExifKey("Exif.GPSInfo.GPSVersionID"), Exiv2::unsignedByte, "2 3 0 0");
    set_value(exif, Exiv2::ExifKey("Exif.GPSInfo.GPSLatitudeRef"), Exiv2::asciiString, gps.latitude < 0 ? "S" : "N");
    set_value(exif, Exiv2::ExifKey("Exif.GPSInfo.GPSLatitude"), Exiv2::unsignedRational, dms(gps.latitude));
    set_value(exif, Exiv2::ExifKey("Exif.GPSInfo.GPSLongitudeRef"), Exiv2::asciiString, gps.longitude < 0 ? "W" : "E");
    set_value(exif, Exiv2::ExifKey("Exif.GPSInfo.GPSLongitude"), Exiv2::unsignedRational, dms(gps.longitude));
    if (gps.has_altitude) {
        set_value(exif, Exiv2::ExifKey("Exif.GPSInfo.GPSAltitudeRef"), Exiv2::unsignedByte, gps.altitude < 0 ? "1" : "0");
        set_value(exif, Exiv2::ExifKey("Exif.GPSInfo.GPSAltitude"), Exiv2::unsignedRational, rational(std::fabs(gps.altitude), 1000));
    }
    char text[64];
    double second = gps.second < 0 ? 0 : gps.second;
    std::snprintf(text, sizeof text, "%d/1 %d/1 %s", gps.hour, gps.minute, rational(second, 1000).c_str());
    set_value(exif, Exiv2::ExifKey("Exif.GPSInfo.GPSTimeStamp"), Exiv2::unsignedRational, text);
    std::snprintf(text, sizeof text, "%04d:%02d:%02d", gps.year, gps.month, gps.day);
    set_value(exif, Exiv2::ExifKey("Exif.GPSInfo.GPSDateStamp"), Exiv2::asciiString, text);
    if (gps.has_accuracy) {
        // GPSHPositioningError (0x001f, Exif 2.31) is newer than exiv2 0.27's tag table.
        set_value(exif, Exiv2::ExifKey(0x001f, "GPSInfo"), Exiv2::unsignedRational, rational(gps.accuracy, 100));
    }
    set_value(exif, Exiv2::ExifKey("Exif.GPSInfo.GPSMapDatum"), Exiv2::asciiString, "WGS-84");
}

/// Thrown when writing would lose or corrupt metadata; becomes WM_UNSAFE.
struct Unsafe : std::runtime_error {
    using std::runtime_error::runtime_error;
};

/// Maker-note tags that point to sub-directories exiv2 reads as plain numbers and does not move
/// when it rewrites a TIFF-based file (e.g. Exif.Nikon3.ScanIFD): rewriting would orphan them.
std::string unmovable_directory(const Exiv2::ExifData &exif) {
    for (const auto &datum : exif) {
        const std::string name = datum.tagName();
        if (Exiv2::ExifTags::isMakerGroup(datum.groupName()) && name.size() > 3 &&
            name.compare(name.size() - 3, 3, "IFD") == 0)
            return datum.key();
    }
    return {};
}

/// Every Exif, IPTC and XMP value outside the GPS group, as text, for before/after comparison.
std::vector<std::pair<std::string, std::string>> fingerprint(const Exiv2::Image &image) {
    std::vector<std::pair<std::string, std::string>> values;
    for (const auto &datum : image.exifData()) {
        if (datum.groupName() == "GPSInfo") continue;
        // Offsets to thumbnails, previews and strips move when the Exif block grows.
        const std::string name = datum.tagName();
        // So do the pointers to sub-directories (ExifTag, GPSTag, InteroperabilityTag, SubIFDs).
        if (name.find("Offset") != std::string::npos || name.find("Start") != std::string::npos ||
            name.find("ByteCounts") != std::string::npos || name == "JPEGInterchangeFormat" ||
            name == "SubIFDs" || name == "ExifTag" || name == "GPSTag" || name == "InteroperabilityTag" ||
            name == "MakerNote")  // the raw blob; its decoded tags are compared one by one
            continue;
        values.emplace_back(datum.key(), datum.toString());
    }
    for (const auto &datum : image.iptcData()) values.emplace_back(datum.key(), datum.toString());
    values.emplace_back("xmp-packet", image.xmpPacket());
    std::sort(values.begin(), values.end());
    return values;
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
        info->exif_writable = Exiv2::ImageFactory::checkMode(type, Exiv2::mdExif) == Exiv2::amReadWrite;
        info->is_jpeg = type == Exiv2::ImageType::jpeg;
        info->pixel_width = image->pixelWidth();
        info->pixel_height = image->pixelHeight();
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

struct wm_tagged {
    std::shared_ptr<Exiv2::Image> image;  // owns the MemIo that holds the new file
    const uint8_t *data = nullptr;
    size_t size = 0;
};

extern "C" const uint8_t *wm_tagged_data(const wm_tagged *tagged) { return tagged->data; }
extern "C" size_t wm_tagged_size(const wm_tagged *tagged) { return tagged->size; }
extern "C" void wm_tagged_free(wm_tagged *tagged) { delete tagged; }

static int write_gps_or_throw(const uint8_t *data, size_t size, const wm_gps *gps, wm_tagged **out,
                              char *err, size_t err_len);

extern "C" int wm_write_gps(const uint8_t *data, size_t size, const wm_gps *gps, wm_tagged **out,
                            char *err, size_t err_len) {
    *out = nullptr;
    try {
        return write_gps_or_throw(data, size, gps, out, err, err_len);
    } catch (const Unsafe &e) {
        report(err, err_len, e.what());
        return WM_UNSAFE;
    }
}

static int write_gps_or_throw(const uint8_t *data, size_t size, const wm_gps *gps, wm_tagged **out,
                              char *err, size_t err_len) {
    return guarded<Unsafe>(err, err_len, "writing GPS tags", [&] {
        auto image = open_image(data, size);
        int type = Exiv2::ImageFactory::getType(data, size);
        if (Exiv2::ImageFactory::checkMode(type, Exiv2::mdExif) != Exiv2::amReadWrite)
            throw std::runtime_error("exiv2 cannot write Exif into " + image->mimeType() + " files");
        const bool is_jpeg = type == Exiv2::ImageType::jpeg;
        if (!is_jpeg) {
            const std::string pointer = unmovable_directory(image->exifData());
            if (!pointer.empty())
                throw Unsafe("exiv2 would orphan the maker-note directory " + pointer +
                             " when rewriting this " + image->mimeType() + " file");
        }
        image->writeXmpFromPacket(true);  // keep the XMP packet byte for byte
        const auto before = fingerprint(*image);
        write_gps(image->exifData(), *gps);
        image->writeMetadata();
        std::unique_ptr<wm_tagged> tagged(new wm_tagged);
        tagged->image.reset(image.release());
        Exiv2::BasicIo &io = tagged->image->io();
        tagged->size = static_cast<size_t>(io.size());
        tagged->data = io.mmap(false);  // MemIo: its own buffer, no copy
        if (tagged->data == nullptr) throw std::runtime_error("exiv2 returned no image");
        try {
            auto check = open_image(tagged->data, tagged->size);
            const auto after = fingerprint(*check);
            if (after != before) {
                std::string key = "(the number of tags)";
                for (size_t i = 0; i < std::min(before.size(), after.size()); i++)
                    if (before[i] != after[i]) { key = before[i].first; break; }
                throw Unsafe("exiv2 changed other metadata (" + key + ") while writing GPS tags");
            }
        } catch (const Unsafe &) {
            throw;
        } catch (const std::exception &e) {
            throw Unsafe(std::string("the rewritten file does not read back: ") + e.what());
        }
        *out = tagged.release();
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
