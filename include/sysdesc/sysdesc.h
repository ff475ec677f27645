/*
 * sysdesc/sysdesc.h - everything of libsysdesc in one include.
 *
 * The headers by topic, from the core up:
 *   sysdesc/version.h   version macros, sysdesc_version_string()
 *   sysdesc/dlti.h      the DLTI core: parse, print, verify, build, query
 *   sysdesc/layout.h    data layouts: sizes and alignments, LLVM strings
 *   sysdesc/probe.h     describe this host or hwloc XML (hwloc)
 *   sysdesc/cluster.h   many nodes as node classes (probe --xml, --mpi)
 *   sysdesc/system.h    sysdesc_system: a system spec and its data layout
 *   sysdesc/get.h       typed getters: sysdesc_get_i64(&sys, "CPU.cache.L1.size_in_bytes", &v)
 *   sysdesc/load.h      read YAML, MLIR and catalog names into a system
 *   sysdesc/print.h     write a system as MLIR, attr, YAML or JSON
 *   sysdesc/override.h  --set PATH=VALUE and override files
 *   sysdesc/schema.h    the device schema and the checker
 *   sysdesc/catalog.h   the systems/ catalog and PCI matching
 *   sysdesc/compose.h   several systems into one
 *   sysdesc/measure.h   measure this host: bandwidth, latency, peak FMA, clock
 *   sysdesc/roofline.h  the ceilings of a device's roofline
 *   sysdesc/tuner.h     one device in an autotuner's field names (TVM, Triton, Inductor)
 *   sysdesc/uarch.h     the CPU identity keys of a microarchitecture, by name
 *   sysdesc/occupancy.h resident blocks and warps of a kernel on any GPU a spec describes
 * Link with `pkg-config --libs sysdesc`.  Every header documents ownership,
 * errors and threads in its preamble; docs/architecture.md draws the layers.
 */
#ifndef SYSDESC_SYSDESC_H
#define SYSDESC_SYSDESC_H

#include "sysdesc/version.h"
#include "sysdesc/error.h"
#include "sysdesc/dlti.h"
#include "sysdesc/layout.h"
#include "sysdesc/probe.h"
#include "sysdesc/cluster.h"
#include "sysdesc/system.h"
#include "sysdesc/get.h"
#include "sysdesc/load.h"
#include "sysdesc/print.h"
#include "sysdesc/override.h"
#include "sysdesc/schema.h"
#include "sysdesc/catalog.h"
#include "sysdesc/compose.h"
#include "sysdesc/measure.h"
#include "sysdesc/roofline.h"
#include "sysdesc/tuner.h"
#include "sysdesc/attach.h"
#include "sysdesc/uarch.h"
#include "sysdesc/occupancy.h"

#endif /* SYSDESC_SYSDESC_H */
