#!/usr/bin/env python3
"""The allocation of a Slurm job step (docs/allocation.md), on a real
single-node Slurm: munged, slurmctld and slurmd on localhost, configured in
a temporary folder, started here and stopped here whatever happens.

1. `srun -c 1` runs `sysdesc probe` in a step whose CPU binding Slurm's
   task/affinity sets: the spec's CPU.allocation (cpus, slurm_job_id,
   slurm_step_id) and num_threads must be what the same step reports of
   itself (its SLURM_* variables, the kernel's Cpus_allowed_list, and
   `scontrol show step`'s CPUs); `--whole-node` in the step gives the
   node's count with the same allocation.
2. GPUs: Slurm's gres/gpu with two device files (links to /dev/null: no GPU
   is needed to allocate them) sets CUDA_VISIBLE_DEVICES and the others for
   the step; with the CUDA and NVML TEST DOUBLES (doubles/README) of two
   GPUs, the spec holds exactly the GPUs the step's CUDA_VISIBLE_DEVICES
   names, the second one while another job holds the first.
3. `srun --mpi=pmix -n 2 sysdesc probe --mpi` gathers the job's node.

Skipped (77) with the reason when Slurm or munge is not installed or the
daemons do not start.  Prints the specs' allocation: the evidence.
Environment: SYSDESC (the tool), DOUBLES (the doubles' folder).
"""
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time

SYSDESC = os.environ["SYSDESC"]
DOUBLES = os.environ.get("DOUBLES", "")
failures = 0
procs = []
T = None


def check(cond, what):
    global failures
    print(("ok: " if cond else "FAIL: ") + what)
    if not cond:
        failures += 1
    return cond


def skip(why):
    print("skipped: " + why)
    stop()
    sys.exit(77)


def stop():
    """Every job cancelled, every daemon this test started stopped, the
    folder removed."""
    if T and shutil.which("scancel") and procs:
        subprocess.run(["scancel", "--quiet", "--user", str(os.getuid())], env=ENV,
                       capture_output=True, timeout=10)
    for p in reversed(procs):
        if p.poll() is None:
            p.terminate()
    for p in reversed(procs):
        try:
            p.wait(timeout=5)
        except subprocess.TimeoutExpired:
            p.kill()
            p.wait()
    procs.clear()
    if T:
        shutil.rmtree(T, ignore_errors=True)


def on_signal(sig, frame):
    stop()
    sys.exit(1)


signal.signal(signal.SIGTERM, on_signal)
signal.signal(signal.SIGINT, on_signal)

for tool in ("munged", "slurmctld", "slurmd", "srun", "sinfo", "scontrol"):
    if not shutil.which(tool) and not os.path.exists("/usr/sbin/" + tool):
        skip("%s is not installed (Debian: slurm-wlm, munge; scripts/install-deps)" % tool)


def sbin(tool):
    return shutil.which(tool) or "/usr/sbin/" + tool


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


T = tempfile.mkdtemp(prefix="sysdesc-slurm-")
os.chmod(T, 0o755)  # munged wants no group- or world-writable folder on its key's path
for d in ("state", "spool", "log"):
    os.mkdir(os.path.join(T, d), 0o700)
CONF = os.path.join(T, "slurm.conf")
ENV = dict(os.environ, SLURM_CONF=CONF, XDG_CACHE_HOME=os.path.join(T, "cache"))
for v in ("CUDA_VISIBLE_DEVICES", "ROCR_VISIBLE_DEVICES", "HIP_VISIBLE_DEVICES",
          "GPU_DEVICE_ORDINAL", "ZE_AFFINITY_MASK", "HWLOC_XMLFILE"):
    ENV.pop(v, None)
user = subprocess.run(["id", "-un"], capture_output=True, text=True).stdout.strip()

# munge: a key of our own, its socket in the folder.
key = os.path.join(T, "munge.key")
with open(key, "wb") as f:
    f.write(os.urandom(1024))
os.chmod(key, 0o400)
sock = os.path.join(T, "munge.sock")
procs.append(subprocess.Popen(
    [sbin("munged"), "-F", "-f", "--key-file=" + key, "--socket=" + sock,
     "--pid-file=" + os.path.join(T, "munged.pid"), "--seed-file=" + os.path.join(T, "seed"),
     "--log-file=" + os.path.join(T, "log", "munged.log")],
    stdout=subprocess.DEVNULL, stderr=open(os.path.join(T, "log", "munged.err"), "w")))
