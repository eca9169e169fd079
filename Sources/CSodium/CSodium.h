/* CSodium: the C++ shim (CWaymarkMedia) includes libsodium's own header; nothing is imported into Swift from here. */
