#!/usr/bin/env python3
"""Measuring helper for tests/bench/bench.sh (not meant to be run by hand).

  bench_helper.py measure [--pid PID --ctl NFSFUSECTL --mnt MNT]
                          [--timeout S] [--count-lines]
                          (--create DIR N SIZE | -- CMD ARGS...)

Runs one workload and prints shell assignments for bench.sh to eval:

  M_WALL    wall-clock seconds of the workload alone (no Python start-up)
  M_CCPU    user+system CPU seconds of the workload's own processes
  M_DCPU    user+system CPU seconds of the nfsfuse daemon (--pid), from
            /proc/PID/stat before and after; "-" without --pid
  M_RPCS    RPC deltas by procedure, largest first ("READ 1024 GETATTR 1")
  M_RPC_<PROC>  the delta of each procedure; M_RPC_TOTAL their sum
  M_LINES   lines the command printed on stdout (with --count-lines)

The daemon's CPU is read after the "before" stats snapshot and before the
"after" one, so the control-socket traffic of nfsfusectl is not counted.

  --create DIR N SIZE   the workload is: create N files of SIZE bytes in DIR
                        (open O_CREAT|O_EXCL, one write, close), in-process.

  bench_helper.py mkfiles DIR N    N empty files f000000.. (set-up, untimed)
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
    out = subprocess.run([ctl, mnt, "stats", "--json"], check=True,
                         capture_output=True, text=True, timeout=30).stdout
    rpc = json.loads(out)["rpc"]
    return {name: int(v.get("calls", 0)) for name, v in rpc.items()}


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


def measure(argv):
    pid = ctl = mnt = None
    timeout = None
    count_lines = False
    create = None
    cmd = None
    i = 0
    while i < len(argv):
        a = argv[i]
        if a == "--pid":
            pid = int(argv[i + 1]); i += 2
        elif a == "--ctl":
            ctl = argv[i + 1]; i += 2
        elif a == "--mnt":
            mnt = argv[i + 1]; i += 2
        elif a == "--timeout":
            timeout = float(argv[i + 1]); i += 2
        elif a == "--count-lines":
            count_lines = True; i += 1
        elif a == "--create":
            create = (argv[i + 1], int(argv[i + 2]), int(argv[i + 3])); i += 4
        elif a == "--":
            cmd = argv[i + 1:]; break
        else:
            die(f"measure: unknown argument {a!r}", 2)
    if (create is None) == (not cmd):
        die("measure: give either --create or -- CMD", 2)
    if pid is not None and not (ctl and mnt):
        die("measure: --pid needs --ctl and --mnt", 2)

    before = ctl_stats(ctl, mnt) if pid is not None else None
    dcpu0 = proc_cpu(pid) if pid is not None else None
    lines = None
    if create:
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
                               stdout=subprocess.PIPE if count_lines
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
    dcpu1 = proc_cpu(pid) if pid is not None else None
    after = ctl_stats(ctl, mnt) if pid is not None else None

    out = {"M_WALL": f"{wall:.6f}", "M_CCPU": f"{ccpu:.3f}"}
    if pid is not None:
        out["M_DCPU"] = f"{dcpu1 - dcpu0:.3f}"
        delta = {k: after.get(k, 0) - before.get(k, 0) for k in after}
        nz = sorted(((v, k) for k, v in delta.items() if v),
                    key=lambda t: (-t[0], t[1]))
        out["M_RPCS"] = " ".join(f"{k} {v}" for v, k in nz) or "none"
        out["M_RPC_TOTAL"] = str(sum(delta.values()))
        for k, v in delta.items():
            out[f"M_RPC_{k}"] = str(v)
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


def main():
    if len(sys.argv) < 2:
        die(__doc__.strip(), 2)
    sub, rest = sys.argv[1], sys.argv[2:]
    if sub == "measure":
        measure(rest)
    elif sub == "mkfiles":
        mkfiles(rest)
    else:
        die(f"unknown subcommand {sub!r}", 2)


if __name__ == "__main__":
    main()
