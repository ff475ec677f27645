/* The roofline of `sysdesc roofline` as SVG, by our own small emitter:
 * log-log axes (FLOP/byte against FLOP/s), a diagonal per bandwidth
 * ceiling up to its ridge with the highest compute ceiling, a horizontal
 * line per compute ceiling from the highest diagonal on; measured solid,
 * nominal dashed; the caller's kernels as diamonds, each named; the legend
 * below the plot, every ceiling with its value, ridge and key, every kernel
 * with its rate, intensity and the fraction of the roof it reaches.
 *
 * Labels are placed, not just put: each one takes the first of its
 * candidate places whose box stays inside the plot and touches no label,
 * line or dot placed before it (text widths estimated from DejaVu Sans,
 * the widest of the fonts asked for); a label with no free place is left
 * to the legend.  tests/cli/roofline_browser.py renders the result in
 * Chromium and checks every text's real box. */
#define _GNU_SOURCE /* open_memstream */
#include "cli.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define W 900.0
#define PX0 86.0 /* the plot area */
#define PX1 876.0
#define PY0 68.0
#define PY1 528.0
#define LEGEND_Y 604.0
#define ROW 30.0

static const char *const colors[] = {"#1f77b4", "#d62728", "#2ca02c", "#9467bd",
                                     "#ff7f0e", "#8c564b", "#e377c2", "#17becf",
                                     "#7f7f7f", "#bcbd22", "#393b79", "#ad494a"};
#define NCOLORS (sizeof(colors) / sizeof(colors[0]))
/* Dashes of nominal lines; lines drawn on the same pixels take the next. */
static const char *const dashes[] = {"7 5", "2 3", "10 3 2 3"};

/* A text's box as placed, turned with the text: four corners in order. */
typedef struct quad {
    double x[4], y[4];
} quad;

typedef struct seg {
    double x0, y0, x1, y1;
} seg;

typedef struct layout {
    double lx0, lx1, ly0, ly1; /* log10 of the axes' ranges */
    quad labels[3 * SYSDESC_ROOFLINE_MAX + SYSDESC_ROOFLINE_MAX_POINTS];
    size_t nlabels;
    seg lines[SYSDESC_ROOFLINE_MAX];
    size_t nlines;
    quad dots[SYSDESC_ROOFLINE_MAX + SYSDESC_ROOFLINE_MAX_POINTS];
    size_t ndots;
} layout;

static double X(const layout *l, double i)
{
    return PX0 + (log10(i) - l->lx0) / (l->lx1 - l->lx0) * (PX1 - PX0);
}

static double Y(const layout *l, double p)
{
    return PY1 - (log10(p) - l->ly0) / (l->ly1 - l->ly0) * (PY1 - PY0);
}

/* Advance widths of DejaVu Sans (the widest of the fonts asked for), in
 * em, 3% over: the boxes labels are placed by. */
static double text_width(const char *s, double size)
{
    static const double lower[26] = {0.613, 0.635, 0.550, 0.635, 0.615, 0.352, 0.635, 0.634,
                                     0.278, 0.278, 0.579, 0.278, 0.974, 0.634, 0.612, 0.635,
                                     0.635, 0.411, 0.521, 0.392, 0.634, 0.592, 0.818, 0.592,
                                     0.592, 0.525};
    static const double upper[26] = {0.684, 0.686, 0.698, 0.770, 0.632, 0.575, 0.775, 0.752,
                                     0.295, 0.295, 0.656, 0.557, 0.863, 0.748, 0.787, 0.603,
                                     0.787, 0.695, 0.635, 0.611, 0.732, 0.684, 0.989, 0.685,
                                     0.611, 0.685};
    double em = 0;
    for (const unsigned char *c = (const unsigned char *)s; *c; c++) {
        if (*c >= 'a' && *c <= 'z')
            em += lower[*c - 'a'];
        else if (*c >= 'A' && *c <= 'Z')
            em += upper[*c - 'A'];
        else if (*c >= '0' && *c <= '9')
            em += 0.636;
        else if (strchr(" .,:;", *c))
            em += 0.338;
        else if (strchr("=+<>~", *c))
            em += 0.838;
        else if (*c >= 0xc0)
            em += 0.84; /* a character outside ASCII (×, é): as wide as most */
        else if (*c < 0x80)
            em += 0.50; /* / ( ) - _ ' and the rest: at most this */
    }
    return em * size * 1.03;
}

static quad box_quad(double x0, double y0, double x1, double y1)
{
    return (quad){{x0, x1, x1, x0}, {y0, y0, y1, y1}};
}

/* A label as SVG draws it: text of width `w` with its anchor ('s'tart,
 * 'm'iddle, 'e'nd) at (x, y), turned by `deg` degrees about that point,
 * its baseline `dy` below it. */
