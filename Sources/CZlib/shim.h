#ifndef GEOFARE_CZLIB_SHIM_H
#define GEOFARE_CZLIB_SHIM_H
// zlib's inflate, for the zlib_data blobs of OpenStreetMap PBF files.
#include <zlib.h>
#endif
