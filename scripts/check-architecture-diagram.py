#!/usr/bin/env python3
"""Check docs/architecture/layers.dot against the build: the targets of src/, ui/ and app/ and the links
between them, and that Graphviz renders it to the committed docs/architecture/layers.svg.

Usage: check-architecture-diagram.py [--source-dir DIR] [--dot PATH] [--update-svg]

The CMake side is read from the files, starting at the top-level CMakeLists.txt and following
add_subdirectory() and include() except into the directories that hold no product target (tests,
tools, fuzz, packaging, docs). A small evaluator knows set(), foreach() and ${VAR}; it takes every
branch of an if() and ignores return(). Our targets: add_library()/add_executable() and
mqttdoctor_add_layer(<name> ... USES ...) (the library mqttdoctor_<name>). Our links: the items of
target_link_libraries() and of USES that are our targets (Qt6::Core, PkgConfig::NATS... are not).

The diagram side is what `dot -Tjson` makes of the file: each node is a target (its name is the target's
name, its label starts with it); a cluster named cluster_<target> is an INTERFACE library whose nodes
are what it links; an edge is a link, to <target> when it has lhead=cluster_<target>.

Fails (exit 1) on: a target or link of the CMake files missing from the diagram, a node or edge of the
diagram that the CMake files do not have, no Graphviz `dot` (a missing tool is a failure), `dot -Tsvg`
failing, or the committed SVG showing other nodes, links or labels than `dot -Tsvg` renders now. --update-svg rewrites the
committed SVG first. Prints the differences and "N passed, M failed" for the checks.
"""

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

DOT_FILE = Path("docs/architecture/layers.dot")
SVG_FILE = Path("docs/architecture/layers.svg")
# Folders the top-level CMakeLists.txt adds that hold no product target: not part of the diagram.
NOT_DRAWN = {"tests", "tools", "fuzz", "packaging", "docs"}
# Names that look like ours: linking one that the files read do not define is an error, not a skip.
OUR_PREFIXES = ("mqttdoctor_", "nats-mqtt-doctor")
LINK_KEYWORDS = {"PUBLIC", "PRIVATE", "INTERFACE", "LINK_PUBLIC", "LINK_PRIVATE", "LINK_INTERFACE_LIBRARIES",
                 "debug", "optimized", "general"}


class CMakeError(Exception):
    pass


# --- CMake -------------------------------------------------------------------------------------------

def parse_commands(text, path):
    """[(name, [args], line)] of a CMake file: comments dropped, quoted and bracket arguments kept whole."""
    commands = []
    i, n, line = 0, len(text), 1
    ident = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
    while i < n:
        c = text[i]
        if c == "\n":
            line += 1
            i += 1
        elif c.isspace():
            i += 1
        elif c == "#":
            m = re.match(r"#\[(=*)\[", text[i:])
            end = text.find("]" + m.group(1) + "]", i) if m else text.find("\n", i)
            end = n if end < 0 else end
            line += text.count("\n", i, end)
            i = end
        else:
            m = ident.match(text, i)
            if not m:
                raise CMakeError(f"{path}:{line}: cannot read CMake here: {text[i:i + 30]!r}")
            name, i = m.group(0).lower(), m.end()
            while i < n and text[i] in " \t":
                i += 1
            if i >= n or text[i] != "(":
                raise CMakeError(f"{path}:{line}: expected '(' after {name}")
            start_line = line
            args, depth, cur, i = [], 1, None, i + 1
            while True:
                if i >= n:
                    raise CMakeError(f"{path}:{start_line}: unclosed {name}(")
                c = text[i]
                if c == '"':
                    j = i + 1
                    while j < n and text[j] != '"':
                        j += 2 if text[j] == "\\" else 1
                    cur = (cur or "") + text[i + 1:j]
                    line += text.count("\n", i, j)
                    i = j + 1
                elif c == "#":
                    end = text.find("\n", i)
                    i = n if end < 0 else end
                elif c == "(":
                    depth += 1
                    cur = (cur or "") + c
                    i += 1
                elif c == ")":
                    depth -= 1
                    if depth == 0:
                        if cur is not None:
                            args.append(cur)
                        i += 1
                        break
                    cur = (cur or "") + c
                    i += 1
                elif c.isspace():
                    if c == "\n":
                        line += 1
                    if cur is not None:
                        args.append(cur)
                        cur = None
                    i += 1
                else:
                    cur = (cur or "") + c
                    i += 1
            commands.append((name, args, start_line))
    return commands


