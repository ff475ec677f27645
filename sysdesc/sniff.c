/* MLIR, YAML or JSON: what a description's text is.  The one rule of every
 * reader that takes any of them (sysdesc_system_load() and _parse(), so
 * every command and the Python module, and the checker's locator).
 *
 * The content decides where it can: its first token (after a byte-order
 * mark, blank lines, MLIR's `//` and YAML's `#` comments) is either
 * something only one syntax starts with, or a form two syntaxes share, and
 * then the file's extension breaks the tie (.mlir, .yaml/.yml, .json), else
 * the syntax that form most often is.  What sysdesc writes is always told by
 * its content alone: MLIR starts with `module` or `#dlti`, JSON with `{"`,
 * and YAML with a device id that the YAML emitter quotes whenever its plain
 * spelling would look like something else (sd_yaml_first_key_plain_ok). */
#include "sysdesc_private.h"

#include <string.h>

static bool ends_with(const char *path, size_t plen, const char *ext)
{
    size_t n = strlen(ext);
    return plen > n && strcmp(path + plen - n, ext) == 0;
}

/* What the extension says, or `dflt` when it says nothing. */
static sd_input_format by_extension(const char *path, sd_input_format dflt)
{
    size_t plen = path ? strlen(path) : 0;
    if (ends_with(path, plen, ".mlir"))
        return SD_INPUT_MLIR;
    if (ends_with(path, plen, ".yaml") || ends_with(path, plen, ".yml"))
        return SD_INPUT_YAML;
    if (ends_with(path, plen, ".json"))
        return SD_INPUT_JSON;
    return dflt;
}

