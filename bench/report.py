#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Turn the raw output of bench/run.sh (build/bench/) into a table on
stdout, bench/results/<date>-<kernel>.json and .md (-2, -3, ... after
the kernel's name when an earlier run of that day has the name).

    bench/report.py WORKDIR RESULTSDIR
"""
import json
import os
import re
import shlex
import statistics
import sys

work, resdir = sys.argv[1], sys.argv[2]


def load_meta():
    meta = {}
    with open(os.path.join(work, "meta.env")) as f:
        for line in f:
            k, _, v = line.rstrip("\n").partition("=")
            meta[k] = " ".join(shlex.split(v)) if v else ""
    return meta


def results(name):
    """R lines of one boot: {config: json}, plus the comment lines."""
    out, notes = {}, []
    path = os.path.join(work, name + ".out")
    if not os.path.exists(path):
        return None, ["no output (boot did not run)"]
    with open(path, errors="replace") as f:
        for line in f:
            line = line.strip()
            m = re.match(r"R \S+ (\S+) (.*)$", line)
            if m:
                try:
                    out[m.group(1)] = json.loads(m.group(2))
                except ValueError:
                    notes.append(f"{m.group(1)}: unparsable: {m.group(2)[:200]}")
            elif line.startswith("#"):
                notes.append(line[1:].strip())
    return out, notes


meta = load_meta()
quick = meta.get("quick") == "1"
release = meta.get("release", "unknown")
base = meta.get("base", "6.1")
kdir = f"build/kernel/{base}"
report = {
    "date": meta.get("date"),
    "started": meta.get("started") or None,
    "kernel": release,
    "stock_kernel": meta.get("stock_release") or None,
    "base": base,
    "image_release": meta.get("image_release", "bookworm"),
    "guest_cpus_cost": int(meta.get("cost_smp", "1") or 1),
    "host_cpu": meta.get("cpu"),
    "host_cpus": int(meta.get("ncpu", "0") or 0),
    "qemu": meta.get("qemu"),
    "quick": quick,
}
md = []
txt = []
verdicts = []


def verdict(name, ok, detail):
    verdicts.append({"target": name, "pass": ok, "detail": detail})


def table(head, rows):
    lines = ["| " + " | ".join(head) + " |",
             "|" + "|".join("---" if i == 0 else "---:" for i in range(len(head))) + "|"]
    lines += ["| " + " | ".join(str(c) for c in r) + " |" for r in rows]
    return lines


def pct(ok, n):
    return f"{100.0 * ok / n:.2f}%" if n else "n/a"


# --- part 1 -------------------------------------------------------------------
wl, wl_notes = results("workload")
report["workload"] = {"configs": wl, "notes": wl_notes}
md += ["## 1. Atime writes of a read-heavy workload", ""]
if wl:
    any_cfg = next(iter(wl.values()))
    desc = (f"{any_cfg['files']} files of 64 bytes on a fresh ext4 without a journal "
            f"(virtio disk), {any_cfg['steps']} steps of {any_cfg['step_s']} s "
            f"(48 simulated hours, clock moved with clock_settime), "
            f"{any_cfg['reads']} reads in all (every file read at least "
            f"{min(c['min_reads_per_file'] for c in wl.values())} times), "
            "the same seeded sequence for every policy; kernel " + release + ".")
    md += [desc, ""]
    rows = []
    for cfg, r in wl.items():
        I = r["interval"] or 86400
        if r["q_interval"] is not None:
            qi, qok = r["q_interval"], r["q_interval_ok"]
        else:
            qi, qok = r["q_day"], r["q_day_ok"]
        if cfg.startswith("relatime"):
            ok = (r["interval_violations"] == 0 and
                  (r["atime_updates"] is None or r["atime_updates"] == r["atime_changes_seen"]))
            check = "PASS" if ok else "FAIL"
            verdict(f"at most one atime update per file per interval ({cfg})", ok,
                    f"{r['interval_violations']} gaps shorter than {r['interval']} s; "
                    f"counter {r['atime_updates']} vs {r['atime_changes_seen']} atime changes seen")
        else:
            check = "n/a"
        updates = r["atime_updates"] if r["atime_updates"] is not None else "-"
        if cfg == "noatime" and r["atime_updates"] is None:
            updates = 0
        rows.append([cfg, updates,
                     r["relatime_skips"] if r["relatime_skips"] is not None else "-",
                     f"{r['data_write_requests']:.0f} ({r['write_requests']})"
                     if "data_write_requests" in r else r["write_requests"],
                     r["write_sectors"],
                     r["max_changes_per_file"],
                     r["min_gap_s"] if r["min_gap_s"] >= 0 else "-",
                     f"{pct(qok, qi)} (I={I // 3600 if I >= 3600 else I // 60}{'h' if I >= 3600 else 'min'})",
                     pct(r["q_day_ok"], r["q_day"]), check])
    head = ["policy", "atime updates", "relatime skips", "write requests: data (all)",
            "sectors written", "max updates/file", "min gap (s)",
            "\"read in last I?\" correct", "\"read in last 24h?\" correct",
            "≤1 update/file/I"]
    md += table(head, rows)
    md += ["",
           "*atime updates*, *relatime skips*: deltas of /sys/fs/relatime/MAJ:MIN/"
           "{atime_updates,relatime_skips} over the 48 hours (noatime: 0 by definition). "
           "*write requests*, *sectors written*: fields 5 and 7 of /sys/block/DEV/stat, "
           "sampled after sync() before and after the workload; every sync() also "
           "sends one empty write request (the cache flush, measured with bare "
           "syncs first), so *data* = all − syncs × that. Writeback model: "
           "the periodic flusher is off (vm.dirty_writeback_centisecs=0) and the "
           "workload calls sync() at the end of every step (a step is 7 simulated "
           "minutes, far longer than the 30 s dirty expiry); with lazytime only "
           "every 12 simulated hours (vm.dirtytime_expire_seconds) and at the end.",
           "",
           "*\"read in last I?\"*: at the end of every step, for every file, the truth "
           "is \"the workload read it less than I seconds ago\" (its own log) and the "
           "answer is `now - atime < I` from stat(); the column is the share of "
           "matching answers over steps × files, with I the policy's interval "
           "(24 h for noatime and strictatime). *\"read in last 24h?\"*: the same "
           "question with I = 24 h for every policy. *≤1 update/file/I*: from each "
           "file's atime sampled at every step, consecutive atime values are at "
           "least I apart, and the atime_updates counter equals the number of "
           "atime changes seen.", ""]
else:
    md += ["Not run: " + "; ".join(wl_notes), ""]

# --- part 2 -------------------------------------------------------------------
cp, cp_notes = results("cost-patched")
cs, cs_notes = results("cost-stock")
report["cost"] = {"patched": cp, "stock": cs, "notes_patched": cp_notes,
                  "notes_stock": cs_notes}
md += ["## 2. Read-path cost (guest instructions per call)", ""]


def med(d, cfg, key):
    if not d or cfg not in d:
        return None
    return statistics.median(d[cfg][key])


def spread(d, cfg, key):
    if not d or cfg not in d:
        return None
    v = d[cfg][key]
    return max(v) - min(v)


def fmt(v):
    return "-" if v is None else f"{v:.1f}"


def reps(d, cfg, key):
    if not d or cfg not in d:
        return "-"
    v = d[cfg][key]
    return "identical" if max(v) == min(v) else f"spread {max(v) - min(v):.2f}"


if cp:
    n = next(iter(cp.values()))["n"]
    md += [f"QEMU TCG with `-icount shift=0`: one guest instruction is one "
           f"nanosecond of guest time, so CLOCK_MONOTONIC differences count "
           f"instructions (user loop, libc wrapper, syscall entry and exit, and "
           f"any interrupt taken, included). {n} cached 1-byte pread()s of a "
           f"file on ext4 (no journal, virtio disk) after a warm-up of {n // 10}; "
           f"{n // 4} stat()+open()+close() rounds; {n} getppid() calls as the "
           f"bare syscall cost. Each measured 3 times in one boot, after a warm-up round that is not counted, with the timers stopped; median shown. "
           f"Stock: {kdir + '/bzImage-stock' if cs else 'not run'} "
           f"(same config, no patches).", ""]
    configs = ["noatime", "relatime", "relatime+override", "strictatime", "relatime+lazytime"]
    rows = []
    for cfg in configs:
        rows.append([cfg, fmt(med(cp, cfg, "pread")), reps(cp, cfg, "pread"),
                     fmt(med(cs, cfg, "pread")) if cs else "-",
                     reps(cs, cfg, "pread") if cs else "-",
                     fmt(med(cp, cfg, "stat_open_close")),
                     fmt(med(cs, cfg, "stat_open_close")) if cs else "-"])
    md += table(["mount", "pread patched", "3 runs", "pread stock", "3 runs",
                 "stat+open+close patched", "stat+open+close stock"], rows)
    gp_p = med(cp, "noatime", "getppid")
    gp_s = med(cs, "noatime", "getppid") if cs else None
    md += ["", f"getppid(): {fmt(gp_p)} patched, {fmt(gp_s)} stock. "
           "\"relatime\" uses the global interval (24 h) and "
           "\"relatime+override\" a per-filesystem interval of 1 h "
           "(/sys/fs/relatime/MAJ:MIN/relatime_interval), both with no update due "
           "(atime later than mtime and ctime, and young); the stock kernel has no "
           "per-filesystem override. Strictatime updates atime once per clock tick "
           "and skips the other reads (atime equal to the current coarse time).", ""]
    derived = []
    pr_p = med(cp, "relatime", "pread")
    po_p = med(cp, "relatime+override", "pread")
    pn_p = med(cp, "noatime", "pread")
    if cs:
        pr_s = med(cs, "relatime", "pread")
        pn_s = med(cs, "noatime", "pread")
        for label, v in (("relatime", pr_p), ("relatime+override", po_p)):
            if v is None or pr_s is None:
                continue
            ok = v <= pr_s
            derived.append([f"patched {label} vs stock relatime",
                            f"{v:.1f} vs {pr_s:.1f} ({v - pr_s:+.1f}, ratio {v / pr_s:.4f})",
                            "patched ≤ stock", "PASS" if ok else "FAIL"])
            verdict(f"patched {label} pread ≤ stock relatime pread", ok,
                    f"{v:.1f} vs {pr_s:.1f}")
        gap_s = pr_s - pn_s if pr_s is not None and pn_s is not None else None
        for label, v in (("relatime", pr_p), ("relatime+override", po_p)):
            if v is None or gap_s is None or pn_p is None:
                continue
            gap_p = v - pn_p
            ok = gap_p <= gap_s / 2
            derived.append([f"{label} − noatime gap",
                            f"patched {gap_p:.1f}, stock {gap_s:.1f} "
                            f"(patched/stock {gap_p / gap_s:.2f})" if gap_s else
                            f"patched {gap_p:.1f}, stock {gap_s:.1f}",
                            "patched ≤ ½ stock", "PASS" if ok else "FAIL"])
            verdict(f"{label}-over-noatime gap: patched ≤ half of stock", ok,
                    f"{gap_p:.1f} vs {gap_s:.1f}")
        report["cost"]["derived"] = derived
        md += table(["comparison (pread, instructions/call)", "value", "target", ""], derived)
        md += [""]
    else:
        if pr_p is not None and pn_p is not None:
            md += [f"Patched relatime − noatime gap: {pr_p - pn_p:.1f} instructions/call. "
                   "Stock kernel not run: no comparison.", ""]
else:
    md += ["Not run: " + "; ".join(cp_notes), ""]

# --- part 3 -------------------------------------------------------------------
md += ["## 3. atimectl status vs findmnt (10,000-entry mountinfo)", ""]
st = {}
try:
    line = open(os.path.join(work, "status.txt")).read().strip().splitlines()[-1]
    m = re.search(r"findmnt median ([\d.]+) ms, atimectl median ([\d.]+) ms, ratio ([\d.]+)", line)
    if m:
        st = {"findmnt_ms": float(m.group(1)), "atimectl_ms": float(m.group(2)),
              "ratio": float(m.group(3)), "line": line}
except (OSError, IndexError):
    pass
report["status_vs_findmnt"] = st or None
if st:
    st["findmnt"] = meta.get("status_findmnt", "host's")
    md += [f"`tests/bench-status.sh` on the host CPU, atimectl and findmnt "
           f"from the {meta.get('image_release', 'bookworm')} image "
           f"({st['findmnt']}): {st['line']}", ""]
    verdict("atimectl/findmnt median ratio ≤ 1.5", st["ratio"] <= 1.5, f"{st['ratio']:.2f}")
else:
    md += ["Not run (see build/bench/status-hyperfine.txt).", ""]

# --- part 4 -------------------------------------------------------------------
loop = {
    "cold_kernel_build_s": float(meta["cold_build"]) if meta.get("cold_build") else
    (float(meta["cold_build_supplied"]) if meta.get("cold_build_supplied") else None),
    "cold_kernel_build_source": "measured" if meta.get("cold_build") else
    ("supplied" if meta.get("cold_build_supplied") else None),
    "kernel_uptodate_rebuild_s": float(meta["kernel_rebuild"]) if meta.get("kernel_rebuild") else None,
    "kernel_build_says": meta.get("kernel_build_line") or None,
    "image_build_s": float(meta["image_build"]) if meta.get("image_build") else None,
    "boot_workload_s": float(meta["boot_workload"]) if meta.get("boot_workload") else None,
    "boot_cost_patched_s": float(meta["boot_cost_patched"]) if meta.get("boot_cost_patched") else None,
    "boot_cost_stock_s": float(meta["boot_cost_stock"]) if meta.get("boot_cost_stock") else None,
}
report["developer_loop"] = loop
md += ["## 4. Developer loop", ""]
rows = [[f"cold kernel build (`rm -rf build/obj-{base}-guest && kernel/build.sh --base {base}`)",
         f"{loop['cold_kernel_build_s']:.0f} s ({loop['cold_kernel_build_source']})"
         if loop["cold_kernel_build_s"] else "not measured (--cold-build)"],
        ["`kernel/build.sh`, nothing changed",
         f"{loop['kernel_uptodate_rebuild_s']} s" if loop["kernel_uptodate_rebuild_s"] else "-"],
        ["`scripts/build-image.sh`", f"{loop['image_build_s']} s" if loop["image_build_s"] else "-"],
        ["boot + part 1 workload (TCG)", f"{loop['boot_workload_s']} s" if loop["boot_workload_s"] else "-"],
        ["boot + part 2 (icount, patched)", f"{loop['boot_cost_patched_s']} s" if loop["boot_cost_patched_s"] else "-"],
        ["boot + part 2 (icount, stock)", f"{loop['boot_cost_stock_s']} s" if loop["boot_cost_stock_s"] else "-"]]
def uptime(notes):
    for n in notes or []:
        m = re.match(r"uptime when the benchmark starts: ([\d.]+) s", n)
        if m:
            return float(m.group(1))
    return None


loop["guest_uptime_at_start_s"] = {"workload": uptime(wl_notes),
                                   "cost_patched": uptime(cp_notes),
                                   "cost_stock": uptime(cs_notes)}
u = loop["guest_uptime_at_start_s"]
if u["workload"]:
    rows.append(["boot to the benchmark's start (guest uptime, TCG)", f"{u['workload']:.1f} s"])
md += table(["step", "wall time"], rows)
md += ["", "Wall times are from a machine shared with other builds and guests; "
       "the instruction counts of part 2 are not affected by that."]
if loop["kernel_build_says"]:
    md += ["", f"kernel/build.sh said: `{loop['kernel_build_says']}`"]
md += [""]

report["verdicts"] = verdicts
head = [f"# atimectl benchmark, {report['date']}", "",
        f"- kernel: {release} (patched, {kdir}/bzImage)"
        + (f"; stock: {report['stock_kernel']} (unpatched, {kdir}/bzImage-stock, same config)"
           if report["stock_kernel"] else ""),
        f"- guest userspace: Debian {meta.get('image_release', 'bookworm')} "
        f"(build/image-{meta.get('image_release', 'bookworm')}/image.cpio)",
        f"- host CPU: {report['host_cpu']} ({report['host_cpus']} CPUs)",
        f"- {report['qemu']}; part 1 under TCG (real time), part 2 under "
        "`-icount shift=0` (1 instruction = 1 ns of guest time, exact and repeatable)",
        f"- {'QUICK smoke run: reduced sizes' if quick else 'full run'}", "",
        "## Targets", ""]
head += table(["target", "result", "detail"],
              [[v["target"], "PASS" if v["pass"] else "FAIL", v["detail"]] for v in verdicts])
head += [""]
text = "\n".join(head + md) + "\n"


def result_name(stem):
    """STEM, or STEM-2, STEM-3, ... if an earlier run of the same day and
    kernel already holds STEM.  A rebuild of this run's report (same
    start time in its JSON) takes the name it had."""
    for n in range(1, 1000):
        name = stem if n == 1 else f"{stem}-{n}"
        try:
            with open(os.path.join(resdir, name + ".json")) as f:
                held = json.load(f).get("started")
        except FileNotFoundError:
            return name
        except ValueError:
            continue
        if report["started"] is not None and held == report["started"]:
            return name
    sys.exit(f"bench/report.py: {resdir}: no free name for {stem}")


os.makedirs(resdir, exist_ok=True)
name = result_name(f"{report['date']}-{release}" + ("-quick" if quick else ""))
with open(os.path.join(resdir, name + ".json"), "w") as f:
    json.dump(report, f, indent=2)
    f.write("\n")
with open(os.path.join(resdir, name + ".md"), "w") as f:
    f.write(text)
print(text)
out = os.path.join(resdir, name)
print(f"[bench] results: {out}.json, {out}.md", file=sys.stderr)
