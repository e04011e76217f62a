#include <zlib.h>

// inflateInit2 and deflateInit2 are macros, which Swift cannot call.

static inline int czlib_inflate_init(z_streamp stream, int windowBits) {
    return inflateInit2(stream, windowBits);
}

static inline int czlib_deflate_init(z_streamp stream, int level, int windowBits) {
    return deflateInit2(stream, level, Z_DEFLATED, windowBits, 9, Z_DEFAULT_STRATEGY);
}
