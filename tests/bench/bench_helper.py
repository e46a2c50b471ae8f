#!/usr/bin/env python3
"""Measuring helper for tests/bench/bench.sh (not meant to be run by hand).

  bench_helper.py measure [--pid PID --ctl NFSFUSECTL --mnt MNT]
                          [--server-pid PID] [--timeout S] [--count-lines]
                          (--create DIR N SIZE | --writeread FILE N |
                           -- CMD ARGS...)

Runs one workload and prints shell assignments for bench.sh to eval:

  M_WALL    wall-clock seconds of the workload alone (no Python start-up)
  M_CCPU    user+system CPU seconds of the workload's own processes
  M_DCPU    user+system CPU seconds of the nfsfuse daemon (--pid), from
            /proc/PID/stat before and after; "-" without --pid
  M_RPCS    RPC deltas by procedure, largest first ("READ 1024 GETATTR 1")
  M_RPC_<PROC>  the delta of each procedure; M_RPC_TOTAL their sum
  M_RTT_<PROC>  microseconds from call to reply summed over those calls
            (the stats' rtt_us_total), M_RTT_TOTAL over all procedures
            (on an NFSv4 mount the procedure is COMPOUND: round trips)
  M_OPS     on an NFSv4 mount: the operations inside those COMPOUNDs by
            name, largest first ("SEQUENCE 64 PUTFH 64 READ 64"), from
            the stats' "nfs4ops"; M_OP_<OP> each one.  Unset elsewhere.
  M_LINES   lines the command printed on stdout (with --count-lines)
  M_RSS0, M_RSS1, M_HWM1  the daemon's resident set (VmRSS) before and
            after, and its peak (VmHWM) after, in bytes (with --pid)
  M_INODES0, M_INODES1, M_DCACHE1  the daemon's "inodes" before and after
            and "data_cache_bytes" after, from its stats (with --pid)
  M_BUSY    CPU seconds the whole machine spent busy (all cores: user,
            nice, system, irq, softirq, steal of /proc/stat), and M_CORES
            the cores it counts: what was left idle is M_CORES * M_WALL -
            M_BUSY
  M_SCPU    user+system CPU seconds of the NFS server's process
            (--server-pid, a server on this machine); "-" without it

The daemon's CPU is read after the "before" stats snapshot and before the
"after" one, so the control-socket traffic of nfsfusectl is not counted.

  --create DIR N SIZE   the workload is: create N files of SIZE bytes in DIR
                        (open O_CREAT|O_EXCL, one write, close), in-process.
  --writeread FILE N    the workload is: N-1 times a 4 KiB write of page i
                        of FILE, then a read of page i+1, through one
                        descriptor, then its close, in-process; FILE is
                        made (N pages, fsync'd) and read once before,
                        untimed.
  --stdout FILE         keep what the command printed on stdout in FILE.

  bench_helper.py mkfiles DIR N    N empty files f000000.. (set-up, untimed)
  bench_helper.py fio-iops FILE    read IOPS of a fio --output-format=json
                                   report (all jobs), and the reads done
"""

import json
import os
import resource
import shlex
import subprocess
import sys
import time

CLK_TCK = os.sysconf("SC_CLK_TCK")


def die(msg, code=1):
    print(f"bench_helper: {msg}", file=sys.stderr)
    sys.exit(code)


def proc_cpu(pid):
    """utime+stime of a whole process (all threads), in seconds."""
    with open(f"/proc/{pid}/stat") as f:
        data = f.read()
    # comm may hold spaces and parentheses: fields start after the last ')'.
    fields = data[data.rindex(")") + 2:].split()
    # fields[0] is field 3 (state); utime and stime are fields 14 and 15.
    return (int(fields[11]) + int(fields[12])) / CLK_TCK


def ctl_stats(ctl, mnt):
    """RPC calls by procedure, and the daemon's top-level numeric stats
    (with the NFSv4 operation counts, when there are any, under
    "nfs4ops")."""
    out = subprocess.run([ctl, mnt, "stats", "--json"], check=True,
                         capture_output=True, text=True, timeout=30).stdout
    js = json.loads(out)
    rpc = {name: int(v.get("calls", 0)) for name, v in js["rpc"].items()}
    extra = {k: v for k, v in js.items() if isinstance(v, int)}
    extra["nfs4ops"] = {name: int(v.get("calls", 0))
                        for name, v in js.get("nfs4ops", {}).items()}
    extra["rtt"] = {name: int(v.get("rtt_us_total", 0))
                    for name, v in js["rpc"].items()}
    return rpc, extra