class CMakeModel:
    """Our targets, their links, and where each was read."""

    def __init__(self, source_dir):
        self.root = Path(source_dir).resolve()
        self.vars = {"PROJECT_SOURCE_DIR": str(self.root), "CMAKE_SOURCE_DIR": str(self.root)}
        self.targets = {}  # name -> "file:line"
        self.links = {}  # (from, to) -> "file:line"
        self.raw_links = []  # (from, item, "file:line")
        self.files = []
        self.visited = set()

    def expand(self, value):
        for _ in range(10):
            new = re.sub(r"\$\{([A-Za-z0-9_]+)\}", lambda m: self.vars.get(m.group(1), ""), value)
            if new == value:
                break
            value = new
        return value

    def expand_args(self, args):
        out = []
        for a in args:
            out.extend(x for x in self.expand(a).split(";") if x != "")
        return out

    def read_dir(self, directory):
        self.read_file(directory / "CMakeLists.txt", directory)

    def read_file(self, path, current_dir):
        path = path.resolve()
        if path in self.visited:
            return
        self.visited.add(path)
        self.files.append(path.relative_to(self.root))
        saved = self.vars.get("CMAKE_CURRENT_SOURCE_DIR")
        self.vars["CMAKE_CURRENT_SOURCE_DIR"] = str(current_dir)
        self.run(parse_commands(path.read_text(encoding="utf-8"), path.relative_to(self.root)), path, current_dir)
        if saved is not None:
            self.vars["CMAKE_CURRENT_SOURCE_DIR"] = saved

    def run(self, commands, path, current_dir):
        i = 0
        while i < len(commands):
            name, args, line = commands[i]
            where = f"{path.relative_to(self.root)}:{line}"
            if name in ("function", "macro"):
                end = self.block_end(commands, i, name, "end" + name)
                if args and args[0] == "mqttdoctor_add_layer":
                    self.check_add_layer(commands[i + 1:end], where)
                i = end + 1
                continue
            if name == "foreach":
                end = self.block_end(commands, i, "foreach", "endforeach")
                for item in self.foreach_items(args):
                    self.vars[args[0]] = item
                    self.run(commands[i + 1:end], path, current_dir)
                i = end + 1
                continue
            self.command(name, args, where, path, current_dir)
            i += 1

    @staticmethod
    def block_end(commands, start, opener, closer):
        depth = 0
        for j in range(start, len(commands)):
            if commands[j][0] == opener:
                depth += 1
            elif commands[j][0] == closer:
                depth -= 1
                if depth == 0:
                    return j
        raise CMakeError(f"{opener}() at line {commands[start][2]} has no {closer}()")

    def foreach_items(self, args):
        rest = args[1:]
        if rest[:2] == ["IN", "LISTS"]:
            return [x for v in rest[2:] for x in self.vars.get(v, "").split(";") if x]
        if rest[:2] == ["IN", "ITEMS"]:
            return self.expand_args(rest[2:])
        if rest and rest[0] == "RANGE":
            raise CMakeError("foreach(RANGE) is not understood by this check")
        return self.expand_args(rest)

    def check_add_layer(self, body, where):
        # The check reads a call as "mqttdoctor_<name> links its USES": hold the function to that.
        text = " ".join(" ".join([n] + a) for n, a, _ in body)
        if "mqttdoctor_${name}" not in text or "${LAYER_USES}" not in text or "target_link_libraries" not in text:
            raise CMakeError(f"{where}: mqttdoctor_add_layer() no longer makes mqttdoctor_<name> linking its USES: "
                             "update scripts/check-architecture-diagram.py")

    def command(self, name, args, where, path, current_dir):
        if name == "set" and args:
            values = [a for a in args[1:] if a not in ("PARENT_SCOPE",)]
            if "CACHE" in values:
                values = values[:values.index("CACHE")]
            self.vars[args[0]] = ";".join(self.expand_args(values))
        elif name == "add_subdirectory" and args:
            sub = (current_dir / self.expand(args[0])).resolve()
            rel = sub.relative_to(self.root)
            if rel.parts and rel.parts[0] in NOT_DRAWN:
                return
            self.read_dir(sub)
        elif name == "include" and args:
            target = Path(self.expand(args[0]))
            target = target if target.is_absolute() else current_dir / target
            if target.suffix == ".cmake" and target.is_file() and self.root in target.resolve().parents:
                self.read_file(target, current_dir)
        elif name in ("add_library", "add_executable") and args:
            a = self.expand_args(args)
            if "IMPORTED" in a or "ALIAS" in a:
                return
            self.targets.setdefault(a[0], where)
        elif name == "mqttdoctor_add_layer" and args:
            a = self.expand_args(args)
            target = "mqttdoctor_" + a[0]
            self.targets.setdefault(target, where)
            if "USES" in a:
                uses = a[a.index("USES") + 1:]
                uses = uses[:next((k for k, u in enumerate(uses) if u == "SOURCES"), len(uses))]
                for item in uses:
                    self.raw_links.append((target, item, where))
        elif name == "target_link_libraries" and args:
            a = self.expand_args(args)
            for item in a[1:]:
                if item not in LINK_KEYWORDS:
                    self.raw_links.append((a[0], item, where))

    def finish(self):
        problems = []
        for source, item, where in self.raw_links:
            if item in self.targets:
                self.links.setdefault((source, item), where)
            elif "::" not in item and not item.startswith("$<") and item.startswith(OUR_PREFIXES):
                problems.append(f"{where}: {source} links {item}, which src/, ui/ and app/ do not define "
                                "(a target of tests/ or tools/ in the product?)")
        for source, _, where in self.raw_links:
            if source not in self.targets:
                problems.append(f"{where}: target_link_libraries({source} ...) of a target this check did not see made")
        return problems


