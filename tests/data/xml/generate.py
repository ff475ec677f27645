#!/usr/bin/env python3
"""Regenerates the probe's XML fixtures: synthetic topologies made by
`lstopo-no-graphics --input DESC --of xml`, then small documented edits that
synthetic descriptions cannot express (CPU identity infos, cache
associativity, restricted cpusets, CPU kinds, PCI/OS devices).  The outputs
are committed as data; run this only to change them:
    cd tests/data/xml && ./generate.py
"""
import re
import subprocess

def synth(desc, out):
    subprocess.run(["lstopo-no-graphics", "--input", desc, "--of", "xml", "--force", out],
                   check=True)
    with open(out) as f:
        return f.read()

def save(name, text):
    with open(name, "w") as f:
        f.write(text)

def set_attr_all(text, objtype, attr, value):
    def fix(m):
        tag = m.group(0)
        return re.sub(r'%s="[^"]*"' % attr, '%s="%s"' % (attr, value), tag)
    return re.sub(r'<object type="%s"[^>]*>' % objtype, fix, text)

def set_associativity(text, ways):
    """Sets cache_associativity of every cache of each type in `ways`
    (synthetic topologies leave it 0, unknown)."""
    for objtype, n in ways.items():
        text = re.sub(r'(<object type="%s"[^>]*?)cache_associativity="0"' % objtype,
                      r'\g<1>cache_associativity="%d"' % n, text)
    return text

def add_infos_after_open(text, objtype, infos, indent):
    """Adds <info> children to the first object of objtype."""
    m = re.search(r'<object type="%s"[^>]*?(/?)>' % objtype, text)
    tag = m.group(0)
    if tag.endswith("/>"):
        raise SystemExit("cannot add infos to an empty element")
    lines = "".join('\n%s<info name="%s" value="%s"/>' % (indent, k, v) for k, v in infos)
    return text[:m.end()] + lines + text[m.end():]

def add_machine_infos(text, infos):
    return add_infos_after_open(text, "Machine", infos, "    ")

# 1 socket, SMT 2, L1i present, identity infos with trailing blanks (trimmed),
# associativity: L1 8 ways, L2 16, L3 fully associative (-1), L3 inclusive.
t = synth("pack:1 numa:1 l3:1 l2:8 l1d:1 l1i:1 core:1 pu:2", "one_socket.xml")
t = add_machine_infos(t, [("Architecture", "x86_64"), ("HostName", "node-a")])
t = add_infos_after_open(t, "Package", [("CPUVendor", "GenuineIntel"),
                                        ("CPUFamilyNumber", "6"), ("CPUModelNumber", "143"),
                                        ("CPUModel", "  Intel(R) Xeon(R) Fixture CPU   "),
                                        ("CPUStepping", "8")], "      ")
t = set_associativity(t, {"L1Cache": 8, "L2Cache": 16, "L3Cache": -1})
t = add_infos_after_open(t, "L3Cache", [("Inclusive", "1")], "        ")
save("one_socket.xml", t)

# 2 sockets, one NUMA node each (the example).
t = synth("pack:2 numa:1 l3:1 l2:4 l1d:1 core:1 pu:2", "two_socket_numa.xml")
t = add_machine_infos(t, [("Architecture", "aarch64"), ("HostName", "node-b")])
save("two_socket_numa.xml", t)

# The same machine seen from a cgroup/Slurm job: PUs 0-3 and 8-11 (4 cores of
# each package... 2 cores each) and NUMA node 0 only are allowed.
t = synth("pack:2 numa:1 l3:1 l2:4 l1d:1 core:1 pu:2", "restricted.xml")
t = re.sub(r'(<object type="Machine"[^>]*?)allowed_cpuset="[^"]*"', r'\1allowed_cpuset="0x00000f0f"', t)
t = re.sub(r'(<object type="Machine"[^>]*?)allowed_nodeset="[^"]*"', r'\1allowed_nodeset="0x00000001"', t)
save("restricted.xml", t)