def deltas(before, after):
    """Per-name deltas, and the non-zero ones as "NAME N ...", largest
    first ("none" when all are zero)."""
    delta = {k: after.get(k, 0) - before.get(k, 0) for k in after}
    nz = sorted(((v, k) for k, v in delta.items() if v),
                key=lambda t: (-t[0], t[1]))
    return delta, " ".join(f"{k} {v}" for v, k in nz) or "none"


def proc_mem(pid):
    """VmRSS and VmHWM of a process, in bytes."""
    mem = {}
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            key, _, val = line.partition(":")
            if key in ("VmRSS", "VmHWM"):
                mem[key] = int(val.split()[0]) * 1024
    return mem.get("VmRSS", 0), mem.get("VmHWM", 0)


def server_cpu(pid):
    """The server's CPU seconds, or None: no server named, or it is gone
    (the workload's own failure says why)."""
    if pid is None:
        return None
    try:
        return proc_cpu(pid)
    except (OSError, ValueError):
        return None


def machine_busy():
    """Busy CPU seconds of all cores since boot, and the number of cores,
    from /proc/stat (iowait counts as idle: no core was working)."""
    busy, cores = 0, 0
    with open("/proc/stat") as f:
        for line in f:
            if line.startswith("cpu "):
                v = [int(x) for x in line.split()[1:]]
                # user nice system idle iowait irq softirq steal ...
                busy = v[0] + v[1] + v[2] + v[5] + v[6] + \
                    (v[7] if len(v) > 7 else 0)
            elif line.startswith("cpu"):
                cores += 1
    return busy / CLK_TCK, cores


def children_cpu():
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def self_cpu():
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime


def create_files(d, n, size):
    buf = os.urandom(size)
    for i in range(n):
        fd = os.open(os.path.join(d, f"c{i:06d}"),
                     os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
        try:
            if size:
                os.write(fd, buf)
        finally:
            os.close(fd)


def writeread_setup(path, n):
    fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_TRUNC, 0o644)
    os.write(fd, bytes(n * 4096))
    os.fsync(fd)
    os.lseek(fd, 0, os.SEEK_SET)
    while os.read(fd, 1 << 20):
        pass
    return fd


def writeread(fd, n):
    page = b"w" * 4096
    for i in range(n - 1):
        os.pwrite(fd, page, i * 4096)
        if len(os.pread(fd, 4096, (i + 1) * 4096)) != 4096:
            raise OSError(f"short read of page {i + 1}")
    os.close(fd)