typedef struct placed_text {
    double x, y, deg, dy;
    char anchor;
} placed_text;

static quad text_quad(const placed_text *t, double w, double size)
{
    double x0 = t->anchor == 's' ? 0 : t->anchor == 'm' ? -w / 2 : -w;
    quad local = box_quad(x0, t->dy - 0.78 * size, x0 + w, t->dy + 0.24 * size), q;
    double c = cos(t->deg * M_PI / 180), sn = sin(t->deg * M_PI / 180);
    for (int i = 0; i < 4; i++) {
        q.x[i] = t->x + local.x[i] * c - local.y[i] * sn;
        q.y[i] = t->y + local.x[i] * sn + local.y[i] * c;
    }
    return q;
}

/* Whether two convex polygons come within `pad` of each other (separating
 * axes: they do unless some edge's normal separates them). */
static bool polys_meet(const double *ax, const double *ay, int na, const double *bx,
                       const double *by, int nb, double pad)
{
    for (int p = 0; p < 2; p++) {
        const double *px = p ? bx : ax, *py = p ? by : ay;
        int n = p ? nb : na;
        for (int i = 0; i < n; i++) {
            double ex = px[(i + 1) % n] - px[i], ey = py[(i + 1) % n] - py[i];
            double len = hypot(ex, ey);
            if (len == 0)
                continue;
            double nx = -ey / len, ny = ex / len;
            double amin = INFINITY, amax = -INFINITY, bmin = INFINITY, bmax = -INFINITY;
            for (int k = 0; k < na; k++) {
                double d = ax[k] * nx + ay[k] * ny;
                amin = fmin(amin, d), amax = fmax(amax, d);
            }
            for (int k = 0; k < nb; k++) {
                double d = bx[k] * nx + by[k] * ny;
                bmin = fmin(bmin, d), bmax = fmax(bmax, d);
            }
            if (amax + pad <= bmin || bmax + pad <= amin)
                return false;
        }
    }
    return true;
}

static bool quads_meet(const quad *a, const quad *b, double pad)
{
    return polys_meet(a->x, a->y, 4, b->x, b->y, 4, pad);
}

static bool seg_meets(const seg *s, const quad *q, double pad)
{
    double sx[2] = {s->x0, s->x1}, sy[2] = {s->y0, s->y1};
    return polys_meet(sx, sy, 2, q->x, q->y, 4, pad);
}

/* A label is free inside the plot when it touches no label, line or dot. */
static bool free_in_plot(const layout *l, const quad *q)
{
    for (int i = 0; i < 4; i++)
        if (q->x[i] < PX0 + 3 || q->x[i] > PX1 - 3 || q->y[i] < PY0 + 3 || q->y[i] > PY1 - 3)
            return false;
    for (size_t i = 0; i < l->nlabels; i++)
        if (quads_meet(q, &l->labels[i], 2))
            return false;
    for (size_t i = 0; i < l->nlines; i++)
        if (seg_meets(&l->lines[i], q, 1.5))
            return false;
    for (size_t i = 0; i < l->ndots; i++)
        if (quads_meet(q, &l->dots[i], 1))
            return false;
    return true;
}

static void esc(FILE *f, const char *s)
{
    for (; *s; s++) {
        switch (*s) {
        case '&': fputs("&amp;", f); break;
        case '<': fputs("&lt;", f); break;
        case '>': fputs("&gt;", f); break;
        case '"': fputs("&quot;", f); break;
        default:
            /* Controls are not XML characters: drop them. */
            if ((unsigned char)*s >= 0x20 || *s == '\t')
                fputc(*s, f);
        }
    }
}

/* 234.6 GFLOP/s, 3.35 TB/s. */
void cli_roofline_si(char *out, size_t size, double v, const char *unit)
{
    static const char *const pre[] = {"", "k", "M", "G", "T", "P", "E"};
    size_t k = 0;
    while (k + 1 < sizeof(pre) / sizeof(pre[0]) && v >= 1000) {
        v /= 1000;
        k++;
    }
    snprintf(out, size, "%.*f %s%s", v >= 100 ? 0 : v >= 10 ? 1 : 2, v, pre[k], unit);
}

/* A decade's tick, one style on each axis: 0.01, 0.1, 1, 10, 100, 1 k,
 * 10 k (intensity); 1 M, 10 M, ..., 1 G, 10 G, 100 G, 1 T (FLOP/s). */