# --- Graphviz ----------------------------------------------------------------------------------------

def find_dot(given):
    if given:
        return given if Path(given).is_file() and os.access(given, os.X_OK) else None
    return shutil.which("dot")


def strip_tags(label):
    return re.sub(r"<[^>]*>", "", label or "").strip()


def read_diagram(dot, dot_file):
    """(nodes {name: label text}, edges {(from, to)}, problems) from `dot -Tjson`."""
    run = subprocess.run([dot, "-Tjson", str(dot_file)], capture_output=True, text=True)
    if run.returncode != 0:
        return None, None, [f"dot -Tjson {dot_file} failed ({run.returncode}): {run.stderr.strip()}"]
    graph = json.loads(run.stdout)
    objects = {o["_gvid"]: o for o in graph.get("objects", [])}
    subgraph_count = graph.get("_subgraph_cnt", 0)
    subgraphs = {gvid: o for gvid, o in objects.items() if gvid < subgraph_count}
    clusters = {gvid: o for gvid, o in subgraphs.items() if o["name"].startswith("cluster")}
    problems, nodes, edges = [], {}, set()

    def cluster_target(name):
        return name[len("cluster_"):] if name.startswith("cluster_") else name

    def nested_clusters(gvid):
        out = []
        for child in subgraphs[gvid].get("subgraphs", []):
            out += [child] if child in clusters else nested_clusters(child)
        return out

    for gvid, o in objects.items():
        if gvid >= subgraph_count:
            label = o.get("label", "\\N")
            text = o["name"] if label == "\\N" else strip_tags(label)
            nodes[o["name"]] = text
    for gvid, o in clusters.items():
        target = cluster_target(o["name"])
        nodes[target] = strip_tags(o.get("label", ""))
        inner = nested_clusters(gvid)
        members = set(o.get("nodes", [])) - {n for c in inner for n in clusters[c].get("nodes", [])}
        for m in sorted(members):
            edges.add((target, objects[m]["name"]))
        for c in inner:
            edges.add((target, cluster_target(clusters[c]["name"])))
    for e in graph.get("edges", []):
        tail, head = objects[e["tail"]]["name"], objects[e["head"]]["name"]
        for end, attr, node in (("head", "lhead", head), ("tail", "ltail", tail)):
            if attr in e:
                cluster = next((c for c in clusters.values() if c["name"] == e[attr]), None)
                if cluster is None:
                    problems.append(f"edge {tail} -> {head}: {attr}={e[attr]} is no cluster")
                    continue
                if not any(objects[m]["name"] == node for m in cluster.get("nodes", [])):
                    problems.append(f"edge {tail} -> {head}: its {end} is not inside {e[attr]}")
                if end == "head":
                    head = cluster_target(e[attr])
                else:
                    tail = cluster_target(e[attr])
        edges.add((tail, head))
    for name, text in nodes.items():
        if text and not text.startswith(name):
            problems.append(f"node {name}: its label does not start with its target's name ({text[:60]!r})")
    return nodes, edges, problems


# --- main --------------------------------------------------------------------------------------------