# SMT off: one PU per core; and an implausible 600 MiB L3 and a zero L2 line
# size, which the probe must keep (or leave out) and flag.
t = synth("pack:1 numa:1 l3:1 l2:4 l1d:1 core:1 pu:1", "smt_off.xml")
t = set_attr_all(t, "L3Cache", "cache_size", str(600 * 1024 * 1024))
t = set_attr_all(t, "L2Cache", "cache_linesize", "0")
save("smt_off.xml", t)

# Hybrid: 8 single-thread cores, L2 shared by pairs; PUs 4-7 are efficiency
# cores (IntelAtom) with a 2 MiB L2, PUs 0-3 performance cores with 4 MiB.
t = synth("pack:1 numa:1 l3:1 l2:4 l1d:2 core:1 pu:1", "hybrid.xml")
t = re.sub(r'(<object type="L2Cache" cpuset="0x000000(30|c0)"[^>]*?)cache_size="\d+"',
           r'\1cache_size="2097152"', t)
kinds = '''  <cpukind cpuset="0x000000f0" forced_efficiency="0">
    <info name="FrequencyMaxMHz" value="3800"/>
    <info name="FrequencyBaseMHz" value="1800"/>
    <info name="CoreType" value="IntelAtom"/>
  </cpukind>
  <cpukind cpuset="0x0000000f" forced_efficiency="1">
    <info name="FrequencyMaxMHz" value="5400"/>
    <info name="FrequencyBaseMHz" value="2400"/>
    <info name="CoreType" value="IntelCore"/>
  </cpukind>
'''
t = t.replace("</topology>", kinds + "</topology>")
save("hybrid.xml", t)

# GPUs: a host bridge with an NVIDIA 3D controller carrying CUDA and OpenCL
# OS devices, a plain VGA device, and an Ethernet device (not a GPU).
t = synth("pack:1 numa:1 l3:1 l2:2 l1d:1 core:1 pu:2", "gpu.xml")
io = '''    <object type="Bridge" gp_index="100" bridge_type="0-1" depth="0" bridge_pci="0000:[00-02]">
      <object type="PCIDev" gp_index="101" pci_busid="0000:00:02.0" pci_type="0300 [1234:1111] [1af4:1100] 02" pci_link_speed="0.000000"/>
      <object type="PCIDev" gp_index="102" pci_busid="0000:00:03.0" pci_type="0200 [8086:10d3] [8086:a01f] 00" pci_link_speed="0.000000"/>
      <object type="Bridge" gp_index="103" bridge_type="1-1" depth="1" bridge_pci="0000:[01-01]" pci_busid="0000:00:01.0" pci_type="0604 [8086:7191] [0000:0000] 01" pci_link_speed="0.000000">
        <object type="PCIDev" gp_index="104" pci_busid="0000:01:00.0" pci_type="0302 [10de:2330] [10de:16c1] a1" pci_link_speed="31.507692">
          <object type="OSDev" gp_index="105" name="cuda0" subtype="CUDA" osdev_type="5">
            <info name="Backend" value="CUDA"/>
            <info name="GPUVendor" value="NVIDIA Corporation"/>
            <info name="GPUModel" value="NVIDIA H100 80GB HBM3"/>
            <info name="CUDAGlobalMemorySize" value="83295872"/>
            <info name="CUDAL2CacheSize" value="51200"/>
            <info name="CUDAMultiProcessors" value="132"/>
            <info name="CUDACoresPerMP" value="128"/>
            <info name="CUDASharedMemorySizePerMP" value="48"/>
          </object>
          <object type="OSDev" gp_index="106" name="opencl0d0" subtype="OpenCL" osdev_type="5">
            <info name="Backend" value="OpenCL"/>
            <info name="OpenCLDeviceType" value="GPU"/>
            <info name="GPUVendor" value="NVIDIA Corporation"/>
            <info name="GPUModel" value="NVIDIA H100 80GB HBM3"/>
            <info name="OpenCLPlatformIndex" value="0"/>
            <info name="OpenCLPlatformName" value="NVIDIA CUDA"/>
            <info name="OpenCLPlatformDeviceIndex" value="0"/>
            <info name="OpenCLComputeUnits" value="132"/>
            <info name="OpenCLGlobalMemorySize" value="83295872"/>
          </object>
        </object>
      </object>
    </object>
'''
idx = t.rindex("  </object>\n  <support")
t = t[:idx] + io + t[idx:]
save("gpu.xml", t)

