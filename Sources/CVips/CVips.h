/* CVips: libvips (image derivatives: shrink-on-load thumbnails, JPEG/WebP encoding) for the C++ shim.
   Swift sees nothing of libvips; the shim includes <vips/vips.h> itself and exposes waymark_vips.h. */
