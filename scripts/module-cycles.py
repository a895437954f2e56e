#!/usr/bin/env python3
"""Fails on a cycle between the top-level modules of a crate (issue 20: layers call down, never up).

Reads every `crate::<module>` path in each crate's sources (use lines and inline paths, comments
and strings skipped), builds the graph of top-level modules, and prints each strongly connected set
of more than one module with the files that make its edges. Exit 1 when there is any.
"""
import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
CRATES = ["jobs/src", "api/src", "worker/src", "scheduler/src", "src"]
PATH = re.compile(r"\bcrate::([a-z_][a-z0-9_]*)")
# `use crate::{a, b::c}` names several modules at once.
GROUP = re.compile(r"\bcrate::\{([^}]*)\}", re.S)


def strip(text):
    """The code without comments, string and char literals (a path in a doc comment is no dependency)."""
    out, i, n = [], 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("//", i):
            i = text.find("\n", i)
            i = n if i < 0 else i
        elif text.startswith("/*", i):
            end = text.find("*/", i + 2)
            i = n if end < 0 else end + 2
        elif c == "r" and re.match(r'r#*"', text[i:]) and (i == 0 or not (text[i - 1].isalnum() or text[i - 1] == "_")):
            hashes = re.match(r"r(#*)\"", text[i:]).group(1)
            end = text.find('"' + hashes, i + 2 + len(hashes))
            i = n if end < 0 else end + 1 + len(hashes)
            out.append('""')
        elif c == '"':
            i += 1
            while i < n and text[i] != '"':
                i += 2 if text[i] == "\\" else 1
            i += 1
            out.append('""')
        elif c == "'" and re.match(r"'(\\.[^']*|[^'\\])'", text[i:]):
            i += len(re.match(r"'(\\.[^']*|[^'\\])'", text[i:]).group(0))
            out.append("' '")
        else:
            out.append(c)
            i += 1
    return "".join(out)


def module_of(src, file):
    rel = file.relative_to(src)
    if rel.parts[0] in ("lib.rs", "main.rs"):
        return None
    return rel.parts[0].removesuffix(".rs")


def cycles(src):
    edges = {}
    for file in sorted(src.rglob("*.rs")):
        here = module_of(src, file)
        if here is None:
            continue
        code = strip(file.read_text())
        names = set(PATH.findall(code))
        for group in GROUP.findall(code):
            names.update(p.strip().split("::")[0] for p in group.split(",") if p.strip())
        for name in names:
            if name not in ("self", "super") and name != here:
                edges.setdefault(here, {}).setdefault(name, set()).add(str(file.relative_to(ROOT)))
    # Tarjan's strongly connected components.
    index, low, stack, on, out, counter = {}, {}, [], set(), [], [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in edges.get(v, {}):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    sys.setrecursionlimit(10_000)
    for v in list(edges):
        if v not in index:
            visit(v)
    return out, edges


def main():
    found = 0
    for crate in CRATES:
        src = ROOT / crate
        comps, edges = cycles(src)
        for comp in comps:
            found += 1
            print(f"{crate}: cycle between {', '.join(comp)}")
            for a in comp:
                for b in comp:
                    if b in edges.get(a, {}):
                        files = sorted(edges[a][b])
                        print(f"  {a} -> {b}: {', '.join(files[:3])}{' …' if len(files) > 3 else ''}")
    if found:
        print(f"{found} cycle(s): a module may use the ones below it, never one that uses it back")
        return 1
    print("no cycles between modules")
    return 0


if __name__ == "__main__":
    sys.exit(main())