# A two-socket server whose PCI devices hwloc lists in another order than
# their PCI bus ids (package 0's host bridges hold domain 1 and buses 80-84,
# package 1's buses 00-04; within a bridge the XML lists 83 before 82), with
# the devices
# the GPU rules of docs/keys.md tell apart (ids and names from pci.ids):
#  - GPUs: an L40S in PCI domain 1 without OS devices, an H100 PCIe (a DRM
#    node first, then CUDA and NVML), an MI210 (RSMI and
#    OpenCL, whose GPUVendor strings are not the normalised "AMD"), an
#    integrated Intel UHD Graphics 770 without OS devices, a Moore Threads
#    MTT S60 (a vendor without a normalised name) with an OpenCL device;
#  - processing accelerators (class 0x12): a Gaudi2, a FuriosaAI RNGD, and
#    without PCI names (no pci.ids on that host) a FuriosaAI Warboy and a
#    Tenstorrent Wormhole;
#  - display-only devices, not GPUs: an ASPEED BMC VGA with its DRM node, a
#    Matrox G200eR2 and an ATI ES1000 (server on-board VGA);
#  - GPU OS devices without a PCI parent: an OpenCL device under package 1 (a
#    GPU), and a DRM node under the machine (a platform display, not a GPU).
t = synth("pack:2 numa:1 l3:1 l2:2 l1d:1 core:1 pu:2", "gpu_server.xml")
t = add_machine_infos(t, [("Architecture", "x86_64"), ("HostName", "node-gpu")])

def pcidev(gp, busid, cls, ven, dev, sven, sdev, rev, vendor, device, children="", indent="        "):
    pci_type = "%s [%s:%s] [%s:%s] %s" % (cls, ven, dev, sven, sdev, rev)
    head = '%s<object type="PCIDev" gp_index="%d" pci_busid="%s" pci_type="%s" pci_link_speed="0.000000"' % (
        indent, gp, busid, pci_type)
    body = ""
    if vendor:
        body += '%s  <info name="PCIVendor" value="%s"/>\n' % (indent, vendor)
    if device:
        body += '%s  <info name="PCIDevice" value="%s"/>\n' % (indent, device)
    body += children
    return head + ">\n" + body + indent + "</object>\n" if body else head + "/>\n"

def osdev(gp, name, subtype, osdev_type, infos, indent="          "):
    sub = ' subtype="%s"' % subtype if subtype else ""
    head = '%s<object type="OSDev" gp_index="%d" name="%s"%s osdev_type="%d"' % (
        indent, gp, name, sub, osdev_type)
    if not infos:
        return head + "/>\n"
    return head + ">\n" + "".join('%s  <info name="%s" value="%s"/>\n' % (indent, k, v)
                                   for k, v in infos) + indent + "</object>\n"

GPU, COPROC = 1, 5
# hwloc's Linux backend adds the DRM node before the CUDA and NVML plugins add theirs.
h100 = (osdev(212, "card1", None, GPU, []) +
        osdev(210, "cuda0", "CUDA", COPROC, [
            ("Backend", "CUDA"), ("GPUVendor", "NVIDIA Corporation"), ("GPUModel", "NVIDIA H100 PCIe"),
            ("CUDAGlobalMemorySize", "81559552"), ("CUDAL2CacheSize", "51200"),
            ("CUDAMultiProcessors", "114"), ("CUDACoresPerMP", "128"),
            ("CUDASharedMemorySizePerMP", "48")]) +
        osdev(211, "nvml0", "NVML", GPU, [
            ("Backend", "NVML"), ("GPUVendor", "NVIDIA Corporation"), ("GPUModel", "NVIDIA H100 PCIe")]))
