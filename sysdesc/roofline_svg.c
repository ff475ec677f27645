/* The roofline as SVG, by our own small emitter: log-log axes (FLOP/byte
 * against GFLOP/s), a diagonal per bandwidth ceiling up to its ridge with
 * the highest compute ceiling, a horizontal line per compute ceiling from
 * the highest diagonal on; measured solid, nominal dashed; a legend with
 * every ceiling's value and key. */
#include "sysdesc_private.h"
#include "sysdesc/roofline.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define W 1060
#define H 620
#define PX0 90.0  /* plot area */
#define PX1 640.0
#define PY0 70.0
#define PY1 540.0
#define LEGEND_X 665

static const char *const colors[] = {"#1f77b4", "#d62728", "#2ca02c", "#9467bd",
                                     "#ff7f0e", "#8c564b", "#e377c2", "#17becf"};
#define NCOLORS (sizeof(colors) / sizeof(colors[0]))

typedef struct axes {
    double lx0, lx1, ly0, ly1; /* log10 of the ranges */
} axes;

static double X(const axes *a, double i)
{
    return PX0 + (log10(i) - a->lx0) / (a->lx1 - a->lx0) * (PX1 - PX0);
}
static double Y(const axes *a, double p)
{
    return PY1 - (log10(p) - a->ly0) / (a->ly1 - a->ly0) * (PY1 - PY0);
}

static void esc(dlti_buf *b, const char *s)
{
    for (; *s; s++) {
        switch (*s) {
        case '&': dlti_buf_puts(b, "&amp;"); break;
        case '<': dlti_buf_puts(b, "&lt;"); break;
        case '>': dlti_buf_puts(b, "&gt;"); break;
        case '"': dlti_buf_puts(b, "&quot;"); break;
        default:
            /* Controls are not XML characters: drop them. */
            if ((unsigned char)*s >= 0x20 || *s == '\t')
                dlti_buf_putc(b, *s);
        }
    }
}

/* 234.6 GFLOP/s, 3.35 TB/s. */
static void si(char *out, size_t size, double v, const char *unit)
{
    static const char *const pre[] = {"", "k", "M", "G", "T", "P", "E"};
    size_t k = 0;
    while (k + 1 < sizeof(pre) / sizeof(pre[0]) && v >= 1000) {
        v /= 1000;
        k++;
    }
    snprintf(out, size, "%.*f %s%s", v >= 100 ? 0 : v >= 10 ? 1 : 2, v, pre[k], unit);
}

/* A decade's tick label: 0.01, 0.1, 1, 10, ..., 10000, 1e+05. */
static void tick(char *out, size_t size, int e)
{
    if (e >= 5)
        snprintf(out, size, "1e+%02d", e);
    else if (e >= 0)
        snprintf(out, size, "%.0f", pow(10, e));
    else
        snprintf(out, size, "%.*f", -e, pow(10, e));
}

/* The highest compute ceiling and the highest bandwidth of one kind
 * (measured or nominal); the other kind's when this one has none. */
static double top(const sysdesc_roofline *r, bool compute, bool measured)
{
    double best[2] = {0, 0};
    for (size_t i = 0; i < r->n; i++)
        if (r->c[i].compute == compute && r->c[i].value > best[r->c[i].measured])
            best[r->c[i].measured] = r->c[i].value;
    return best[measured] > 0 ? best[measured] : best[!measured];
}

static void style(dlti_buf *b, const sysdesc_roofline_ceiling *c, const char *color)
{
    dlti_buf_printf(b, " stroke=\"%s\" stroke-width=\"%s\"%s fill=\"none\"", color,
                    c->measured ? "2.5" : "2",
                    c->measured ? "" : " stroke-dasharray=\"7 5\"");
}

