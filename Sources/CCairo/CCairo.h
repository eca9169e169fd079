/* CCairo: cairo (its PDF surface: the PDF of a photo) for the C++ shim.
   Swift sees nothing of cairo; the shim includes <cairo.h> and <cairo-pdf.h> itself and exposes waymark_pdf.h. */