static void tick(char *out, size_t size, int e)
{
    static const char *const pre[] = {"", "k", "M", "G", "T", "P", "E", "Z"};
    if (e < 0)
        snprintf(out, size, "%.*f", -e, pow(10, e));
    else if (e < 3)
        snprintf(out, size, "%.0f", pow(10, e));
    else
        snprintf(out, size, "%.0f %s", pow(10, e % 3), pre[e / 3 < 7 ? e / 3 : 7]);
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

/* Lines that would fall on the same pixels (H100: FP64 matrix = FP32
 * vector; FP16 = BF16 matrix) are drawn 3 px apart, each visible: for each
 * member i, shift[i] in pixels, group[i] its place among the members
 * sharing its pixels (0 alone, else 1, 2, ...), leader[i] the first of
 * them.  Entries of non-members are left as they are. */
static void spread(const double *pos, size_t n, const bool *member, double *shift, int *group,
                   size_t *leader)
{
    for (size_t i = 0; i < n; i++)
        if (member[i]) {
            shift[i] = 0;
            group[i] = 0;
            leader[i] = i;
        }
    for (size_t i = 0; i < n; i++) {
        if (!member[i] || group[i])
            continue;
        size_t same[SYSDESC_ROOFLINE_MAX], k = 0;
        for (size_t j = i; j < n; j++)
            if (member[j] && fabs(pos[j] - pos[i]) < 2.5 && (j == i || !group[j]))
                same[k++] = j;
        for (size_t m = 0; m < k; m++) {
            shift[same[m]] = ((double)m - (double)(k - 1) / 2) * 3.0;
            group[same[m]] = (int)m + (k > 1);
            leader[same[m]] = i;
        }
    }
}

static void style(FILE *f, const sysdesc_roofline_ceiling *c, const char *color, int group)
{
    fprintf(f, " stroke=\"%s\" stroke-width=\"%s\" fill=\"none\"", color,
            c->measured ? "2.5" : "2");
    if (!c->measured || group > 1)
        fprintf(f, " stroke-dasharray=\"%s\"",
                dashes[group > 1 ? (size_t)(group - 1) % 3 : 0]);
}

/* Text shrunk to fit `width` (down to 9 px, then cut with "..."). */
static double fit(char *text, double size, double width)
{
    double w = text_width(text, size);
    if (w > width)
        size = fmax(9, size * width / w);
    while (text_width(text, size) > width && strlen(text) > 4)
        strcpy(text + strlen(text) - 4, "...");
    return size;
}

/* A label's text: "FP64 vector 220 GFLOP/s"; for lines drawn together one
 * label for all, "FP64 matrix = FP32 vector 66.9 TFLOP/s" (each name in its
 * line's color when `f`), or each with its value where they differ.  With
 * `f` NULL it goes to `out` (plain, for its width). */
static void label_text(FILE *f, char *out, size_t size, const sysdesc_roofline *r,
                       const size_t *leader, size_t lead, bool both)
{
    char v[48], first[48] = "", line[200] = "";
    bool same = true, one_kind = true;
    for (size_t i = lead; i < r->n; i++)
        if (leader[i] == lead) {
            cli_roofline_si(v, sizeof v, r->c[i].value, r->c[i].compute ? "FLOP/s" : "B/s");
            same &= !first[0] || strcmp(first, v) == 0;
            one_kind &= r->c[i].measured == r->c[lead].measured;
            if (!first[0])
                snprintf(first, sizeof first, "%s", v);
        }
    size_t used = 0, n = 0;
    for (size_t i = lead; i < r->n; i++) {
        if (leader[i] != lead)
            continue;
        const sysdesc_roofline_ceiling *c = &r->c[i];
        const char *sep = n++ ? (same ? " = " : ", ") : "";
        char name[160];
        cli_roofline_si(v, sizeof v, c->value, c->compute ? "FLOP/s" : "B/s");
        bool kind = both && (n == 1 || !one_kind); /* "nominal FP64 matrix = FP32 vector" */
        snprintf(name, sizeof name, "%s%s%s%s", kind ? (c->measured ? "measured " : "nominal ") : "",
                 c->label, same ? "" : " ", same ? "" : v);
        if (f) {
            fprintf(f, "%s<tspan fill=\"%s\">", sep, colors[i % NCOLORS]);
            esc(f, name);
            fputs("</tspan>", f);
        }
        used += (size_t)snprintf(line + used, sizeof line - (used < sizeof line ? used : 0),
                                 "%s%s", sep, name);
        if (used >= sizeof line)
            used = sizeof line - 1;
    }
    if (same) {
        if (f)
            fprintf(f, " %s", first);
        snprintf(line + used, sizeof line - used, " %s", first);
    }
    if (out)
        snprintf(out, size, "%s", line);
}

/* <text class=CLASS ...> of a placed label, open for its content. */
static void put_text_open(FILE *f, const placed_text *t, const char *cls, double size,
                          const char *color)
{
    static const char *const anchors[] = {"start", "middle", "end"};
    const char *anchor = anchors[t->anchor == 's' ? 0 : t->anchor == 'm' ? 1 : 2];
    if (t->deg != 0)
        fprintf(f, "<text class=\"%s\" transform=\"translate(%.1f %.1f) rotate(%.2f)\" "
                   "dy=\"%.1f\"", cls, t->x, t->y, t->deg, t->dy);
    else
        fprintf(f, "<text class=\"%s\" x=\"%.1f\" y=\"%.1f\"", cls, t->x, t->y);
    fprintf(f, " font-size=\"%.0f\" text-anchor=\"%s\" fill=\"%s\">", size, anchor, color);
}

/* One chart being drawn: the ceilings, the axes and what is placed on
 * them (l), each line's segment and ridge, the lines drawn together, and
 * where each label went. */
typedef struct chart {
    const sysdesc_roofline *r;
    layout l;
    bool measured, nominal; /* some ceiling is measured; some is nominal */
    seg line[SYSDESC_ROOFLINE_MAX];
    double ridge[SYSDESC_ROOFLINE_MAX]; /* a bandwidth's, FLOP/byte */
    /* spread(), of the compute ceilings and of the bandwidths apart */
    double shift[SYSDESC_ROOFLINE_MAX];
    int group[SYSDESC_ROOFLINE_MAX];
    size_t leader[SYSDESC_ROOFLINE_MAX];
    bool placed[SYSDESC_ROOFLINE_MAX], ridge_placed[SYSDESC_ROOFLINE_MAX];
    placed_text at[SYSDESC_ROOFLINE_MAX], ridge_at[SYSDESC_ROOFLINE_MAX];
    char ridge_text[SYSDESC_ROOFLINE_MAX][16];
    /* the kernels: each marker's centre, and its name's place */
    double px[SYSDESC_ROOFLINE_MAX_POINTS], py[SYSDESC_ROOFLINE_MAX_POINTS];
    bool point_placed[SYSDESC_ROOFLINE_MAX_POINTS];
    placed_text point_at[SYSDESC_ROOFLINE_MAX_POINTS];
} chart;

/* Ranges: every ridge well inside, whole decades, at most 9 of them up. */
static void set_ranges(chart *ch)
{
    const sysdesc_roofline *r = ch->r;
    layout *l = &ch->l;
    double pmin = INFINITY, pmax = 0, bmin = INFINITY, bmax = 0;
    for (size_t i = 0; i < r->n; i++) {
        const sysdesc_roofline_ceiling *c = &r->c[i];
        ch->measured |= c->measured;
        ch->nominal |= !c->measured;
        if (c->compute) {
            pmin = fmin(pmin, c->value);
            pmax = fmax(pmax, c->value);
        } else {
            bmin = fmin(bmin, c->value);
            bmax = fmax(bmax, c->value);
        }
    }
    double imin = pmin / bmax, imax = pmax / bmin;
    l->lx0 = floor(log10(imin / 8));
    l->lx1 = ceil(log10(imax * 8));
    if (l->lx1 - l->lx0 < 3)
        l->lx1 = l->lx0 + 3;
    l->ly1 = ceil(log10(pmax * 2));
    l->ly0 = floor(log10(fmin(pmin / 4, bmin * pow(10, l->lx0) * 4)));
    if (l->ly1 - l->ly0 > 9)
        l->ly0 = l->ly1 - 9;
    if (l->ly1 - l->ly0 < 3)
        l->ly0 = l->ly1 - 3;
    /* Every kernel inside, a little off the frame, whatever the decades:
     * a point is what the reader came to see (its band is bounded:
     * sysdesc_roofline_add_point). */
    for (size_t i = 0; i < r->npoints; i++) {
        l->lx0 = fmin(l->lx0, floor(log10(r->p[i].intensity / 1.5)));
        l->lx1 = fmax(l->lx1, ceil(log10(r->p[i].intensity * 1.5)));
        l->ly0 = fmin(l->ly0, floor(log10(r->p[i].rate / 1.5)));
        l->ly1 = fmax(l->ly1, ceil(log10(r->p[i].rate * 1.5)));
    }
}

/* The document, its background, title and subtitle. */
static void put_head(FILE *f, const chart *ch)
{
    const sysdesc_roofline *r = ch->r;
    double H = LEGEND_Y + 30 + ROW * (double)(r->n + r->npoints + (r->npoints > 0)) + 44;
    fprintf(f,
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" "
            "viewBox=\"0 0 %.0f %.0f\" font-family=\"DejaVu Sans, Helvetica, Arial, "
            "sans-serif\" font-size=\"12\">\n"
            "<rect width=\"%.0f\" height=\"%.0f\" fill=\"white\"/>\n",
            W, H, W, H, W, H);
    char title[256], sub[256];
    snprintf(title, sizeof title, "Roofline: %s", r->title[0] ? r->title : r->device_id);
    if (r->measured_by[0])
        snprintf(sub, sizeof sub, "solid: measured (%s)%s", r->measured_by,
                 ch->nominal ? "; dashed: nominal" : "; nothing nominal");
    else
        snprintf(sub, sizeof sub, "dashed: nominal (datasheet / catalog values); nothing measured");
    double ts = fit(title, 17, W - PX0 - 12), ss = fit(sub, 12, W - PX0 - 12);
    fprintf(f, "<text x=\"%.0f\" y=\"30\" font-size=\"%.1f\" font-weight=\"bold\">", PX0, ts);
    esc(f, title);
    fprintf(f, "</text>\n<text x=\"%.0f\" y=\"50\" font-size=\"%.1f\" fill=\"#555\">", PX0, ss);
    esc(f, sub);
    fputs("</text>\n", f);
}

/* Grid, ticks, axis titles, the plot's frame and clip path. */
static void put_axes(FILE *f, const layout *l)
{
    fputs("<g stroke=\"#e3e3e3\" stroke-width=\"1\">\n", f);
    for (int e = (int)l->lx0; e <= (int)l->lx1; e++)
        fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>\n",
                X(l, pow(10, e)), PY0, X(l, pow(10, e)), PY1);
    for (int e = (int)l->ly0; e <= (int)l->ly1; e++)
        fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>\n", PX0,
                Y(l, pow(10, e)), PX1, Y(l, pow(10, e)));
    fputs("</g>\n<g fill=\"#333\" class=\"ticks\">\n", f);
    char t[64];
    for (int e = (int)l->lx0; e <= (int)l->lx1; e++) {
        tick(t, sizeof t, e);
        fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%s</text>\n",
                X(l, pow(10, e)), PY1 + 18, t);
    }
    for (int e = (int)l->ly0; e <= (int)l->ly1; e++) {
        tick(t, sizeof t, e);
        fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">%s</text>\n", PX0 - 8,
                Y(l, pow(10, e)) + 4, t);
    }
    fprintf(f,
            "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" font-size=\"13\">"
            "arithmetic intensity (FLOP/byte)</text>\n"
            "<text transform=\"translate(22 %.1f) rotate(-90)\" text-anchor=\"middle\" "
            "font-size=\"13\">performance (FLOP/s)</text>\n</g>\n",
            (PX0 + PX1) / 2, PY1 + 42, (PY0 + PY1) / 2);
    fprintf(f,
            "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"none\" "
            "stroke=\"#333\"/>\n<defs><clipPath id=\"plot\"><rect x=\"%.1f\" y=\"%.1f\" "
            "width=\"%.1f\" height=\"%.1f\"/></clipPath></defs>\n",
            PX0, PY0, PX1 - PX0, PY1 - PY0, PX0, PY0, PX1 - PX0, PY1 - PY0);
}

