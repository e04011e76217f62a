#ifndef CADW_SHIM_H
#define CADW_SHIM_H

/* libadwaita 1.2, the reader's widgets and style. GTK comes in through CGtk's own header, so
 * that its declarations belong to that module alone (the refresh library's GTK-only module)
 * rather than to both. */
#include "../../Library/Sources/CGtk/shim.h"
#include <adwaita.h>

#endif