bridge0 = ('      <object type="Bridge" gp_index="200" bridge_type="0-1" depth="0" bridge_pci="0000:[80-84]">\n' +
           pcidev(201, "0000:83:00.0", "1200", "1ed2", "0001", "1ed2", "0001", "01",
                  "FuriosaAI, Inc.", "RNGD") +
           pcidev(202, "0000:82:00.0", "1200", "1da3", "1020", "1da3", "1020", "01",
                  "Habana Labs Ltd.", "Gaudi2 AI Training Accelerator") +
           pcidev(203, "0000:81:00.0", "0302", "10de", "2331", "10de", "1626", "a1",
                  "NVIDIA Corporation", "GH100 [H100 PCIe]", h100) +
           pcidev(204, "0000:84:00.0", "1200", "1ed2", "0000", "1ed2", "0000", "01", None, None) +
           pcidev(205, "0000:80:00.0", "1200", "1e52", "401e", "1e52", "0035", "01", None, None) +
           '      </object>\n')
mi210 = (osdev(220, "rsmi0", "RSMI", GPU, [
             ("Backend", "RSMI"), ("GPUVendor", "Advanced Micro Devices, Inc. [AMD/ATI]"),
             ("GPUModel", "AMD Instinct MI210")]) +
         osdev(221, "opencl0d0", "OpenCL", COPROC, [
             ("Backend", "OpenCL"), ("OpenCLDeviceType", "GPU"),
             ("GPUVendor", "Advanced Micro Devices, Inc."), ("GPUModel", "AMD Instinct MI210"),
             ("OpenCLPlatformIndex", "0"), ("OpenCLPlatformName", "AMD Accelerated Parallel Processing"),
             ("OpenCLPlatformDeviceIndex", "0"), ("OpenCLComputeUnits", "104"),
             ("OpenCLGlobalMemorySize", "67092480")]))
mtt = osdev(230, "opencl1d0", "OpenCL", COPROC, [
          ("Backend", "OpenCL"), ("OpenCLDeviceType", "GPU"), ("GPUVendor", "Moore Threads"),
          ("GPUModel", "MTT S60"), ("OpenCLPlatformIndex", "1"), ("OpenCLPlatformName", "MUSA"),
          ("OpenCLPlatformDeviceIndex", "0"), ("OpenCLComputeUnits", "32")])
aspeed = osdev(240, "card0", None, GPU, [])
bridge1 = ('      <object type="Bridge" gp_index="300" bridge_type="0-1" depth="0" bridge_pci="0000:[00-04]">\n' +
           pcidev(301, "0000:04:00.0", "0380", "1002", "740f", "1002", "0c34", "02",
                  "Advanced Micro Devices, Inc. [AMD/ATI]", "Aldebaran/MI200 [Instinct MI210]", mi210) +
           pcidev(302, "0000:03:00.0", "0300", "1a03", "2000", "1a03", "2000", "41",
                  "ASPEED Technology, Inc.", "ASPEED Graphics Family", aspeed) +
           pcidev(303, "0000:02:00.0", "0300", "1ed5", "0106", "1ed5", "0106", "01",
                  "Moore Threads Technology Co.,Ltd", "MTT S60", mtt) +
           pcidev(304, "0000:01:00.0", "0300", "102b", "0534", "15d9", "0a2b", "01",
                  "Matrox Electronics Systems Ltd.", "G200eR2") +
           pcidev(305, "0000:01:01.0", "0300", "1002", "515e", "1028", "01f0", "02",
                  "Advanced Micro Devices, Inc. [AMD/ATI]", "ES1000") +
           pcidev(306, "0000:00:02.0", "0300", "8086", "a780", "8086", "7d05", "04",
                  "Intel Corporation", "Raptor Lake-S GT1 [UHD Graphics 770]") +
           '      </object>\n' +
           osdev(310, "opencl2d0", "OpenCL", COPROC, [
               ("Backend", "OpenCL"), ("OpenCLDeviceType", "GPU"), ("GPUVendor", "ARM"),
               ("GPUModel", "Mali-G78"), ("OpenCLPlatformIndex", "2"), ("OpenCLPlatformName", "ARM Platform"),
               ("OpenCLPlatformDeviceIndex", "0"), ("OpenCLComputeUnits", "24")], indent="      "))