/* Where each line runs, with lines on the same pixels spread apart. */
static void place_lines(chart *ch)
{
    const sysdesc_roofline *r = ch->r;
    layout *l = &ch->l;
    double pos[SYSDESC_ROOFLINE_MAX] = {0};
    bool is_compute[SYSDESC_ROOFLINE_MAX] = {false}, is_bw[SYSDESC_ROOFLINE_MAX] = {false};
    for (size_t i = 0; i < r->n; i++) {
        is_compute[i] = r->c[i].compute;
        is_bw[i] = !r->c[i].compute;
        pos[i] = Y(l, r->c[i].value); /* a diagonal's height at intensity 1 */
    }
    spread(pos, r->n, is_compute, ch->shift, ch->group, ch->leader);
    spread(pos, r->n, is_bw, ch->shift, ch->group, ch->leader);
    double ix0 = pow(10, l->lx0);
    for (size_t i = 0; i < r->n; i++) {
        const sysdesc_roofline_ceiling *c = &r->c[i];
        seg *s = &ch->line[i];
        if (c->compute) {
            double start = c->value / top(r, false, c->measured);
            double y = Y(l, c->value) + ch->shift[i];
            *s = (seg){X(l, start), y, PX1, y};
        } else {
            double p = top(r, true, c->measured);
            ch->ridge[i] = p / c->value;
            double i0 = fmax(ix0, pow(10, l->ly0) / c->value); /* where it enters the plot */
            *s = (seg){X(l, i0), Y(l, i0 * c->value) + ch->shift[i], X(l, ch->ridge[i]),
                       Y(l, p) + ch->shift[i]};
            l->dots[l->ndots++] = box_quad(s->x1 - 4, s->y1 - 4, s->x1 + 4, s->y1 + 4);
        }
        l->lines[l->nlines++] = *s;
    }
    for (size_t i = 0; i < r->npoints; i++) {
        ch->px[i] = X(l, r->p[i].intensity);
        ch->py[i] = Y(l, r->p[i].rate);
        l->dots[l->ndots++] = box_quad(ch->px[i] - 6, ch->py[i] - 6, ch->px[i] + 6,
                                       ch->py[i] + 6);
    }
}

