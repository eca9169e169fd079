// QR encoding for the recorder's screen: libqrencode, level Q.
#include "waymark_media.h"
#include "Support.hpp"

#include <qrencode.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>

using namespace waymark;

int wm_encode_qr(const char *text, wm_buffer *modules, int *width, char *err, size_t err_len) {
    if (modules == nullptr || width == nullptr || text == nullptr) {
        report(err, err_len, "wm_encode_qr: missing argument");
        return -1;
    }
    modules->data = nullptr;
    modules->size = 0;
    // Case-sensitive 8-bit hint: libqrencode still splits the text into its densest modes.
    std::unique_ptr<QRcode, void (*)(QRcode *)> code(
        QRcode_encodeString(text, 0, QR_ECLEVEL_Q, QR_MODE_8, 1), QRcode_free);
    if (!code) {
        report(err, err_len, std::string("libqrencode could not encode the text: ") +
                                 (errno == ERANGE ? "it is too long for a QR code" : std::strerror(errno)));
        return -1;
    }
    const size_t count = static_cast<size_t>(code->width) * static_cast<size_t>(code->width);
    auto *bytes = static_cast<uint8_t *>(std::malloc(count));
    if (bytes == nullptr) {
        report(err, err_len, "wm_encode_qr: out of memory");
        return -1;
    }
    for (size_t i = 0; i < count; i++) bytes[i] = code->data[i] & 1;  // bit 0: dark module
    modules->data = bytes;
    modules->size = count;
    *width = code->width;
    return 0;
}
