// Embeds the files of Data/ into the binary with C23 #embed, so that `geofare` finds its
// tariffs, zones and tables wherever it is copied and however it is run. Data/ stays the only
// copy of each file; a test checks that every data file there is listed here.
// To add a file: add an #embed array and a row in `files` below.
#include "geofare_data.h"

static const unsigned char crs_aliases[] = {
#embed "../../Data/crs/aliases.json"
};

static const geofare_data_file files[] = {
    {"crs/aliases.json", crs_aliases, sizeof(crs_aliases)},
};

size_t geofare_data_file_count(void) { return sizeof(files) / sizeof(files[0]); }

const geofare_data_file *geofare_data_file_at(size_t index) {
    return index < geofare_data_file_count() ? &files[index] : 0;
}