# PCI domain 1, first of all in hwloc's order, last in bus id order.
bridge2 = ('      <object type="Bridge" gp_index="500" bridge_type="0-1" depth="0" bridge_pci="0001:[00-01]">\n' +
           pcidev(501, "0001:01:00.0", "0302", "10de", "26b9", "10de", "1851", "a1",
                  "NVIDIA Corporation", "AD102GL [L40S]") +
           '      </object>\n')
# Each package's I/O before its closing tag (4 blanks of indent).
pk = [m.start() for m in re.finditer(r'<object type="Package"', t)]
end0 = t.index("\n    </object>\n", pk[0]) + 1
t = t[:end0] + bridge2 + bridge0 + t[end0:]
pk = [m.start() for m in re.finditer(r'<object type="Package"', t)]
end1 = t.index("\n    </object>\n", pk[1]) + 1
t = t[:end1] + bridge1 + t[end1:]
idx = t.rindex("  </object>\n  <support")
t = t[:idx] + osdev(400, "card2", None, GPU, [], indent="    ") + t[idx:]
save("gpu_server.xml", t)

# Siblings that share a PCI id (pci.ids: 1002:744c "Navi 31 [Radeon RX 7900
# XT/7900 XTX/7900 GRE/7900M]", 1002:740c "Aldebaran/MI200 [Instinct
# MI250X/MI250]"), each with an OpenCL OS device saying what it is: an XTX
# (96 CUs, 24 GiB less a little), an XT (84 CUs, 20 GiB less a little), a
# GRE (80 CUs, 16 GiB: no catalog entry), one 744c without an OS device (the
# id alone), an MI250X GCD (110 CUs) and an MI250 GCD (104 CUs) both
# reporting 740c; the last one names itself only (no CU count, no memory).
t = synth("pack:1 numa:1 l3:1 l2:2 l1d:1 core:1 pu:1", "siblings.xml")
t = add_machine_infos(t, [("Architecture", "x86_64"), ("HostName", "siblings")])
def ocl(gp, name, model, cus, kib):
    infos = [("Backend", "OpenCL"), ("OpenCLDeviceType", "GPU"),
             ("GPUVendor", "Advanced Micro Devices, Inc."), ("GPUModel", model),
             ("OpenCLPlatformIndex", "0"), ("OpenCLPlatformName", "AMD Accelerated Parallel Processing")]
    if cus:
        infos.append(("OpenCLComputeUnits", str(cus)))
    if kib:
        infos.append(("OpenCLGlobalMemorySize", str(kib)))
    return osdev(gp, name, "OpenCL", COPROC, infos)
navi = "Navi 31 [Radeon RX 7900 XT/7900 XTX/7900 GRE/7900M]"
navi48 = "Navi 48 [Radeon RX 9070/9070 XT/9070 GRE]"
intel, dg2 = "Intel Corporation", "DG2 [Arc A770]"
def ocl_intel(gp, name, eus, kib):
    return osdev(gp, name, "OpenCL", COPROC, [
        ("Backend", "OpenCL"), ("OpenCLDeviceType", "GPU"), ("GPUVendor", "Intel(R) Corporation"),
        ("GPUModel", "Intel(R) Arc(TM) A770 Graphics"), ("OpenCLPlatformIndex", "1"),
        ("OpenCLPlatformName", "Intel(R) OpenCL Graphics"), ("OpenCLComputeUnits", str(eus)),
        ("OpenCLGlobalMemorySize", str(kib))])
