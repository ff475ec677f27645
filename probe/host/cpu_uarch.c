/* The CPU's microarchitecture, LLVM triple and compiler targets:
 * the identity hwloc recorded and the ISA go through the recogniser
 * (uarch.c), which takes a row only when the CPU has the features it
 * needs; what it finds becomes the keys uarch, uarch_ancestors, triple
 * and the compiler map (docs/keys.md), whose flags on this host are those
 * the installed gcc and clang compile and whose LLVM CPU is one the
 * installed llc knows (compilers.c). */
#define _GNU_SOURCE
#include "probe_private.h"
#include "uarch/uarch.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A decimal or 0x-hex info value; -1 when absent or not a number. */
static int64_t info_num(const pb_run *run, const char *name)
{
    const char *s = pb_cpu_info(run, name);
    if (!s)
        return -1;
    char *end;
    long long v = strtoll(s, &end, 0);
    return end == s || v < 0 ? -1 : (int64_t)v;
}

/* The XML infos a recogniser's rule read (its `how` names the live
 * machine's sources: CPUID, MIDR). */
static const char *xml_infos(const char *how)
{
    static const struct { const char *how, *infos; } map[] = {
        {"cpuid family/model/stepping", "CPUVendor, CPUFamilyNumber, CPUModelNumber, CPUStepping"},
        {"cpuid family/model", "CPUVendor, CPUFamilyNumber, CPUModelNumber"},
        {"MIDR implementer/part", "CPUImplementer, CPUPart"},
    };
    for (size_t i = 0; i < sizeof(map) / sizeof(map[0]); i++)
        if (strcmp(how, map[i].how) == 0)
            return map[i].infos;
    return "Architecture";
}

/* Why the row the identity named was not taken: "features: cpuid
 * family/model names zen4, but zen4's avx512f, avx512bw ... missing: zen3,
 * the nearest ancestor whose features this CPU has".  Starts with
 * "features": the name is not the identity's (tests/probe/
 * interop_llvm_target.py compares LLVM's model of an identified CPU). */
static void uarch_fallback(const pb_uarch_match *m, char *out, size_t size)
{
    size_t n = (size_t)snprintf(out, size, "features: %s names %s, but %s's ", m->named_how,
                                m->named->name, m->named->name);
    for (size_t i = 0; i < m->nmissing && n < size; i++)
        n += (size_t)snprintf(out + n, size - n, "%s%s", i ? ", " : "", m->missing[i]);
    if (n < size)
        snprintf(out + n, size - n, " %s missing: %s, the nearest ancestor whose features this "
                 "CPU has (probe/uarch/uarch_table.c: archspec's features)",
                 m->nmissing == 1 ? "is" : "are", m->uarch->name);
}

void pb_cpu_uarch(pb_run *run, pb_map *dev, const pb_isa *isa, dlti_error_t *err)
{
    dlti_context *ctx = run->ctx;
    const char *arch = pb_info(hwloc_get_root_obj(run->topo), "Architecture");
    pb_cpu_id id = {
        .arch = arch,
        .vendor = pb_cpu_info(run, "CPUVendor"),
        .family = info_num(run, "CPUFamilyNumber"),
        .model = info_num(run, "CPUModelNumber"),
        .stepping = info_num(run, "CPUStepping"),
        .implementer = info_num(run, "CPUImplementer"),
        .part = info_num(run, "CPUPart"),
        .features = isa->source ? isa->features : NULL,
        .nfeatures = isa->source ? isa->nfeatures : 0,
    };
    pb_uarch_match m;
    if (pb_uarch_identify(&id, &m) == 0) {
        /* uarch_keys.c, shared with sysdesc_uarch_keys(): the row's keys with
         * the LLVM name of this model (icelake-server where the row says
         * icelake-client).  The row's arch is hwloc's: the recogniser only
         * takes rows of the CPU's architecture, so the triple is the same. */
        pb_cc_installed gcc, clang, *gp = NULL, *cp = NULL;
        pb_llvm_checked llc, *lp = NULL;
        if (run->host) { /* an XML file's machine has compilers we cannot ask */
            bool has_gcc, has_clang, has_llc;
            pb_compilers_ask(run, m.uarch, m.llvm, &gcc, &clang, &llc, &has_gcc, &has_clang,
                             &has_llc);
            gp = has_gcc ? &gcc : NULL;
            cp = has_clang ? &clang : NULL;
            lp = has_llc ? &llc : NULL;
        } /* else source["compiler"] says they were not asked */
        pb_uarch_keys(ctx, dev, m.uarch, m.llvm, gp, cp, lp, err);
        char how[1024];
        if (m.named)
            uarch_fallback(&m, how, sizeof(how));
        else if (run->host)
            snprintf(how, sizeof(how), "%s (probe/uarch/uarch_table.c: LLVM Host.cpp, archspec)",
                     m.how);
        else
            snprintf(how, sizeof(how), "the hwloc XML's %s, without feature flags (the XML has "
                     "none) (probe/uarch/uarch_table.c: LLVM Host.cpp, archspec)", xml_infos(m.how));
        pb_provenance(run, "uarch", how);
        pb_provenance(run, "triple", "hwloc Architecture, Linux with glibc");
        pb_provenance(run, "compiler",
                      run->host ? "archspec microarchitectures.json, LLVM Host.cpp "
                                  "(probe/uarch/uarch_table.c)"
                                : "archspec microarchitectures.json, LLVM Host.cpp "
                                  "(probe/uarch/uarch_table.c); the described machine's "
                                  "compilers are not this host's: not asked");
    } else if (pb_uarch_triple(arch)) {
        pb_str(ctx, dev, "triple", pb_uarch_triple(arch));
        pb_provenance(run, "triple", "hwloc Architecture, Linux with glibc");
    }
}
