#!/usr/bin/env python3
"""Which src/core folders each core folder includes, and any cycle between them.

usage: python3 tools/core_deps.py [SRC_CORE]   (default src/core)
Prints one line per folder: FOLDER -> the folders whose headers its files
include (subfolders count as their top folder: race/schemes is race). Exit 1
when two folders include each other, directly or through others; the build
refuses such an arrow too (src/core/meson.build's per-folder include paths),
this script names the files that make it. docs/layout.md has the order.
"""
import collections
import os
import re
import sys

root = sys.argv[1] if len(sys.argv) > 1 else "src/core"
home = {}   # header name -> top folder
files = []  # (top folder, path)
for d, _, names in os.walk(root):
    top = os.path.relpath(d, root).split(os.sep)[0]
    for n in sorted(names):
        if n.endswith((".c", ".h")):
            home.setdefault(n, top)
            files.append((top, os.path.join(d, n)))
deps = collections.defaultdict(lambda: collections.defaultdict(list))
for top, path in files:
    with open(path, encoding="utf-8") as f:
        for m in re.finditer(r'#include\s+"([^"]+)"', f.read()):
            other = home.get(os.path.basename(m.group(1)))
            if other and other != top:
                deps[top][other].append(os.path.relpath(path, root) + " -> " + m.group(1))
folders = sorted({t for t, _ in files})
for a in folders:
    print(a, "->", ", ".join(sorted(deps[a])) or "(none)")


def reaches(a, b, seen):
    """True when a includes b directly or through other folders."""
    for c in deps[a]:
        if c == b or (c not in seen and reaches(c, b, seen | {c})):
            return True
    return False


cycles = [(a, b) for a in folders for b in deps[a] if a < b and reaches(b, a, {b})]
for a, b in cycles:
    print("CYCLE:", a, "<->", b)
    for line in deps[a][b] + deps[b].get(a, []):
        print("   ", line)
sys.exit(1 if cycles else 0)
