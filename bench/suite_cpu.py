"""Where a test run's CPU goes: runs a command (by default `make test`) and reads every
process's CPU time from /proc twice a second, adding each one's growth to its kind: the
pytest processes, the servers they start, Chromium, Playwright's driver, and the PostgreSQL
backends of the test databases (``campground_test_*``; on a shared machine, other runs' too).
Prints the wall time, the CPU by kind and in all, and at least how much more went to
processes that ended between two reads (the reaped children's total beyond what the reads
saw; Chromium's processes are not all reaped by the run, so this is a floor).

    .venv/bin/python bench/suite_cpu.py [-- make test PYTEST_ARGS=...]
"""

from __future__ import annotations

import os
import resource
import subprocess
import sys
import time
from collections import defaultdict

TICK = os.sysconf("SC_CLK_TCK")
KINDS = ("pytest", "servers", "chromium", "playwright driver", "postgres", "other")


def kind_of(cmdline: str) -> str:
    if "postgres:" in cmdline:
        return "postgres"
    if "chrom" in cmdline:
        return "chromium"
    if "node" in cmdline and "playwright" in cmdline:
        return "playwright driver"
    if "uvicorn" in cmdline or "campground" in cmdline and " serve" in cmdline:
        return "servers"
    if "pytest" in cmdline or "execnet" in cmdline or "sys.stdin.readline" in cmdline:
        return "pytest"
    return "other"


def processes() -> dict[int, tuple[int, int, str]]:
    """pid: (parent, CPU ticks, command line) of every process now."""
    found = {}
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat") as f:
                stat = f.read()
            with open(f"/proc/{name}/cmdline", "rb") as f:
                cmdline = f.read().replace(b"\0", b" ").decode(errors="replace")
        except OSError:
            continue
        fields = stat[stat.rindex(")") + 2 :].split()
        found[int(name)] = (int(fields[1]), int(fields[11]) + int(fields[12]), cmdline)
    return found


def ours(root: int, now: dict[int, tuple[int, int, str]]) -> set[int]:
    """The run's processes (``root`` and its descendants) and the test databases' backends."""
    children = defaultdict(list)
    for pid, (parent, _, _) in now.items():
        children[parent].append(pid)
    mine, todo = set(), [root]
    while todo:
        pid = todo.pop()
        mine.add(pid)
        todo += children[pid]
    return mine | {
        pid
        for pid, (_, _, cmd) in now.items()
        if cmd.startswith("postgres:") and "campground_test_" in cmd
    }


def main() -> None:
    command = sys.argv[sys.argv.index("--") + 1 :] if "--" in sys.argv else ["make", "test"]
    started = time.monotonic()
    run = subprocess.Popen(command)
    seen: dict[int, tuple[str, int]] = {}  # pid: (kind, ticks at the first read)
    last: dict[int, int] = {}
    while run.poll() is None:
        now = processes()
        for pid in ours(run.pid, now):
            if pid not in now:
                continue
            _, ticks, cmd = now[pid]
            if pid not in seen:
                kind = kind_of(cmd)
                # A backend that was there before the run counts from here on.
                base = ticks if kind == "postgres" else 0
                seen[pid] = (kind, base)
            last[pid] = ticks
        time.sleep(0.5)
    wall = time.monotonic() - started
    by_kind: dict[str, float] = defaultdict(float)
    for pid, (kind, base) in seen.items():
        by_kind[kind] += (last[pid] - base) / TICK
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    total = children.ru_utime + children.ru_stime
    sampled = sum(v for k, v in by_kind.items() if k != "postgres")
    print(f"\n{' '.join(command)}: exit {run.returncode}, {wall:.0f} s wall")
    for kind in KINDS:
        if by_kind.get(kind):
            print(f"  {kind:<20} {by_kind[kind]:7.0f} s CPU")
    print(f"  {'all but postgres':<20} {sampled:7.0f} s CPU ({sampled / wall:.2f} cores)")
    print(f"  {'ended between reads':<20} {max(0.0, total - sampled):7.0f} s CPU at least")
    sys.exit(run.returncode)


if __name__ == "__main__":
    main()
