/* CQREncode: the C++ shim (CWaymarkMedia) includes the library's own headers; nothing is imported into Swift from here. */
