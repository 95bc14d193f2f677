#ifndef GEOFARE_CPROJ_SHIM_H
#define GEOFARE_CPROJ_SHIM_H
// PROJ's transformation API and Karney's geodesic routines (geodesic.h is not included by proj.h).
#include <proj.h>
#include <geodesic.h>
#endif