for _ in range(50):
    if os.path.exists(sock) or procs[0].poll() is not None:
        break
    time.sleep(0.1)
if not os.path.exists(sock):
    skip("munged did not start: " + open(os.path.join(T, "log", "munged.err")).read()[-300:])

# The node as slurmd sees it ("CPUs=2 Boards=1 SocketsPerBoard=1 ...").
hw = subprocess.run([sbin("slurmd"), "-C"], capture_output=True, text=True)
m = re.match(r"NodeName=\S+\s+(.*)", hw.stdout.splitlines()[0] if hw.stdout else "")
if hw.returncode != 0 or not m:
    skip("slurmd -C failed: " + hw.stderr.strip()[:300])
node_line = m.group(1).strip()
node_cpus = int(re.search(r"CPUs=(\d+)", node_line).group(1))
for i in (0, 1):  # gres/gpu wants character devices: /dev/null stands for each GPU
    os.symlink("/dev/null", os.path.join(T, "gpu%d" % i))
with open(os.path.join(T, "gres.conf"), "w") as f:
    f.write("NodeName=localhost Name=gpu File=%s/gpu[0-1]\n" % T)
with open(CONF, "w") as f:
    f.write("""ClusterName=sysdesctest
SlurmctldHost=localhost(127.0.0.1)
SlurmctldPort={p1}
SlurmdPort={p2}
SlurmUser={user}
SlurmdUser={user}
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket={sock}
StateSaveLocation={t}/state
SlurmdSpoolDir={t}/spool
SlurmctldPidFile={t}/slurmctld.pid
SlurmdPidFile={t}/slurmd.pid
SlurmctldLogFile={t}/log/slurmctld.log
SlurmdLogFile={t}/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/affinity
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
GresTypes=gpu
MpiDefault=none
ReturnToService=2
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
NodeName=localhost NodeAddr=127.0.0.1 Gres=gpu:2 {node} State=UNKNOWN
PartitionName=debug Nodes=localhost Default=YES MaxTime=INFINITE State=UP
""".format(p1=free_port(), p2=free_port(), user=user, sock=sock, t=T, node=node_line))

for cmd, log in (([sbin("slurmctld"), "-D", "-i", "-f", CONF], "slurmctld.err"),
                 ([sbin("slurmd"), "-D", "-N", "localhost", "-f", CONF], "slurmd.err")):
    procs.append(subprocess.Popen(cmd, env=ENV, stdout=subprocess.DEVNULL,
                                  stderr=open(os.path.join(T, "log", log), "w")))
state = ""
for _ in range(150):  # up to 15 s
    r = subprocess.run(["sinfo", "-h", "-N", "-o", "%T"], env=ENV, capture_output=True, text=True)
    state = r.stdout.strip()
    if state == "idle" or any(p.poll() is not None for p in procs):
        break
    time.sleep(0.1)
if state != "idle":
    logs = "".join(open(os.path.join(T, "log", f)).read()[-400:]
                   for f in os.listdir(os.path.join(T, "log")) if f.endswith((".err", ".log")))
    skip("the Slurm daemons did not start (sinfo: %r): %s" % (state, logs.strip()))
print("Slurm on localhost: %s (%s)" % (state, node_line))

QUICK = ["--gcc=", "--clang="]
if "--llc" in subprocess.run([SYSDESC, "probe", "--help"], capture_output=True, text=True).stdout:
    QUICK.append("--llc=")