def measure(argv):
    pid = ctl = mnt = spid = None
    timeout = None
    count_lines = False
    stdout_file = None
    create = None
    wr = None
    cmd = None
    i = 0
    while i < len(argv):
        a = argv[i]
        if a == "--pid":
            pid = int(argv[i + 1]); i += 2
        elif a == "--server-pid":
            spid = int(argv[i + 1]); i += 2
        elif a == "--ctl":
            ctl = argv[i + 1]; i += 2
        elif a == "--mnt":
            mnt = argv[i + 1]; i += 2
        elif a == "--timeout":
            timeout = float(argv[i + 1]); i += 2
        elif a == "--count-lines":
            count_lines = True; i += 1
        elif a == "--stdout":
            stdout_file = argv[i + 1]; i += 2
        elif a == "--create":
            create = (argv[i + 1], int(argv[i + 2]), int(argv[i + 3])); i += 4
        elif a == "--writeread":
            wr = (argv[i + 1], int(argv[i + 2])); i += 3
        elif a == "--":
            cmd = argv[i + 1:]; break
        else:
            die(f"measure: unknown argument {a!r}", 2)
    if (create is None and wr is None) == (not cmd) or (create and wr):
        die("measure: give one of --create, --writeread or -- CMD", 2)
    if pid is not None and not (ctl and mnt):
        die("measure: --pid needs --ctl and --mnt", 2)

    if wr:
        # Before the first snapshot: its nfsfusectl, exec'd, closes a copy
        # of the descriptor, which flushes.
        try:
            wr_fd = writeread_setup(*wr)
        except OSError as e:
            die(f"making {wr[0]}: {e}")
    before, extra0 = ctl_stats(ctl, mnt) if pid is not None else (None, None)
    rss0 = proc_mem(pid)[0] if pid is not None else None
    dcpu0 = proc_cpu(pid) if pid is not None else None
    scpu0 = server_cpu(spid)
    busy0, cores = machine_busy()
    lines = None
    if wr:
        c0 = self_cpu()
        t0 = time.perf_counter()
        try:
            writeread(wr_fd, wr[1])
        except OSError as e:
            die(f"writing and reading {wr[0]}: {e}")
        wall = time.perf_counter() - t0
        ccpu = self_cpu() - c0
    elif create:
        c0 = self_cpu()
        t0 = time.perf_counter()
        try:
            create_files(*create)
        except OSError as e:
            die(f"creating files in {create[0]}: {e}")
        wall = time.perf_counter() - t0
        ccpu = self_cpu() - c0
    else:
        c0 = children_cpu()
        t0 = time.perf_counter()
        try:
            p = subprocess.run(cmd, stdin=subprocess.DEVNULL,
                               stdout=subprocess.PIPE
                               if count_lines or stdout_file
                               else subprocess.DEVNULL,
                               stderr=subprocess.PIPE, timeout=timeout)
        except subprocess.TimeoutExpired:
            die(f"timed out after {timeout:.0f} s: {shlex.join(cmd)}")
        except OSError as e:
            die(f"cannot run {shlex.join(cmd)}: {e}")
        wall = time.perf_counter() - t0
        ccpu = children_cpu() - c0
        if p.returncode != 0:
            err = p.stderr.decode(errors="replace").strip()[-2000:]
            die(f"exit status {p.returncode}: {shlex.join(cmd)}"
                + (f"\n{err}" if err else ""))
        if count_lines:
            lines = p.stdout.count(b"\n")
        if stdout_file:
            with open(stdout_file, "wb") as f:
                f.write(p.stdout)
    dcpu1 = proc_cpu(pid) if pid is not None else None
    busy1 = machine_busy()[0]
    scpu1 = server_cpu(spid)
    rss1, hwm1 = proc_mem(pid) if pid is not None else (None, None)
    after, extra1 = ctl_stats(ctl, mnt) if pid is not None else (None, None)

    out = {"M_WALL": f"{wall:.6f}", "M_CCPU": f"{ccpu:.3f}",
           "M_BUSY": f"{busy1 - busy0:.3f}", "M_CORES": str(cores),
           "M_SCPU": "-" if scpu0 is None or scpu1 is None
           else f"{scpu1 - scpu0:.3f}"}
    if pid is not None:
        out["M_DCPU"] = f"{dcpu1 - dcpu0:.3f}"
        delta, out["M_RPCS"] = deltas(before, after)
        out["M_RPC_TOTAL"] = str(sum(delta.values()))
        for k, v in delta.items():
            out[f"M_RPC_{k}"] = str(v)
        # Time spent waiting for replies, by procedure (microseconds).
        rtt, _ = deltas(extra0["rtt"], extra1["rtt"])
        for k, v in rtt.items():
            out[f"M_RTT_{k}"] = str(v)
        out["M_RTT_TOTAL"] = str(sum(rtt.values()))
        # Only an NFSv4 mount counts operations; on others they stay 0.
        ops, ops_text = deltas(extra0["nfs4ops"], extra1["nfs4ops"])
        if any(ops.values()):
            out["M_OPS"] = ops_text
            for k, v in ops.items():
                out[f"M_OP_{k}"] = str(v)
        out["M_RSS0"], out["M_RSS1"], out["M_HWM1"] = \
            str(rss0), str(rss1), str(hwm1)
        if "inodes" in extra0 and "inodes" in extra1:
            out["M_INODES0"] = str(extra0["inodes"])
            out["M_INODES1"] = str(extra1["inodes"])
        if "data_cache_bytes" in extra1:
            out["M_DCACHE1"] = str(extra1["data_cache_bytes"])
    else:
        out["M_DCPU"] = "-"
        out["M_RPCS"] = "-"
        out["M_RPC_TOTAL"] = "-"
    if lines is not None:
        out["M_LINES"] = str(lines)
    for k, v in out.items():
        print(f"{k}={shlex.quote(v)}")


def mkfiles(argv):
    if len(argv) != 2:
        die("usage: mkfiles DIR N", 2)
    d, n = argv[0], int(argv[1])
    for i in range(n):
        fd = os.open(os.path.join(d, f"f{i:06d}"),
                     os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
        os.close(fd)


def fio_iops(argv):
    if len(argv) != 1:
        die("usage: fio-iops FILE", 2)
    try:
        with open(argv[0]) as f:
            text = f.read()
        # fio may print notes before the JSON document.
        js = json.loads(text[text.index("{"):])
        jobs = js["jobs"]
        iops = sum(float(j["read"]["iops"]) for j in jobs)
        ios = sum(int(j["read"]["total_ios"]) for j in jobs)
    except (OSError, ValueError, KeyError, TypeError) as e:
        die(f"cannot read fio's report {argv[0]}: {e}")
    print(f"{iops:.0f} {ios}")


def main():
    if len(sys.argv) < 2:
        die(__doc__.strip(), 2)
    sub, rest = sys.argv[1], sys.argv[2:]
    if sub == "measure":
        measure(rest)
    elif sub == "mkfiles":
        mkfiles(rest)
    elif sub == "fio-iops":
        fio_iops(rest)
    else:
        die(f"unknown subcommand {sub!r}", 2)


if __name__ == "__main__":
    main()
