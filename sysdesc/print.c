/* Every output format through one function (sysdesc/print.h): a new format
 * is an enumerator, a name below and a case in sysdesc_system_print(). */
#include "sysdesc_private.h"

#include "sysdesc/print.h"

#include <stdlib.h>
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

/* What a streaming print hands on, and whether its writer refused. */
typedef struct writer {
    sysdesc_write_fn write;
    void *user;
    bool refused;
} writer;

static int to_writer(void *user, const char *data, size_t len)
{
    writer *w = user;
    if (w->write(w->user, data, len) != 0)
        w->refused = true;
    return w->refused ? -1 : 0;
}

int sysdesc_system_write(const sysdesc_system *sys, sysdesc_format format, unsigned flags,
                         sysdesc_write_fn write, void *user, dlti_error_t *err)
{
    bs_error_clear(err);
    writer w = {write, user, false};
    bool stream = sys && sys->spec && !(flags & (SYSDESC_PRINT_PRETTY | SYSDESC_PRINT_INHERENT)) &&
                  (format == SYSDESC_FORMAT_MLIR || format == SYSDESC_FORMAT_ATTR);
    if (stream) {
        /* MLIR, the big outputs: printed into a buffer of a few pages that
         * is handed on each time it fills, never held whole */
        if (sd_format_check(sys, format, flags, err) != 0)
            return -1;
        bs_buf b;
        bs_buf_stream(&b, to_writer, &w);
        sd_mlir_put(&b, sys, format == SYSDESC_FORMAT_ATTR);
        if (bs_buf_stream_end(&b))
            return 0;
    } else {
        /* the others whole, then handed on: YAML goes back over a long key
         * it printed (yaml_emit.c); JSON and the pretty forms could stream
         * as MLIR does, but no measured use asked for it */
        size_t len;
        char *text = sysdesc_system_print_checked(sys, format, flags, &len, err);
        if (!text)
            return -1;
        to_writer(&w, text, len);
        free(text);
        if (!w.refused)
            return 0;
    }
    if (w.refused)
        bs_error_set(err, DLTI_ERROR_IO, "the writer refused the text");
    else
        bs_nomem(err);
    return -1;
}
