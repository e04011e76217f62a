#ifndef CWEBKIT_SHIM_H
#define CWEBKIT_SHIM_H

/* WebKitGTK 6.0 for the tests that look into the article's web view: the app loads the library
   itself when it first shows an article (Article/WebKit.swift), and RefreshGtk never links it. */
#include <webkit/webkit.h>

#endif
