/* What `sysdesc roofline` says on stderr: the host's measurement as it
 * goes, the ceilings found, each kernel's place under the roof. */
#include "cli.h"

#include <stdio.h>
#include <string.h>

void cli_roofline_progress(void *user, const char *step, double done)
{
    (void)user;
    if (strcmp(step, "done") == 0)
        fprintf(stderr, "sysdesc: roofline: measured this host\n");
    else if (done == 0)
        fprintf(stderr, "sysdesc: roofline: measuring this host (%s)...\n", step);
}

/* Which ceilings there were, plainly, on stderr. */
void cli_roofline_report(const sysdesc_roofline *r)
{
    for (int m = 1; m >= 0; m--) {
        char line[4096];
        /* The measured ones with their provenance: which of its samples
         * each value is (median, best), and from which run. */
        size_t l = (size_t)snprintf(line, sizeof(line), "sysdesc: roofline: %s: %s ceilings%s%s%s:",
                                    r->device_id, m ? "measured" : "nominal",
                                    m && r->measured_by[0] ? " (" : "",
                                    m ? r->measured_by : "", m && r->measured_by[0] ? ")" : "");
        size_t n = 0;
        for (size_t i = 0; i < r->n && l < sizeof(line); i++)
            if (r->c[i].measured == (m == 1))
                l += (size_t)snprintf(line + l, sizeof(line) - l, "%s %s (%s)", n++ ? "," : "",
                                      r->c[i].label, r->c[i].key);
        if (!n && l < sizeof(line))
            snprintf(line + l, sizeof(line) - l, " none in this spec");
        cli_diag("%s", line);
    }
    /* Each kernel: how far below the roof, what bounds it there. */
    for (size_t i = 0; i < r->npoints; i++) {
        const sysdesc_roofline_point *p = &r->p[i];
        const sysdesc_roofline_ceiling *roof = &r->c[p->roof_ceiling];
        char rate[48], at_roof[48], next[96] = "";
        cli_roofline_si(rate, sizeof rate, p->rate, "FLOP/s");
        cli_roofline_si(at_roof, sizeof at_roof, p->roof, "FLOP/s");
        if (p->above < 0)
            snprintf(next, sizeof next, "; above every ceiling");
        else if ((size_t)p->above != p->roof_ceiling)
            snprintf(next, sizeof next, "; the next ceiling up: %s", r->c[p->above].label);
        cli_diag("sysdesc: roofline: point %s: %s at %.3g FLOP/byte, %.0f%% of the roof there "
                 "(%s: %s, under %s %s%s)", p->name, rate, p->intensity, 100 * p->fraction,
                 at_roof, roof->compute ? "compute-bound" : "memory-bound",
                 roof->measured ? "measured" : "nominal", roof->label, next);
    }
}
