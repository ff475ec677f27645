/* Every output format through one function (sysdesc/print.h): a new format
 * is an enumerator, a name below and a case in sysdesc_system_print(). */
#include "sysdesc_private.h"

#include "sysdesc/print.h"

#include <string.h>

static const char *const format_names[] = {
    [SYSDESC_FORMAT_MLIR] = "mlir",
    [SYSDESC_FORMAT_ATTR] = "attr",
    [SYSDESC_FORMAT_YAML] = "yaml",
    [SYSDESC_FORMAT_JSON] = "json",
};

int sysdesc_format_parse(const char *name, sysdesc_format *format)
{
    for (size_t i = 0; name && i < sizeof(format_names) / sizeof(format_names[0]); i++) {
        if (strcmp(name, format_names[i]) == 0) {
            *format = (sysdesc_format)i;
            return 0;
        }
    }
    return -1;
}

const char *sysdesc_format_names(void)
{
    return "mlir, attr, yaml, json";
}

char *sysdesc_system_print(const sysdesc_system *sys, sysdesc_format format, unsigned flags,
                           size_t *len)
{
    switch (format) {
    case SYSDESC_FORMAT_MLIR:
        return sysdesc_mlir_print_flags(sys, false, flags, len);
    case SYSDESC_FORMAT_ATTR:
        return sysdesc_mlir_print_flags(sys, true, flags, len);
    case SYSDESC_FORMAT_YAML:
        return sysdesc_yaml_print(sys, len);
    case SYSDESC_FORMAT_JSON:
        return sysdesc_json_print(sys, flags, len);
    }
    return NULL;
}