/* The places a label of width `w` may take along line i, best first. */
static size_t label_candidates(const chart *ch, size_t i, double w, placed_text *cand,
                               size_t most)
{
    const seg *s = &ch->line[i];
    size_t n = 0;
    if (ch->r->c[i].compute) {
        /* lines drawn together: above the highest, below the lowest */
        double hi = s->y0, lo = s->y0;
        for (size_t j = i; j < ch->r->n; j++)
            if (ch->leader[j] == i) {
                hi = fmin(hi, ch->line[j].y0);
                lo = fmax(lo, ch->line[j].y0);
            }
        for (double x = PX1 - 6; x - w >= s->x0 - 1 && n + 2 <= most; x -= 24) {
            cand[n++] = (placed_text){x, hi - 6, 0, 0, 'e'};
            cand[n++] = (placed_text){x, lo + 15, 0, 0, 'e'};
        }
        return n;
    }
    /* Level, below and right of the rising line or above and left of it;
     * else turned along it, above or below it. */
    static const double along[] = {0.35, 0.5, 0.2, 0.65, 0.1, 0.8};
    double deg = atan2(s->y1 - s->y0, s->x1 - s->x0) * 180 / M_PI;
    for (int turned = 0; turned < 2; turned++)
        for (size_t k = 0; k < sizeof along / sizeof along[0] && n + 2 <= most; k++) {
            double px = s->x0 + along[k] * (s->x1 - s->x0);
            double py = s->y0 + along[k] * (s->y1 - s->y0);
            if (turned) {
                cand[n++] = (placed_text){px, py, deg, -5, 's'};
                cand[n++] = (placed_text){px, py, deg, 14, 's'};
            } else {
                cand[n++] = (placed_text){px + 6, py + 16, 0, 0, 's'};
                cand[n++] = (placed_text){px - 6, py - 7, 0, 0, 'e'};
            }
        }
    return n;
}

