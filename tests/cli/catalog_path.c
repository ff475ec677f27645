/* Prints sysdesc_catalog_path(): linked with the shared libsysdesc, so that
 * relocate.sh can run it against a moved installation's library. */
#include <stdio.h>
#include <stdlib.h>

#include "sysdesc/catalog.h"

int main(void)
{
    char *path = sysdesc_catalog_path();
    if (!path)
        return 1;
    puts(path);
    free(path);
    return 0;
}
