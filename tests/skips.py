#!/usr/bin/env python3
"""Skipped tests of one meson run, against the list of those allowed to
skip (tests/run-all.sh).  usage: skips.py TESTLOG.json ALLOWED-SKIPS

Prints one line per skipped test: "allowed NAME REASON" (the list's) or
"unlisted NAME REASON" (the test's own SKIP line), and "all N" when every
one of the N tests of the run skipped."""
import json
import sys


def main():
    log, allowed_file = sys.argv[1:3]
    allowed = {}
    try:
        with open(allowed_file) as f:
            for line in f:
                line = line.split("#", 1)[0].strip()
                if line:
                    name, _, why = line.partition(" ")
                    allowed[name] = why.strip() or "(no reason given)"
    except FileNotFoundError:
        pass
    ran = skipped = 0
    with open(log) as f:
        for line in f:
            t = json.loads(line)
            ran += 1
            if t.get("result") != "SKIP":
                continue
            skipped += 1
            name = t["name"].split(" / ", 1)[-1]
            text = (t.get("stdout") or "") + "\n" + (t.get("stderr") or "")
            why = [l for l in text.splitlines() if l.startswith("SKIP")]
            if name in allowed:
                print("allowed %s %s" % (name, allowed[name]))
            else:
                print("unlisted %s %s" % (name, why[-1] if why else "(no reason printed)"))
    if ran and skipped == ran:
        print("all %d" % ran)


if __name__ == "__main__":
    main()