/* Labels: compute ceilings at their right end, then the diagonals along
 * their length, then the ridges' intensities by their dots. */
static void place_labels(chart *ch)
{
    const sysdesc_roofline *r = ch->r;
    layout *l = &ch->l;
    /* Highest first: the top line's label takes the room above it, the next
     * one's the room below, and so on down. */
    size_t order[SYSDESC_ROOFLINE_MAX];
    for (size_t i = 0; i < r->n; i++) {
        size_t k = i;
        while (k > 0 && r->c[order[k - 1]].value < r->c[i].value) {
            order[k] = order[k - 1];
            k--;
        }
        order[k] = i;
    }
    for (int pass = 0; pass < 2; pass++)
        for (size_t o = 0; o < r->n; o++) {
            size_t i = order[o];
            if (r->c[i].compute != (pass == 0) || ch->leader[i] != i)
                continue;
            char text[160];
            label_text(NULL, text, sizeof text, r, ch->leader, i, ch->measured && ch->nominal);
            double w = text_width(text, 12);
            placed_text cand[96];
            size_t ncand = label_candidates(ch, i, w, cand, 96);
            for (size_t k = 0; k < ncand && !ch->placed[i]; k++) {
                quad q = text_quad(&cand[k], w, 12);
                if (free_in_plot(l, &q)) {
                    ch->placed[i] = true;
                    ch->at[i] = cand[k];
                    l->labels[l->nlabels++] = q;
                }
            }
        }
    for (size_t i = 0; i < r->n; i++) {
        if (r->c[i].compute)
            continue;
        snprintf(ch->ridge_text[i], sizeof ch->ridge_text[i], "%.3g", ch->ridge[i]);
        double w = text_width(ch->ridge_text[i], 10), cx = ch->line[i].x1, cy = ch->line[i].y1;
        static const struct { double dx, dy; char anchor; } around[] = {
            {6, 15, 's'}, {0, -8, 'm'}, {-7, -7, 'e'}, {0, 18, 'm'}, {7, -8, 's'}, {9, 24, 's'}};
        for (size_t k = 0; k < sizeof around / sizeof around[0] && !ch->ridge_placed[i]; k++) {
            placed_text t = {cx + around[k].dx, cy + around[k].dy, 0, 0, around[k].anchor};
            quad q = text_quad(&t, w, 10);
            if (free_in_plot(l, &q)) {
                ch->ridge_placed[i] = true;
                ch->ridge_at[i] = t;
                l->labels[l->nlabels++] = q;
            }
        }
    }
    /* Each kernel's name by its diamond: right, left, above, below, then
     * further out; one with no free place is named in the legend alone. */
    for (size_t i = 0; i < r->npoints; i++) {
        double w = text_width(r->p[i].name, 11), cx = ch->px[i], cy = ch->py[i];
        static const struct { double dx, dy; char anchor; } around[] = {
            {10, 4, 's'}, {-10, 4, 'e'}, {0, -11, 'm'}, {0, 19, 'm'}, {9, -8, 's'},
            {-9, -8, 'e'}, {9, 17, 's'}, {-9, 17, 'e'}, {18, 4, 's'}, {-18, 4, 'e'},
            {0, -22, 'm'}, {0, 30, 'm'}};
        for (size_t k = 0; k < sizeof around / sizeof around[0] && !ch->point_placed[i]; k++) {
            placed_text t = {cx + around[k].dx, cy + around[k].dy, 0, 0, around[k].anchor};
            quad q = text_quad(&t, w, 11);
            if (free_in_plot(l, &q)) {
                ch->point_placed[i] = true;
                ch->point_at[i] = t;
                l->labels[l->nlabels++] = q;
            }
        }
    }
}

