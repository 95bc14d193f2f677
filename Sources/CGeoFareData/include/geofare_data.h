#ifndef GEOFARE_DATA_H
#define GEOFARE_DATA_H
#include <stddef.h>

/// One file of the package's Data/ folder, embedded into the binary at compile time.
typedef struct {
    const char *path;            // path below Data/, e.g. "crs/aliases.json"
    const unsigned char *bytes;  // the file's bytes (not NUL-terminated)
    size_t length;               // the number of bytes
} geofare_data_file;

/// The number of embedded files.
size_t geofare_data_file_count(void);
/// The embedded file at `index` (0 ..< count).
const geofare_data_file *geofare_data_file_at(size_t index);

#endif
