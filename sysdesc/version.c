/* The library's version at run time (sysdesc/version.h). */
#include "sysdesc_private.h"

#include "sysdesc/version.h"

const char *sysdesc_version_string(void)
{
    return SYSDESC_VERSION_STRING;
}