/* The ceilings, clipped to the plot, each with its dot; their labels over
 * every line. */
static void put_ceilings(FILE *f, const chart *ch)
{
    const sysdesc_roofline *r = ch->r;
    fputs("<g clip-path=\"url(#plot)\">\n", f);
    for (size_t i = 0; i < r->n; i++) {
        const sysdesc_roofline_ceiling *c = &r->c[i];
        const char *color = colors[i % NCOLORS];
        const seg *s = &ch->line[i];
        fprintf(f, "<g class=\"ceiling %s %s\" data-key=\"", c->measured ? "measured" : "nominal",
                c->compute ? "compute" : "bandwidth");
        esc(f, c->key);
        fprintf(f, "\"><line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"", s->x0, s->y0,
                s->x1, s->y1);
        style(f, c, color, ch->group[i]);
        fputs("/>", f);
        if (!c->compute)
            fprintf(f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"4\" fill=\"%s\"/>", s->x1, s->y1,
                    color);
        fputs("</g>\n", f);
    }
    fputs("</g>\n<g class=\"labels\">\n", f);
    for (size_t i = 0; i < r->n; i++) {
        const char *color = colors[i % NCOLORS];
        if (ch->placed[i]) {
            put_text_open(f, &ch->at[i], "label", 12,
                          ch->group[i] ? "#444" : color);
            label_text(f, NULL, 0, r, ch->leader, i, ch->measured && ch->nominal);
            fputs("</text>\n", f);
        }
        if (!r->c[i].compute && ch->ridge_placed[i]) {
            put_text_open(f, &ch->ridge_at[i], "ridge", 10, color);
            fprintf(f, "%s</text>\n", ch->ridge_text[i]);
        }
    }
    fputs("</g>\n", f);
}

/* A kernel's diamond at (x, y). */
static void put_diamond(FILE *f, double x, double y)
{
    fprintf(f, "<path d=\"M %.1f %.1f L %.1f %.1f L %.1f %.1f L %.1f %.1f Z\" fill=\"#222\" "
               "stroke=\"white\" stroke-width=\"1.2\"/>", x, y - 6, x + 6, y, x, y + 6, x - 6, y);
}

/* The kernels over everything: diamonds, then their names. */
static void put_points(FILE *f, const chart *ch)
{
    const sysdesc_roofline *r = ch->r;
    if (!r->npoints)
        return;
    fputs("<g class=\"points\">\n", f);
    for (size_t i = 0; i < r->npoints; i++) {
        fputs("<g class=\"point\" data-name=\"", f);
        esc(f, r->p[i].name);
        fprintf(f, "\" data-intensity=\"%.6g\" data-rate=\"%.6g\">", r->p[i].intensity,
                r->p[i].rate);
        put_diamond(f, ch->px[i], ch->py[i]);
        fputs("</g>\n", f);
    }
    for (size_t i = 0; i < r->npoints; i++) {
        if (!ch->point_placed[i])
            continue;
        put_text_open(f, &ch->point_at[i], "point-label", 11, "#222");
        esc(f, r->p[i].name);
        fputs("</text>\n", f);
    }
    fputs("</g>\n", f);
}