def step(srun_args, probe_args, env=None, name="step"):
    """One srun step that writes what Slurm says of it (its SLURM_*
    variables, the kernel's CPU list, scontrol's view of the step) and then
    runs the probe in itself: (peer, spec)."""
    peer = os.path.join(T, name + ".peer")
    spec = os.path.join(T, name + ".json")
    script = ('{ echo "job=$SLURM_JOB_ID"; echo "step=$SLURM_STEP_ID"; '
              'echo "cpus_on_node=$SLURM_CPUS_ON_NODE"; '
              'echo "cuda=${CUDA_VISIBLE_DEVICES-unset}"; '
              'grep Cpus_allowed_list /proc/self/status | tr -d "\\t" | tr ":" "="; '
              'scontrol show step "$SLURM_JOB_ID.$SLURM_STEP_ID" | tr " " "\\n" | grep "^CPUs="; '
              '} > "$1"; shift; exec "$@"')
    cmd = (["srun", "-n", "1"] + srun_args + ["sh", "-c", script, "sh", peer, SYSDESC, "probe",
           "--format", "json", "-q", "--no-cache", "-o", spec] + QUICK + probe_args)
    r = subprocess.run(cmd, env=dict(ENV, **(env or {})), capture_output=True, text=True,
                       timeout=60)
    if not check(r.returncode == 0, "srun %s: exit %d %s" %
                 (" ".join(srun_args + probe_args), r.returncode, r.stderr.strip()[-300:])):
        return {}, {}
    p = dict(line.split("=", 1) for line in open(peer).read().split("\n") if "=" in line)
    return p, json.load(open(spec))


def cpulist(text):
    out = []
    for part in text.split(","):
        a, _, b = part.partition("-")
        out += range(int(a), int(b or a) + 1)
    return out


