/* The usage text of a command, made from its option table: the synopsis
 * (the options in brackets, wrapped at 80 columns), the description, a row
 * for each option that has help, the exit status. */
#define _POSIX_C_SOURCE 200809L
#include "cli.h"

#include <stdlib.h>
#include <string.h>

enum { WIDTH = 80, HELP_COLUMN = 18 };

static bool takes_value(const cli_opt *o)
{
    return o->flags & (CLI_VALUE | CLI_VALUE_EQ | CLI_VALUE_OPT);
}

/* NAME, NAME METAVAR, NAME=METAVAR or NAME[=METAVAR]. */
static void add_name(sum_buf *b, const cli_opt *o)
{
    sum_buf_str(b, o->name);
    if (takes_value(o) && o->metavar) {
        bool optional = o->flags & CLI_VALUE_OPT;
        sum_buf_str(b, optional ? "[=" : o->flags & CLI_VALUE_EQ ? "=" : " ");
        sum_buf_str(b, o->metavar);
        sum_buf_str(b, optional ? "]" : "");
    }
}

/* Options that set one field to values of their own read as one choice. */
static bool same_choice(const cli_opt *o, const cli_opt *next)
{
    return next->name && !next->usage && !o->usage && o->kind == CLI_SET &&
           next->kind == CLI_SET && next->field == o->field;
}

/* Adds `word` to the synopsis line, on a new line when it would pass 80
 * columns; `indent` is the continuation lines' indent. */
static void add_word(sum_buf *b, size_t *col, size_t indent, const char *word)
{
    size_t len = strlen(word);
    if (*col > indent && *col + 1 + len > WIDTH) {
        sum_buf_str(b, "\n");
        sum_buf_spaces(b, indent);
        *col = indent;
    } else if (*col > indent) {
        sum_buf_str(b, " ");
        (*col)++;
    }
    sum_buf_str(b, word);
    *col += len;
}

/* Whether option `o` of group `g` is named by an earlier one (--no-check of
 * cli_override_opts and cli_check_opts): the synopsis shows it once. */
static bool shown_before(const cli_group *groups, const cli_group *g, const cli_opt *o)
{
    for (const cli_group *h = groups; h <= g; h++)
        for (const cli_opt *p = h->opts; p != o && (p->name || p->kind == CLI_TEXT); p++)
            if (p->name && strcmp(p->name, o->name) == 0)
                return true;
    return false;
}

static void synopsis(sum_buf *b, const char *cmd, const cli_help *help, const cli_group *groups)
{
    sum_buf_printf(b, "usage: sysdesc %s ", cmd);
    size_t indent = strlen("usage: sysdesc  ") + strlen(cmd), col = indent;
    for (const cli_group *g = groups; g && g->opts; g++)
        for (const cli_opt *o = g->opts; o->name || o->kind == CLI_TEXT; o++) {
            if (!o->name || shown_before(groups, g, o))
                continue;
            sum_buf w = {0};
            bool needed = o->flags & CLI_NEEDED;
            sum_buf_str(&w, needed ? "" : "[");
            for (;; o++) {
                if (o->usage)
                    sum_buf_str(&w, o->usage);
                else
                    add_name(&w, o);
                if (!same_choice(o, o + 1))
                    break;
                sum_buf_str(&w, "|");
            }
            sum_buf_str(&w, needed ? "" : o->kind == CLI_LIST ? "]..." : "]");
            char *word = sum_buf_take(&w);
            if (!word) {
                b->failed = true;
                return;
            }
            add_word(b, &col, indent, word);
            free(word);
        }
    if (help->operands)
        add_word(b, &col, indent, help->operands);
    if (col == indent && b->len && !b->failed)
        b->len--; /* no options and no operands: no space after the name */
    sum_buf_str(b, "\n");
}

/* One row: the label's lines, the help's lines from column 18 (a leading
 * '\n' in `text` puts them all under the label). */
static void row(sum_buf *b, const char *label, const char *text)
{
    const char *last = strrchr(label, '\n');
    if (last) {
        for (const char *p = label; p <= last;) {
            const char *nl = strchr(p, '\n');
            sum_buf_str(b, "  ");
            sum_buf_add(b, p, (size_t)(nl - p + 1));
            p = nl + 1;
        }
        label = last + 1;
    }
    size_t len = strlen(label);
    sum_buf_str(b, "  ");
    sum_buf_str(b, label);
    /* A label too long for two spaces before the help column: the help
     * goes under it, where its other lines are. */
    if (text[0] == '\n' || 2 + len + 2 > HELP_COLUMN) {
        text += text[0] == '\n';
        sum_buf_str(b, "\n");
        sum_buf_spaces(b, HELP_COLUMN);
    } else {
        sum_buf_spaces(b, HELP_COLUMN - 2 - len);
    }
    for (const char *p = text; *p;) {
        const char *nl = strchr(p, '\n');
        size_t n = nl ? (size_t)(nl - p) : strlen(p);
        sum_buf_add(b, p, n);
        sum_buf_str(b, "\n");
        if (!nl)
            break;
        p = nl + 1;
        sum_buf_spaces(b, HELP_COLUMN);
    }
}

static void option_rows(sum_buf *b, const cli_group *groups)
{
    for (const cli_group *g = groups; g && g->opts; g++)
        for (const cli_opt *o = g->opts; o->name || o->kind == CLI_TEXT; o++) {
            if ((!o->help && !o->help_fn) || g->unlisted)
                continue;
            if (o->help_fn) {
                char text[1024];
                o->help_fn(text, sizeof text);
                row(b, o->label, text);
                continue;
            }
            if (o->label) {
                row(b, o->label, o->help);
                continue;
            }
            sum_buf label = {0};
            add_name(&label, o);
            if (o->alias) {
                sum_buf_str(&label, ", ");
                sum_buf_str(&label, o->alias);
            }
            char *text = sum_buf_take(&label);
            if (!text) {
                b->failed = true;
                return;
            }
            row(b, text, o->help);
            free(text);
        }
}

char *cli_usage(const char *cmd, const cli_help *help, const cli_group *groups)
{
    sum_buf b = {0};
    synopsis(&b, cmd, help, groups);
    if (help->description) {
        sum_buf_str(&b, "\n");
        sum_buf_str(&b, help->description);
    }
    sum_buf rows = {0};
    option_rows(&rows, groups);
    char *text = sum_buf_take(&rows);
    if (!text)
        return NULL;
    if (text[0]) {
        sum_buf_str(&b, "\n");
        sum_buf_str(&b, text);
    }
    free(text);
    if (help->status) {
        sum_buf_str(&b, "\n");
        sum_buf_str(&b, help->status);
    }
    return sum_buf_take(&b);
}