/* The legend: every ceiling, its value, its ridge and the key. */
static void put_legend(FILE *f, const chart *ch)
{
    const sysdesc_roofline *r = ch->r;
    double y = LEGEND_Y;
    fprintf(f, "<g class=\"legend\" font-size=\"12\"><text x=\"%.0f\" y=\"%.1f\" "
               "font-weight=\"bold\">ceilings</text>\n<text x=\"%.0f\" y=\"%.1f\" fill=\"#555\" "
               "font-size=\"11\">a bandwidth's ridge: where it meets the highest compute "
               "ceiling of its kind (the number by its dot, FLOP/byte)</text>\n",
            PX0, y, PX0, y + 16);
    y += 40;
    size_t nmeas = 0, nnom = 0;
    for (size_t i = 0; i < r->n; i++) {
        const sysdesc_roofline_ceiling *c = &r->c[i];
        c->measured ? nmeas++ : nnom++;
        fprintf(f, "<line x1=\"%.0f\" y1=\"%.1f\" x2=\"%.0f\" y2=\"%.1f\"", PX0, y - 4, PX0 + 28,
                y - 4);
        style(f, c, colors[i % NCOLORS], ch->group[i]);
        char v[48];
        cli_roofline_si(v, sizeof v, c->value, c->compute ? "FLOP/s" : "B/s");
        fprintf(f, "/><text x=\"%.0f\" y=\"%.1f\">%s ", PX0 + 36, y,
                c->measured ? "measured" : "nominal");
        esc(f, c->label);
        fprintf(f, ": %s", v);
        if (!c->compute)
            fprintf(f, ", ridge at %.3g FLOP/byte", ch->ridge[i]);
        fprintf(f, "</text>\n<text x=\"%.0f\" y=\"%.1f\" fill=\"#777\" font-size=\"10\">",
                PX0 + 36, y + 12);
        esc(f, c->key);
        fputs("</text>\n", f);
        y += ROW;
    }
    if (r->npoints) {
        fprintf(f, "<text x=\"%.0f\" y=\"%.1f\" font-weight=\"bold\">kernels</text>\n", PX0, y);
        y += ROW;
    }
    for (size_t i = 0; i < r->npoints; i++) {
        const sysdesc_roofline_point *p = &r->p[i];
        const sysdesc_roofline_ceiling *roof = &r->c[p->roof_ceiling];
        char rate[48], at_roof[48];
        cli_roofline_si(rate, sizeof rate, p->rate, "FLOP/s");
        cli_roofline_si(at_roof, sizeof at_roof, p->roof, "FLOP/s");
        put_diamond(f, PX0 + 14, y - 4);
        fprintf(f, "<text x=\"%.0f\" y=\"%.1f\">", PX0 + 36, y);
        esc(f, p->name);
        fprintf(f, ": %s at %.3g FLOP/byte, %.0f%% of the roof there (%s)</text>\n", rate,
                p->intensity, 100 * p->fraction, at_roof);
        fprintf(f, "<text x=\"%.0f\" y=\"%.1f\" fill=\"#777\" font-size=\"10\">%s, under %s ",
                PX0 + 36, y + 12, roof->compute ? "compute-bound" : "memory-bound",
                roof->measured ? "measured" : "nominal");
        esc(f, roof->label);
        if (p->above >= 0 && (size_t)p->above != p->roof_ceiling) {
            fputs("; the next ceiling up: ", f);
            esc(f, r->c[p->above].label);
        } else if (p->above < 0) {
            fputs("; above every ceiling", f);
        }
        fputs("</text>\n", f);
        y += ROW;
    }
    fprintf(f, "<text x=\"%.0f\" y=\"%.1f\" fill=\"#555\">%zu measured, %zu nominal "
               "ceiling%s%s</text>\n", PX0, y + 4, nmeas, nnom, nmeas + nnom == 1 ? "" : "s",
            !nmeas ? "; measured: none in this spec (sysdesc measure)"
                   : !nnom ? "; nominal: none in this spec" : "");
    fputs("</g>\n</svg>\n", f);
}

char *cli_roofline_svg(const sysdesc_roofline *r, size_t *len)
{
    if (!r || r->n == 0 || r->n > SYSDESC_ROOFLINE_MAX ||
        r->npoints > SYSDESC_ROOFLINE_MAX_POINTS || top(r, true, true) <= 0 ||
        top(r, false, true) <= 0)
        return NULL;
    chart *ch = calloc(1, sizeof *ch);
    char *out = NULL;
    size_t outlen = 0;
    FILE *f = ch ? open_memstream(&out, &outlen) : NULL;
    if (!f) {
        free(ch);
        return NULL;
    }
    ch->r = r;
    set_ranges(ch);
    put_head(f, ch);
    put_axes(f, &ch->l);
    place_lines(ch);
    place_labels(ch);
    put_ceilings(f, ch);
    put_points(f, ch);
    put_legend(f, ch);
    bool failed = ferror(f) != 0;
    if (fclose(f) != 0 || failed) {
        free(out);
        out = NULL;
    }
    free(ch);
    if (out && len)
        *len = outlen;
    return out;
}