try:
    # ---- 1. the CPUs of a step ----
    peer, spec = step(["-c", "1"], ["--runtimes=none"], name="cpus")
    cpu = spec.get("CPU", {})
    alloc = cpu.get("allocation", {})
    print("the step: %s\nits spec's CPU.allocation: %s, num_threads %s, total_num_threads %s" %
          (peer, json.dumps(alloc), cpu.get("num_threads"), cpu.get("total_num_threads")))
    if peer:
        check(alloc.get("slurm_job_id") == int(peer["job"]) and
              alloc.get("slurm_step_id") == int(peer["step"]),
              "slurm_job_id %s, slurm_step_id %s: the step's %s.%s" %
              (alloc.get("slurm_job_id"), alloc.get("slurm_step_id"), peer["job"], peer["step"]))
        check(alloc.get("cpus") == cpulist(peer["Cpus_allowed_list"]),
              "allocation.cpus %s: the kernel's Cpus_allowed_list %s in the step" %
              (alloc.get("cpus"), peer["Cpus_allowed_list"]))
        check(cpu.get("num_threads") == int(peer["cpus_on_node"]) == int(peer["CPUs"]) ==
              len(alloc.get("cpus", [])),
              "num_threads %s = SLURM_CPUS_ON_NODE %s = scontrol show step's CPUs %s" %
              (cpu.get("num_threads"), peer["cpus_on_node"], peer["CPUs"]))
        if node_cpus > 1:
            check(cpu.get("total_num_threads") == node_cpus,
                  "total_num_threads %s: the node's CPUs (slurmd -C) %d" %
                  (cpu.get("total_num_threads"), node_cpus))
    peer, spec = step(["-c", "1"], ["--runtimes=none", "--whole-node"], name="whole")
    cpu = spec.get("CPU", {})
    if peer:
        check(cpu.get("num_threads") == node_cpus and "total_num_threads" not in cpu,
              "--whole-node in the step: num_threads %s, the node's %d" %
              (cpu.get("num_threads"), node_cpus))
        check(cpu.get("allocation", {}).get("cpus") == cpulist(peer["Cpus_allowed_list"]),
              "--whole-node: the allocation is still the step's (%s)" %
              cpu.get("allocation", {}).get("cpus"))

    # ---- 2. the GPUs of a step (gres/gpu, the CUDA and NVML test doubles) ----
    if not DOUBLES:
        print("skipped the GPU part: no DOUBLES folder given")
    else:
        conf = os.path.join(T, "doubles.conf")
        with open(conf, "w") as f:
            f.write("cuda.count = 2\nnvml.count = 2\n" + "".join(
                "cuda.{i}.name = NVIDIA Test {i}\ncuda.{i}.pci_bus_id = 0000:{b}:00.0\n"
                "cuda.{i}.uuid = {i}{i}00000000000000000000000000000{i}\n"
                "nvml.{i}.name = NVIDIA Test {i}\nnvml.{i}.pci_bus_id = 00000000:{b}:00.0\n"
                "nvml.{i}.uuid = GPU-{i}{i}000000-0000-0000-0000-00000000000{i}\n"
                .format(i=i, b=b) for i, b in ((0, "41"), (1, "81"))))
        genv = {"LD_LIBRARY_PATH": DOUBLES, "SYSDESC_DOUBLE_CONFIG": conf}
        _, node = step(["-c", "1"], ["--runtimes=cuda", "--whole-node"], env=genv, name="node")
        node_gpus = [g.get("pci_bus_id") for k, g in node.items() if k.startswith("GPU")]
        check(len(node_gpus) == 2, "the whole node: two GPUs (%s)" % node_gpus)
        # Another job holds the first GPU: the step gets the second.
        hold = None
        if node_cpus > 1:
            hold = subprocess.Popen(["srun", "-n", "1", "-c", "1", "--gpus=1", "sleep", "60"],
                                    env=ENV, stdout=subprocess.DEVNULL,
                                    stderr=subprocess.DEVNULL)
            procs.append(hold)
            for _ in range(100):
                r = subprocess.run(["squeue", "-h", "-o", "%T"], env=ENV, capture_output=True,
                                   text=True)
                if "RUNNING" in r.stdout:
                    break
                time.sleep(0.1)
        peer, spec = step(["-c", "1", "--gpus=1"], ["--runtimes=cuda"], env=genv, name="gpus")
        gpus = [(k, g) for k, g in spec.items() if k.startswith("GPU")]
        if peer:
            print("the step: CUDA_VISIBLE_DEVICES=%s; its spec's GPUs: %s" % (peer["cuda"], [
                (k, g.get("pci_bus_id"), g.get("allocation")) for k, g in gpus]))
            want = [node_gpus[int(i)] for i in peer["cuda"].split(",")] \
                if peer["cuda"] not in ("unset", "") else []
            check([g.get("pci_bus_id") for _, g in gpus] == want and want,
                  "the spec's GPUs %s: those the step's CUDA_VISIBLE_DEVICES=%s names (%s)" %
                  ([g.get("pci_bus_id") for _, g in gpus], peer["cuda"], want))
            check(all("CUDA_VISIBLE_DEVICES=" + peer["cuda"] in
                      g.get("allocation", {}).get("visible_devices", "") for _, g in gpus),
                  "each GPU's allocation names the step's CUDA_VISIBLE_DEVICES")
            if hold:
                check(peer["cuda"] == "1", "another job holding the first GPU, the step has "
                      "the second (CUDA_VISIBLE_DEVICES=%s)" % peer["cuda"])
        if hold:
            hold.terminate()

    # ---- 3. probe --mpi under srun ----
    mpi_tool = os.path.join(os.path.dirname(SYSDESC), "sysdesc-mpi")
    plugins = subprocess.run(["srun", "--mpi=list"], env=ENV, stdout=subprocess.PIPE,
                             stderr=subprocess.STDOUT, text=True).stdout
    if not os.path.exists(mpi_tool):
        print("skipped probe --mpi: no sysdesc-mpi (built only with OpenMPI's ompi-c)")
    elif os.environ.get("SYSDESC_TEST_SANITIZE", "none") != "none":
        # as the 'mpi' suite (scripts/test-all): OpenMPI's and PMIx's own
        # allocations are not ours to hunt under LSan; the normal build runs it
        print("skipped probe --mpi: a %s build" % os.environ["SYSDESC_TEST_SANITIZE"])
    elif "pmix" not in plugins:
        print("skipped probe --mpi: this Slurm has no pmix MPI plugin (srun --mpi=list: %s)" %
              " ".join(plugins.split()))
    else:
        r = subprocess.run(["srun", "--mpi=pmix", "-n", "2", "-c", "1", SYSDESC, "probe", "--mpi",
                            "--format", "json", "-q"], env=ENV, capture_output=True, text=True,
                           timeout=120)
        if check(r.returncode == 0, "srun --mpi=pmix -n 2 sysdesc probe --mpi: exit %d %s" %
                 (r.returncode, r.stderr.strip()[-300:])):
            cluster = json.loads(r.stdout).get("cluster", {})
            check(cluster.get("MPI:comm_world_size") == 2 and
                  len(cluster.get("MPI:rank_nodes", [])) == 2 and cluster.get("num_nodes") == 1,
                  "the job's node gathered: %s" % json.dumps(
                      {k: cluster.get(k) for k in ("num_nodes", "MPI:comm_world_size",
                                                   "MPI:rank_nodes")}))
finally:
    stop()

print("%d failure(s)" % failures)
sys.exit(1 if failures else 0)