static bool is_space(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

/* A YAML mapping indicator at `i`: ':' then a blank, a line end or the end. */
static bool yaml_colon(const char *text, size_t len, size_t i)
{
    return text[i] == ':' && (i + 1 == len || is_space(text[i + 1]));
}

/* `#` at `i` starts an MLIR attribute or alias (`#dlti.map<`, `#map = `,
 * `#x<...>`) rather than a YAML comment: an identifier with a dot, or one
 * followed by `<` or ` =`. */
static bool mlir_hash(const char *text, size_t len, size_t i)
{
    size_t k = i + 1;
    if (k >= len || !dlti_is_id_start((unsigned char)text[k]))
        return false;
    bool dotted = false;
    while (k < len && dlti_is_id_char((unsigned char)text[k]))
        dotted |= text[k++] == '.';
    if (dotted || (k < len && text[k] == '<'))
        return true;
    while (k < len && (text[k] == ' ' || text[k] == '\t'))
        k++;
    return k < len && text[k] == '=';
}

/* A first token that is an identifier (`CPU`, `module`, `func.func`,
 * `rack1.node-a`, `v1.0 GPU`), from `i` to `k`. */
static sd_input_format sniff_word(const char *path, const char *text, size_t len, size_t i)
{
    size_t k = i;
    bool dotted = false;
    while (k < len && dlti_is_id_char((unsigned char)text[k]))
        dotted |= text[k++] == '.';
    if (k < len && yaml_colon(text, len, k))
        return SD_INPUT_YAML; /* `CPU:`, `rack1.node:` */
    if (k - i == 6 && memcmp(text + i, "module", 6) == 0 &&
        (k == len || is_space(text[k]) || text[k] == '@' || text[k] == '{'))
        return SD_INPUT_MLIR;
    if (!dotted) /* a key with other characters (`CPU 0:`), or a bare MLIR value */
        return by_extension(path, SD_INPUT_YAML);
    /* A dotted name: an op (`func.func @f(%a: i32) {`, `gpu.module @k {`,
     * `spirv.module Logical GLSL450 {`), or a device id with other
     * characters (`rack1.node-a:`, `v1.0 GPU:`).  An op's symbol or operand
     * comes after a blank; a YAML key has its ':' on its line. */
    size_t j = k;
    while (j < len && (text[j] == ' ' || text[j] == '\t'))
        j++;
    if (j > k && j < len && (text[j] == '@' || text[j] == '%'))
        return SD_INPUT_MLIR;
    bool marker = false; /* what an op's line has before a ':' */
    for (j = k; j < len && text[j] != '\n' && text[j] != '\r'; j++) {
        if (yaml_colon(text, len, j))
            return marker ? by_extension(path, SD_INPUT_MLIR) : SD_INPUT_YAML;
        if (text[j] == ' ' && j + 1 < len && text[j + 1] == '#')
            break; /* a YAML comment: no ':' follows that counts */
        marker |= strchr("@%(){}<>\"=[]", text[j]) != NULL;
    }
    return SD_INPUT_MLIR; /* no key on the line: an op */
}

/* Where the first token starts: after a byte-order mark, blanks and
 * comment lines. */
static size_t first_token(const char *text, size_t len)
{
    size_t i = 0;
    if (len >= 3 && memcmp(text, "\xEF\xBB\xBF", 3) == 0)
        i = 3; /* a byte-order mark: every reader skips it */
    for (;;) {
        while (i < len && is_space(text[i]))
            i++;
        bool slashes = i + 1 < len && text[i] == '/' && text[i + 1] == '/';
        if (!slashes && !(i < len && text[i] == '#' && !mlir_hash(text, len, i)))
            return i;
        while (i < len && text[i] != '\n') /* a comment line: MLIR's or YAML's */
            i++;
    }
}

bool sd_sniff_decided(const char *head, size_t len)
{
    size_t i = first_token(head, len);
    return i < len && len - i >= 4096 && memchr(head + i, '\n', len - i);
}

sd_input_format sd_sniff(const char *path, const char *text, size_t len)
{
    size_t i = first_token(text, len);
    if (i >= len)
        return by_extension(path, SD_INPUT_YAML); /* empty: each reader says so */
    char c = text[i];
    if (c == '#')
        return SD_INPUT_MLIR;
    if (c == '{') {
        /* JSON's objects start `{"` or `{}`; YAML's flow mappings and MLIR's
         * dictionaries may too, a file's extension tells them. */
        size_t j = i + 1;
        while (j < len && is_space(text[j]))
            j++;
        if (j + 1 < len && text[j] == '-' && text[j + 1] == '#')
            return SD_INPUT_MLIR; /* {-# dialect resources #-} */
        if (j < len && (text[j] == '"' || text[j] == '}'))
            return by_extension(path, SD_INPUT_JSON);
        return by_extension(path, SD_INPUT_YAML);
    }
    if (c == '%') /* %YAML and %TAG are YAML's directives, %0 = ... an op */
        return (len - i > 4 && memcmp(text + i, "%YAML", 5) == 0) ||
                       (len - i > 3 && memcmp(text + i, "%TAG", 4) == 0)
                   ? SD_INPUT_YAML
                   : SD_INPUT_MLIR;
    if (c == '"') {
        /* "func.func"(...) is a generic op; "id": a YAML key */
        size_t j = i + 1;
        while (j < len && text[j] != '"' && text[j] != '\n')
            j += text[j] == '\\' ? 2 : 1;
        for (j++; j < len && (text[j] == ' ' || text[j] == '\t'); j++)
            ;
        if (j < len && text[j] == '(')
            return SD_INPUT_MLIR;
        if (j < len && yaml_colon(text, len, j))
            return SD_INPUT_YAML;
        return by_extension(path, SD_INPUT_YAML);
    }
    if (c == '!') { /* !alias = type in MLIR, a tag in YAML */
        size_t j = i + 1;
        while (j < len && dlti_is_id_char((unsigned char)text[j]))
            j++;
        while (j < len && (text[j] == ' ' || text[j] == '\t'))
            j++;
        return j > i + 1 && j < len && text[j] == '=' ? SD_INPUT_MLIR : SD_INPUT_YAML;
    }
    if (dlti_is_id_start((unsigned char)c))
        return sniff_word(path, text, len, i);
    /* `'id':`, `? key`, anchors, aliases, block scalars: only YAML */
    if (strchr("'?&*|>", c))
        return SD_INPUT_YAML;
    /* `---` starts a YAML document, `- ` a YAML sequence item */
    if (c == '-' && i + 1 < len &&
        (is_space(text[i + 1]) || (len - i >= 3 && text[i + 1] == '-' && text[i + 2] == '-')))
        return SD_INPUT_YAML;
    /* `[1, 2]`, `-1 : i32`, `42`: a bare MLIR value, or YAML */
    return by_extension(path, SD_INPUT_YAML);
}

bool sd_yaml_first_key_plain_ok(const char *key, size_t len)
{
    /* The key as it stands at the start of the emitter's output. */
    char buf[SD_YAML_SIMPLE_KEY_MAX + 4];
    if (len > SD_YAML_SIMPLE_KEY_MAX)
        return false;
    memcpy(buf, key, len);
    memcpy(buf + len, ":\n", 2);
    /* YAML by its content alone: under any file name */
    return sd_sniff("x.mlir", buf, len + 2) == SD_INPUT_YAML &&
           sd_sniff("x.json", buf, len + 2) == SD_INPUT_YAML;
}

const char *sd_input_format_name(sd_input_format f)
{
    return f == SD_INPUT_MLIR ? "MLIR" : f == SD_INPUT_JSON ? "JSON" : "YAML";
}