aldebaran = "Aldebaran/MI200 [Instinct MI250X/MI250]"
amd = "Advanced Micro Devices, Inc. [AMD/ATI]"
bridge = ('      <object type="Bridge" gp_index="600" bridge_type="0-1" depth="0" bridge_pci="0000:[01-0b]">\n' +
          pcidev(601, "0000:01:00.0", "0300", "1002", "744c", "1002", "0e3b", "c8", amd, navi,
                 ocl(611, "opencl0d0", "AMD Radeon RX 7900 XTX", 96, 25149440)) +
          pcidev(602, "0000:02:00.0", "0300", "1002", "744c", "1002", "0e3b", "cc", amd, navi,
                 ocl(612, "opencl0d1", "AMD Radeon RX 7900 XT", 84, 20955136)) +
          pcidev(603, "0000:03:00.0", "0300", "1002", "744c", "1002", "0e3b", "ce", amd, navi,
                 ocl(613, "opencl0d2", "AMD Radeon RX 7900 GRE", 80, 16760832)) +
          pcidev(604, "0000:04:00.0", "0300", "1002", "744c", "1002", "0e3b", "c8", amd, navi) +
          pcidev(605, "0000:05:00.0", "0380", "1002", "740c", "1002", "0b0c", "01", amd, aldebaran,
                 ocl(615, "opencl0d3", "AMD Instinct MI250X", 110, 67092480)) +
          pcidev(606, "0000:06:00.0", "0380", "1002", "740c", "1002", "0b0c", "01", amd, aldebaran,
                 ocl(616, "opencl0d4", "AMD Instinct MI250", 104, 67092480)) +
          pcidev(607, "0000:07:00.0", "0300", "1002", "744c", "1002", "0e3b", "c8", amd, navi,
                 ocl(617, "opencl0d5", "AMD Radeon RX 7900 XTX", None, None)) +
          # 1002:7550 is the RX 9070 (56 CUs) and the 9070 XT (64); 8086:56a0 the Arc
          # A770 16GB and 8GB, whose OpenCL compute units are EUs (512 both).
          pcidev(608, "0000:08:00.0", "0300", "1002", "7550", "1002", "0e38", "c0", amd, navi48,
                 ocl(618, "opencl0d6", "AMD Radeon RX 9070", 56, 16695296)) +
          pcidev(609, "0000:09:00.0", "0300", "1002", "7550", "1002", "0e38", "c0", amd, navi48,
                 ocl(619, "opencl0d7", "AMD Radeon RX 9070 XT", 64, 16695296)) +
          pcidev(610, "0000:0a:00.0", "0300", "8086", "56a0", "8086", "1020", "08", intel, dg2,
                 ocl_intel(620, "opencl1d0", 512, 15844960)) +
          pcidev(621, "0000:0b:00.0", "0300", "8086", "56a0", "8086", "1021", "08", intel, dg2,
                 ocl_intel(622, "opencl1d1", 512, 8290304)) +
          '      </object>\n')
pk = t.index('<object type="Package"')
end0 = t.index("\n    </object>\n", pk) + 1
t = t[:end0] + bridge + t[end0:]
save("siblings.xml", t)

# Not a topology: the probe must refuse it as bad input.
save("malformed.xml", "<?xml version=\"1.0\"?>\n<topology version=\"2.0\">\n  <object type=\"Machine\"\n")

# A host that broke the suite once (a VM of the project's own kind): hwloc's
# CPUID fallback gives each of 2 cores a 508 MiB L3 (associativity unknown),
# and the NUMA node holds far less than /proc/meminfo's MemTotal.  The suite
# runs once more with HWLOC_XMLFILE set to it (scripts/test-all).
t = synth("pack:1 [numa(memory=1073741824)] l3:2(size=532676608) l2:1(size=1048576) "
          "l1d:1(size=49152) l1i:1(size=32768) core:1 pu:1", "odd_vm.xml")