def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--source-dir", default=str(Path(__file__).resolve().parent.parent))
    parser.add_argument("--dot", default="", help="Graphviz's dot (default: dot on PATH)")
    parser.add_argument("--update-svg", action="store_true", help=f"rewrite {SVG_FILE} first")
    opts = parser.parse_args()
    root = Path(opts.source_dir).resolve()
    dot_file, svg_file = root / DOT_FILE, root / SVG_FILE
    regenerate = f"dot -Tsvg {DOT_FILE} -o {SVG_FILE}   (in {root}; or: {Path(sys.argv[0]).name} --update-svg)"
    passed, failed = 0, 0

    def report(ok, title, details=()):
        nonlocal passed, failed
        print(("PASS " if ok else "FAIL ") + title)
        for d in details:
            print("    " + d)
        passed, failed = passed + ok, failed + (not ok)

    dot = find_dot(opts.dot)
    if not dot:
        report(False, "Graphviz's dot is found",
               [f"no dot at {opts.dot!r}" if opts.dot else "no dot on PATH",
                "install Debian's graphviz (`make deps` does: it is in the Makefile's DEB_PACKAGES)"
                + (", then configure the tree again" if opts.dot.endswith("NOTFOUND") else "")])
        print(f"{passed} passed, {failed} failed")
        return 1
    version = subprocess.run([dot, "-V"], capture_output=True, text=True).stderr.strip()

    # 1. The diagram against the CMake files.
    model = CMakeModel(root)
    try:
        model.read_dir(root)
        cmake_problems = model.finish()
    except CMakeError as e:
        cmake_problems = [str(e)]
    report(not cmake_problems, f"CMake files read ({len(model.files)} files, {len(model.targets)} targets, "
           f"{len(model.links)} links between them)", cmake_problems)

    nodes, edges, dot_problems = read_diagram(dot, dot_file)
    if nodes is not None:
        want_nodes, have_nodes = set(model.targets), set(nodes)
        want_edges, have_edges = set(model.links), edges
        diff = []
        for t in sorted(want_nodes - have_nodes):
            diff.append(f"+ node {t}    (in the build: {model.targets[t]}; missing from {DOT_FILE})")
        for t in sorted(have_nodes - want_nodes):
            diff.append(f"- node {t}    (in {DOT_FILE}; no such target in the CMake files)")
        for a, b in sorted(want_edges - have_edges):
            diff.append(f"+ edge {a} -> {b}    (in the build: {model.links[(a, b)]}; missing from {DOT_FILE})")
        for a, b in sorted(have_edges - want_edges):
            diff.append(f"- edge {a} -> {b}    (in {DOT_FILE}; the CMake files have no such link)")
        if diff:
            diff.insert(0, f"'+' is in the CMake files only, '-' in {DOT_FILE} only: edit {DOT_FILE}, then {regenerate}")
        report(not diff and not dot_problems,
               f"{DOT_FILE} has the {len(want_nodes)} targets and {len(want_edges)} links of the build, and nothing else",
               dot_problems + diff)
    else:
        report(False, f"{DOT_FILE} is read by dot", dot_problems)

    # 2. dot renders it, and the committed SVG is what it renders now.
    render = subprocess.run([dot, "-Tsvg", str(dot_file)], capture_output=True)
    # dot's own complaints ("Warning: ...", "Error: ..."), not a font library's notes about its cache.
    stderr = render.stderr.decode(errors="replace").strip()
    warnings = [l for l in stderr.splitlines() if re.match(r"(Warning|Error)\b", l)]
    ok = render.returncode == 0 and not warnings and render.stdout.startswith(b"<?xml")
    report(ok, f"dot -Tsvg renders {DOT_FILE} without error or warning ({version})",
           [] if ok else [f"exit {render.returncode}: {stderr or 'no SVG written'}"])
    if render.returncode == 0:
        if opts.update_svg:
            svg_file.write_bytes(render.stdout)
            print(f"     wrote {SVG_FILE}")
        committed = svg_file.read_bytes() if svg_file.is_file() else None
        # What the drawing says (its nodes, links and labels), not where a font put them: another font
        # or Graphviz build moves coordinates, not content.
        def content(svg):
            text = svg.decode(errors="replace")
            return sorted(re.findall(r"<title>(.*?)</title>", text)) + sorted(re.findall(r"<text[^>]*>(.*?)</text>", text))
        same = committed is not None and content(committed) == content(render.stdout)
        details = []
        if not same:
            details = [f"{SVG_FILE} is {'missing' if committed is None else 'not what dot renders from ' + str(DOT_FILE) + ' now'}",
                       f"regenerate it with: {regenerate}"]
        report(same, f"{SVG_FILE} is up to date", details)
    print(f"{passed} passed, {failed} failed")
    return 0 if failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
