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
    return sysdesc_system_print_checked(sys, format, flags, len, NULL);
}

char *sysdesc_system_print_checked(const sysdesc_system *sys, sysdesc_format format,
                                   unsigned flags, size_t *len, dlti_error_t *err)
{
    /* DLTI that is no system spec (SYSDESC_LOAD_LENIENT): print_dlti.c */
    if (sys && !sys->spec)
        return sd_dlti_print(sys, format, flags, len, err);
    /* Nothing is printed that would not read back as itself. */
    if (sd_format_check(sys, format, flags, err) != 0)
        return NULL;
    char *text = NULL;
    switch (format) {
    case SYSDESC_FORMAT_MLIR:
        text = sysdesc_mlir_print_flags(sys, false, flags, len);
        break;
    case SYSDESC_FORMAT_ATTR:
        text = sysdesc_mlir_print_flags(sys, true, flags, len);
        break;
    case SYSDESC_FORMAT_YAML:
        text = sysdesc_yaml_print(sys, len);
        break;
    case SYSDESC_FORMAT_JSON:
        text = sysdesc_json_print(sys, flags, len);
        break;
    default:
        bs_error_set(err, DLTI_ERROR_ARGUMENT, "not a sysdesc_format: %d", (int)format);
        return NULL;
    }
    if (!text)
        bs_nomem(err);
    return text;
}