t = add_machine_infos(t, [("Architecture", "x86_64"), ("HostName", "odd-vm")])
t = add_infos_after_open(t, "Package", [("CPUVendor", "AuthenticAMD"),
                                        ("CPUFamilyNumber", "26"), ("CPUModelNumber", "2"),
                                        ("CPUModel", "Oxide Virtual Turin-like Processor   "),
                                        ("CPUStepping", "1")], "      ")
t = set_associativity(t, {"L1Cache": 12, "L2Cache": 8})
save("odd_vm.xml", t)

# Machines unlike any the suite runs on: scripts/test-all runs the host
# suites (probe, cli) once under each with HWLOC_XMLFILE, so that no test
# mixes the described machine with the one it runs on (hwloc says such a
# topology is not this system, and the probe reads nothing of this host).
# Each is a trimmed shape of a real machine; the identity infos are those
# hwloc's Linux backend records there.
#
# An Intel two-socket Xeon (Sapphire Rapids, family 6 model 143): SMT 2, a
# NUMA node a socket, 2 MiB L2 a core, 105 MiB L3 a socket (trimmed to 8
# cores a socket).
t = synth("pack:2 [numa(memory=68719476736)] l3:1(size=110100480) l2:8(size=2097152) "
          "l1d:1(size=49152) l1i:1(size=32768) core:1 pu:2", "intel_xeon_2s.xml")
t = add_machine_infos(t, [("Architecture", "x86_64"), ("HostName", "xeon-2s")])
for pk in range(2):
    # every package carries its identity, as hwloc's x86 backend writes it
    t = re.sub(r'(<object type="Package" os_index="%d"[^>]*>)' % pk,
               lambda m: m.group(1) + "".join(
                   '\n      <info name="%s" value="%s"/>' % kv for kv in [
                       ("CPUVendor", "GenuineIntel"), ("CPUFamilyNumber", "6"),
                       ("CPUModelNumber", "143"),
                       ("CPUModel", "Intel(R) Xeon(R) Platinum 8480+"), ("CPUStepping", "8")]),
               t)
t = set_associativity(t, {"L1Cache": 12, "L2Cache": 16, "L3Cache": 15})
save("intel_xeon_2s.xml", t)

# An Arm server (Ampere Altra, Neoverse N1: MIDR implementer 0x41, part
# 0xd0c): one socket, no SMT, 64 KiB L1d/L1i and 1 MiB L2 a core, and no L3
# (Linux's cacheinfo does not list the system-level cache, so neither does
# hwloc): a cache the description lacks must stay absent (trimmed to 16
# cores).
t = synth("pack:1 [numa(memory=137438953472)] l2:16(size=1048576) l1d:1(size=65536) "
          "l1i:1(size=65536) core:1 pu:1", "arm_server.xml")
t = add_machine_infos(t, [("Architecture", "aarch64"), ("HostName", "altra")])
t = add_infos_after_open(t, "Package", [("CPUImplementer", "0x41"), ("CPUArchitecture", "8"),
                                        ("CPUVariant", "0x3"), ("CPUPart", "0xd0c"),
                                        ("CPURevision", "1")], "      ")
save("arm_server.xml", t)

# A POWER9 node with GPUs (an IBM AC922's shape): two sockets, SMT 4, L2 and
# L3 shared by a pair of cores, and two NVIDIA V100 SXM2 16GB (10de:1db1) on
# PCI without OS devices (no CUDA backend when it was exported), trimmed to
# 4 core pairs a socket.
t = synth("pack:2 [numa(memory=137438953472)] l3:4(size=10485760) l2:1(size=524288) "
          "l1d:2(size=32768) l1i:1(size=32768) core:1 pu:4", "power9_gpu.xml")