char *sysdesc_roofline_svg(const sysdesc_roofline *r, size_t *len, dlti_error_t *err)
{
    if (!r || r->n > SYSDESC_ROOFLINE_MAX || top(r, true, true) <= 0 ||
        top(r, false, true) <= 0) {
        dlti_error_set(err, DLTI_ERROR_ARGUMENT,
                       "roofline: needs a compute and a bandwidth ceiling");
        return NULL;
    }
    /* Ranges: every ridge well inside, whole decades, at most 9 of them up. */
    double pmin = INFINITY, pmax = 0, bmin = INFINITY, bmax = 0;
    for (size_t i = 0; i < r->n; i++) {
        const sysdesc_roofline_ceiling *c = &r->c[i];
        if (c->compute) {
            pmin = fmin(pmin, c->value);
            pmax = fmax(pmax, c->value);
        } else {
            bmin = fmin(bmin, c->value);
            bmax = fmax(bmax, c->value);
        }
    }
    /* Every meeting of a compute and a bandwidth ceiling lies between these. */
    double imin = pmin / bmax, imax = pmax / bmin;
    axes a;
    a.lx0 = floor(log10(imin / 8));
    a.lx1 = ceil(log10(imax * 8));
    if (a.lx1 - a.lx0 < 3)
        a.lx1 = a.lx0 + 3;
    a.ly1 = ceil(log10(pmax * 2));
    a.ly0 = floor(log10(fmin(pmin / 4, bmin * pow(10, a.lx0) * 4)));
    if (a.ly1 - a.ly0 > 9)
        a.ly0 = a.ly1 - 9;
    if (a.ly1 - a.ly0 < 3)
        a.ly0 = a.ly1 - 3;

    dlti_buf b = {0};
    dlti_buf_printf(&b,
                    "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
                    "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
                    "viewBox=\"0 0 %d %d\" font-family=\"DejaVu Sans, Helvetica, Arial, "
                    "sans-serif\" font-size=\"12\">\n"
                    "<rect width=\"%d\" height=\"%d\" fill=\"white\"/>\n",
                    W, H, W, H, W, H);
    dlti_buf_puts(&b, "<text x=\"90\" y=\"28\" font-size=\"17\" font-weight=\"bold\">Roofline: ");
    esc(&b, r->title[0] ? r->title : r->device_id);
    dlti_buf_puts(&b, "</text>\n<text x=\"90\" y=\"48\" fill=\"#555\">");
    bool any_nominal = false;
    for (size_t i = 0; i < r->n; i++)
        any_nominal |= !r->c[i].measured;
    if (r->measured_by[0]) {
        dlti_buf_puts(&b, "solid: measured (");
        esc(&b, r->measured_by);
        dlti_buf_puts(&b, any_nominal ? "); dashed: nominal" : "); nothing nominal");
    } else {
        dlti_buf_puts(&b, "dashed: nominal (datasheet / catalog values); nothing measured");
    }
    dlti_buf_puts(&b, "</text>\n");

    /* Grid and ticks. */
    dlti_buf_puts(&b, "<g stroke=\"#e3e3e3\" stroke-width=\"1\">\n");
    for (int e = (int)a.lx0; e <= (int)a.lx1; e++)
        dlti_buf_printf(&b, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>\n",
                        X(&a, pow(10, e)), PY0, X(&a, pow(10, e)), PY1);
    for (int e = (int)a.ly0; e <= (int)a.ly1; e++)
        dlti_buf_printf(&b, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>\n", PX0,
                        Y(&a, pow(10, e)), PX1, Y(&a, pow(10, e)));
    dlti_buf_puts(&b, "</g>\n<g fill=\"#333\">\n");
    char t[64], v[64];
    for (int e = (int)a.lx0; e <= (int)a.lx1; e++) {
        tick(t, sizeof(t), e);
        dlti_buf_printf(&b, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%s</text>\n",
                        X(&a, pow(10, e)), PY1 + 18, t);
    }
    for (int e = (int)a.ly0; e <= (int)a.ly1; e++) {
        tick(t, sizeof(t), e - 9); /* FLOP/s -> GFLOP/s */
        dlti_buf_printf(&b, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">%s</text>\n",
                        PX0 - 8, Y(&a, pow(10, e)) + 4, t);
    }
    dlti_buf_printf(&b,
                    "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" font-size=\"13\">"
                    "arithmetic intensity (FLOP/byte)</text>\n"
                    "<text transform=\"translate(24 %.1f) rotate(-90)\" text-anchor=\"middle\" "
                    "font-size=\"13\">performance (GFLOP/s)</text>\n</g>\n",
                    (PX0 + PX1) / 2, PY1 + 44, (PY0 + PY1) / 2);
    dlti_buf_printf(&b,
                    "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"none\" "
                    "stroke=\"#333\"/>\n<defs><clipPath id=\"plot\"><rect x=\"%.1f\" y=\"%.1f\" "
                    "width=\"%.1f\" height=\"%.1f\"/></clipPath></defs>\n",
                    PX0, PY0, PX1 - PX0, PY1 - PY0, PX0, PY0, PX1 - PX0, PY1 - PY0);

    /* The ceilings, clipped to the plot; a label on each, a dot on each ridge. */
    double ix0 = pow(10, a.lx0);
    double placed[SYSDESC_ROOFLINE_MAX][2]; /* compute labels' positions */
    size_t nbw = 0, ncomp = 0;
    dlti_buf_puts(&b, "<g clip-path=\"url(#plot)\">\n");
    for (size_t i = 0; i < r->n; i++) {
        const sysdesc_roofline_ceiling *c = &r->c[i];
        const char *color = colors[i % NCOLORS];
        dlti_buf_printf(&b, "<g class=\"ceiling %s %s\" data-key=\"",
                        c->measured ? "measured" : "nominal", c->compute ? "compute" : "bandwidth");
        esc(&b, c->key);
        dlti_buf_puts(&b, "\">");
        if (c->compute) {
            double start = c->value / top(r, false, c->measured);
            dlti_buf_printf(&b, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"",
                            X(&a, start), Y(&a, c->value), PX1, Y(&a, c->value));
            style(&b, c, color);
            si(v, sizeof(v), c->value, "FLOP/s");
            /* Above the line at its right end; below it, or further left,
             * when another label is already there (equal peaks are common:
             * H100's FP32 vector = FP64 matrix). */
            double lx = PX1 - 6, ly = Y(&a, c->value) - 5;
            for (int tries = 0; tries < 4; tries++) {
                lx = tries < 2 ? PX1 - 6 : PX1 - 290;
                ly = Y(&a, c->value) + (tries % 2 ? 15 : -5);
                size_t k = 0;
                while (k < ncomp && !(fabs(placed[k][0] - lx) < 1 && fabs(placed[k][1] - ly) < 13))
                    k++;
                if (k == ncomp)
                    break;
            }
            placed[ncomp][0] = lx;
            placed[ncomp][1] = ly;
            dlti_buf_printf(&b, "/><text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\" fill=\"%s\">",
                            lx, ly, color);
            dlti_buf_printf(&b, "%s ", c->measured ? "measured" : "nominal");
            esc(&b, c->label);
            dlti_buf_printf(&b, " %s</text>", v);
            ncomp++;
        } else {
            double p = top(r, true, c->measured), ridge = p / c->value;
            double i0 = fmax(ix0, pow(10, a.ly0) / c->value); /* where it enters the plot */
            dlti_buf_printf(&b, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"",
                            X(&a, i0), Y(&a, i0 * c->value), X(&a, ridge), Y(&a, p));
            style(&b, c, color);
            dlti_buf_printf(&b, "/><circle cx=\"%.1f\" cy=\"%.1f\" r=\"4\" fill=\"%s\"/>",
                            X(&a, ridge), Y(&a, p), color);
            /* The label along the line, staggered so that close lines do not
             * write over each other. */
            double f = 0.06 + 0.13 * (double)(nbw % 4);
            double li = pow(10, log10(i0) + f * (log10(ridge) - log10(i0)));
            double dx = X(&a, ridge) - X(&a, i0), dy = Y(&a, p) - Y(&a, i0 * c->value);
            double ang = atan2(dy, dx) * 180 / 3.14159265358979323846;
            si(v, sizeof(v), c->value, "B/s");
            dlti_buf_printf(&b,
                            "<text transform=\"translate(%.1f %.1f) rotate(%.1f)\" dy=\"-5\" "
                            "fill=\"%s\">",
                            X(&a, li), Y(&a, li * c->value), ang, color);
            dlti_buf_printf(&b, "%s ", c->measured ? "measured" : "nominal");
            esc(&b, c->label);
            dlti_buf_printf(&b, " %s</text>", v);
            /* The ridge's intensity, under its dot. */
            dlti_buf_printf(&b,
                            "<text x=\"%.1f\" y=\"%.1f\" font-size=\"10\" fill=\"%s\" "
                            "text-anchor=\"middle\">%.3g</text>",
                            X(&a, ridge), Y(&a, p) + 16 + 11.0 * (double)(nbw % 2), color, ridge);
            nbw++;
        }
        dlti_buf_puts(&b, "</g>\n");
    }
    dlti_buf_puts(&b, "</g>\n");

    /* The legend: every ceiling, its value and the key it came from. */
    double y = PY0 + 4;
    dlti_buf_printf(&b, "<g font-size=\"11\"><text x=\"%d\" y=\"%.1f\" font-weight=\"bold\" "
                        "font-size=\"12\">ceilings</text>\n<text x=\"%d\" y=\"%.1f\" "
                        "fill=\"#555\">numbers under the dots: ridge intensity, FLOP/byte"
                        "</text>\n", LEGEND_X, y, LEGEND_X, y + 15);
    y += 37;
    size_t nmeas = 0, nnom = 0;
    for (size_t i = 0; i < r->n; i++) {
        const sysdesc_roofline_ceiling *c = &r->c[i];
        c->measured ? nmeas++ : nnom++;
        dlti_buf_printf(&b, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\"", LEGEND_X,
                        y - 4, LEGEND_X + 26, y - 4);
        style(&b, c, colors[i % NCOLORS]);
        si(v, sizeof(v), c->value, c->compute ? "FLOP/s" : "B/s");
        dlti_buf_printf(&b, "/><text x=\"%d\" y=\"%.1f\">%s ", LEGEND_X + 32, y,
                        c->measured ? "measured" : "nominal");
        esc(&b, c->label);
        dlti_buf_printf(&b, ": %s</text>\n<text x=\"%d\" y=\"%.1f\" fill=\"#777\" "
                            "font-size=\"9\">", v, LEGEND_X + 32, y + 11);
        esc(&b, c->key);
        dlti_buf_puts(&b, "</text>\n");
        y += 26;
    }
    y += 6;
    dlti_buf_printf(&b, "<text x=\"%d\" y=\"%.1f\" fill=\"#555\">%zu measured, %zu nominal "
                        "ceiling%s</text>\n", LEGEND_X, y, nmeas, nnom,
                    nmeas + nnom == 1 ? "" : "s");
    if (!nmeas)
        dlti_buf_printf(&b, "<text x=\"%d\" y=\"%.1f\" fill=\"#555\">measured: none in this "
                            "spec (sysdesc measure)</text>\n", LEGEND_X, y + 15);
    if (!nnom)
        dlti_buf_printf(&b, "<text x=\"%d\" y=\"%.1f\" fill=\"#555\">nominal: none in this "
                            "spec</text>\n", LEGEND_X, y + 15);
    dlti_buf_puts(&b, "</g>\n</svg>\n");
    if (b.failed || !b.data) {
        free(b.data);
        dlti_error_set(err, DLTI_ERROR_NOMEM, "roofline: out of memory");
        return NULL;
    }
    if (len)
        *len = b.len;
    return b.data;
}
