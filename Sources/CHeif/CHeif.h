/* CHeif: the C++ shim (CWaymarkMedia) includes libheif's own header; nothing is imported into Swift from here. */