t = add_machine_infos(t, [("Architecture", "ppc64le"), ("HostName", "ac922")])
t = add_infos_after_open(t, "Package", [("CPUModel", "POWER9, altivec supported"),
                                        ("CPURevision", "2.2 (pvr 004e 1202)")], "      ")
v100 = "GV100GL [Tesla V100 SXM2 16GB]"
bridge = ('      <object type="Bridge" gp_index="700" bridge_type="0-1" depth="0" bridge_pci="0004:[04-05]">\n' +
          pcidev(701, "0004:04:00.0", "0302", "10de", "1db1", "10de", "1212", "a1",
                 "NVIDIA Corporation", v100) +
          pcidev(702, "0004:05:00.0", "0302", "10de", "1db1", "10de", "1212", "a1",
                 "NVIDIA Corporation", v100) +
          '      </object>\n')
pk = t.index('<object type="Package"')
end0 = t.index("\n    </object>\n", pk) + 1
t = t[:end0] + bridge + t[end0:]
save("power9_gpu.xml", t)

# Partitions (docs/catalog.md "PCI ids, siblings and partitions"): GPUs whose
# PCI id a product claims, as hwloc's CUDA and OpenCL backends see them in a
# process given a partition.  A MIG instance is a CUDA device of its own with
# its parent's PCI id (its name ends in the profile); an MI300X in CPX mode
# shows one XCD (38 CUs) as a device.  Each is filled from the profile it is,
# the whole GPUs from the product, and a profile the catalog lacks (the A100's
# 1g.5gb) from nothing.
t = synth("pack:1 numa:1 l3:1 l2:2 l1d:1 core:1 pu:1", "partitions.xml")
t = add_machine_infos(t, [("Architecture", "x86_64"), ("HostName", "partitions")])
def cuda(gp, name, model, sms, kib):
    return osdev(gp, name, "CUDA", COPROC, [
        ("Backend", "CUDA"), ("GPUVendor", "NVIDIA Corporation"), ("GPUModel", model),
        ("CUDAGlobalMemorySize", str(kib)), ("CUDAMultiProcessors", str(sms))])
nvidia = "NVIDIA Corporation"
mi300 = "Aqua Vanjaram [Instinct MI300X]"
bridge = ('      <object type="Bridge" gp_index="800" bridge_type="0-1" depth="0" bridge_pci="0000:[01-05]">\n' +
          pcidev(801, "0000:01:00.0", "0302", "10de", "2330", "10de", "16c1", "a1", nvidia,
                 "GH100 [H100 SXM5 80GB]", cuda(811, "cuda0", "NVIDIA H100 80GB HBM3", 132, 83020800)) +
          pcidev(802, "0000:02:00.0", "0302", "10de", "2330", "10de", "16c1", "a1", nvidia,
                 "GH100 [H100 SXM5 80GB]",
                 cuda(812, "cuda1", "NVIDIA H100 80GB HBM3 MIG 1g.10gb", 16, 10223616)) +
          pcidev(803, "0000:03:00.0", "0302", "10de", "20b0", "10de", "134f", "a1", nvidia,
                 "GA100 [A100 SXM4 40GB]",
                 cuda(813, "cuda2", "NVIDIA A100-SXM4-40GB MIG 1g.5gb", 14, 4980736)) +
          pcidev(804, "0000:04:00.0", "1200", "1002", "74a1", "1002", "74a1", "00", amd, mi300,
                 ocl(814, "opencl0d0", "AMD Instinct MI300X", 38, 24903680)) +
          pcidev(805, "0000:05:00.0", "1200", "1002", "74a1", "1002", "74a1", "00", amd, mi300,
                 ocl(815, "opencl0d1", "AMD Instinct MI300X", 304, 200802304)) +
          '      </object>\n')
pk = t.index('<object type="Package"')
end0 = t.index("\n    </object>\n", pk) + 1
t = t[:end0] + bridge + t[end0:]
save("partitions.xml", t)
