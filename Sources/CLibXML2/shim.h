#include <libxml/xmlversion.h>
// The encoding header would pull in the system's ICU, whose declarations clash with the copy
// Foundation carries; FeedCore converts encodings itself and never touches libxml2's converters.
#undef LIBXML_ICU_ENABLED
#include <libxml/parser.h>
#include <libxml/parserInternals.h>
#include <libxml/SAX2.h>
#include <libxml/xmlerror.h>
