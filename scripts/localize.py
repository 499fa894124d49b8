#!/usr/bin/env python3
"""File-localization benchmark for `budget pack`.

For each repository and each of its last N non-merge commits that modify
1-5 source files (files that already existed), the parent revision is
checked out and packed at --budget tokens with the commit's subject as
--query. The files the commit changed are the files that matter; we report
the share of them each ranking carries in full (RAW), in full or as an
outline (RAW or SKELETON), and the share that appears at all (any tier):

- each `budget` binary given with --bin (name=path), e.g. today's and a
  previous build;
- BM25: files ranked by a plain BM25 over their words ([A-Za-z0-9_]+,
  lower-cased), packed in full in that order while they fit;
- repomix's order: files by how many of the last 100 commits changed them
  (repomix's `output.git.sortByChanges`), most-changed first, packed in full
  while they fit.

Both baselines use the same files and the same exact o200k counts as the
pack report (`tokens` of files counted exactly, else `budget count`).
Without a query, at HEAD: the share of the 20 most-imported source files
(imports found by per-language patterns independent of the CLI's reference
graph) each binary packs RAW or SKELETON.

    scripts/localize.py --bin new=target/release/budget --bin old=/tmp/budget-old \\
        --repo /path/to/click.git --repo https://github.com/spf13/cobra

Repositories given as URLs are cloned (bare) into --cache. Nothing is tuned
here: the rankers are run as built.
"""

import argparse
import collections
import json
import math
import os
import re
import shutil
import subprocess
import sys
import tempfile

SOURCE = {".py", ".rs", ".go", ".js", ".mjs", ".ts", ".tsx", ".java", ".c", ".h", ".cc", ".cpp", ".rb"}
WORD = re.compile(r"[A-Za-z0-9_]+")


def git(git_dir, *args):
    return subprocess.run(
        ["git", "--git-dir", git_dir, *args], check=True, capture_output=True, text=True
    ).stdout


def is_source(path):
    return os.path.splitext(path)[1] in SOURCE


def commits(git_dir, count):
    """(sha, subject, changed source files) of the last `count` qualifying commits."""
    out = []
    for line in git(git_dir, "log", "--no-merges", "--format=%H%x00%s", "-n", str(count * 20)).splitlines():
        sha, subject = line.split("\0", 1)
        try:
            status = git(git_dir, "show", "--format=", "--name-status", sha).splitlines()
        except subprocess.CalledProcessError:
            continue  # a snapshot without some of its objects
        changed = [l.split("\t") for l in status if l]
        if not changed or any(c[0] != "M" for c in changed):
            continue
        files = [c[1] for c in changed if is_source(c[1])]
        if 1 <= len(files) <= 5 and len(files) == len(changed):
            if not complete(git_dir, sha + "^"):
                print(f"{sha[:8]}: passed over, its parent's tree has blobs missing"
                      " from this snapshot", file=sys.stderr)
                continue
            out.append((sha, subject, files))
        if len(out) == count:
            break
    return out


def complete(git_dir, rev):
    """Whether every blob of `rev`'s tree is in the repository (a fetched
    snapshot may leave its largest files out, and a checkout then fails)."""
    blobs = [l.split()[2] for l in git(git_dir, "ls-tree", "-r", rev).splitlines()
             if l.split()[1] == "blob"]
    check = subprocess.run(["git", "--git-dir", git_dir, "cat-file", "--batch-check"],
                           input="\n".join(blobs) + "\n", capture_output=True, text=True)
    return " missing" not in check.stdout


def checkout(git_dir, rev, dest):
    git(git_dir, "worktree", "add", "--detach", "-f", dest, rev)


def remove(git_dir, dest):
    git(git_dir, "worktree", "remove", "--force", dest)


HELP = {}
# The key under which `pack` keeps the payload's stripped lines.
PAYLOAD = "\0payload"


def pack(binary, root, budget, query=None):
    if binary not in HELP:
        HELP[binary] = subprocess.run([binary, "pack", "--help"], capture_output=True, text=True).stdout
    args = [binary, "pack", root, "--budget", str(budget), "--report", "-", "-o", os.devnull]
    if "--no-config" in HELP[binary]:
        args.append("--no-config")  # builds before the config file have none
    if "--no-cache" in HELP[binary]:
        # Each build finds its own names, outlines and counts: builds from
        # before `40d9a1e` key the cache by version alone, and would read
        # what another build of the same version found by its rules.
        args.append("--no-cache")
    if query:
        # `=`: a subject may start with a dash.
        args.append(f"--query={query}")
    run = subprocess.run(args, capture_output=True, text=True)
    if run.returncode != 0:
        raise RuntimeError(f"{binary}: {run.stderr.strip()}")
    report = json.loads(run.stdout)
    files = {f["path"]: f for f in report["files"]}
    files[PAYLOAD] = {line.strip() for line in report["payload"].splitlines()}
    return files


def texts(root, report):
    """Text and token count of every file the pack read."""
    out = {}
    for path, f in report.items():
        if path == PAYLOAD:
            continue
        if f["status"] in ("packed", "omitted") and f.get("tokens") is not None:
            with open(os.path.join(root, path), encoding="utf-8", errors="replace") as handle:
                out[path] = (handle.read(), f["tokens"])
    return out


def fill(order, files, budget):
    used, kept = 0, set()
    for path in order:
        tokens = files[path][1]
        if used + tokens <= budget:
            kept.add(path)
            used += tokens
    return kept


def bm25(files, query, budget):
    terms = [t.lower() for t in WORD.findall(query)]
    docs = {p: collections.Counter(t.lower() for t in WORD.findall(text)) for p, (text, _) in files.items()}
    n = len(docs)
    avg = sum(sum(c.values()) for c in docs.values()) / max(n, 1)
    df = {t: sum(1 for c in docs.values() if t in c) for t in set(terms)}
    def score(c):
        length = sum(c.values())
        s = 0.0
        for t in terms:
            tf = c.get(t, 0)
            idf = math.log(1 + (n - df[t] + 0.5) / (df[t] + 0.5))
            s += idf * tf * 2.2 / (tf + 1.2 * (0.25 + 0.75 * length / max(avg, 1)))
        return s
    order = sorted(files, key=lambda p: -score(docs[p]))
    return fill(order, files, budget)


def repomix(git_dir, rev, files, budget):
    changes = collections.Counter()
    for line in git(git_dir, "log", "--format=", "--name-only", "-n", "100", rev).splitlines():
        if line:
            changes[line] += 1
    order = sorted(files, key=lambda p: (-changes[p], p))
    return fill(order, files, budget)


IMPORTS = [
    (re.compile(r"^\s*(?:from\s+([\w.]+)\s+import|import\s+([\w.]+))", re.M), ".py"),
    (re.compile(r"^\s*\"([\w./-]+)\"$|^import\s+\"([\w./-]+)\"", re.M), ".go"),
    (re.compile(r"require\(['\"]([./\w-]+)['\"]\)|from\s+['\"]([./\w-]+)['\"]"), ".js"),
    (re.compile(r"^\s*(?:pub\s+)?(?:mod|use)\s+(?:crate::)?(\w+)", re.M), ".rs"),
]


def most_imported(files, top=20):
    """The `top` source files named most often by other files' imports:
    an import names a file when its last path or module component is the
    file's stem (or, for a package's __init__.py / mod.rs / index.js, its
    folder)."""
    by_name = collections.defaultdict(list)
    for path in files:
        if not is_source(path):
            continue
        stem = os.path.splitext(os.path.basename(path))[0]
        if stem in ("__init__", "mod", "index", "lib", "main"):
            stem = os.path.basename(os.path.dirname(path))
        by_name[stem].append(path)
    counts = collections.Counter()
    for path, (text, _) in files.items():
        for pattern, _ in IMPORTS:
            for match in pattern.finditer(text):
                name = next(g for g in match.groups() if g)
                last = re.split(r"[./]", name.rstrip("/"))[-1]
                for target in by_name.get(last, []):
                    if target != path:
                        counts[target] += 1
    return [p for p, _ in counts.most_common(top)]


LANGUAGE = {".py": "Python", ".go": "Go", ".js": "JavaScript", ".mjs": "JavaScript", ".ts": "TypeScript",
            ".tsx": "TypeScript", ".rs": "Rust", ".java": "Java", ".c": "C/C++", ".h": "C/C++",
            ".cc": "C/C++", ".cpp": "C/C++", ".rb": "Ruby"}


def hunks(git_dir, sha, path):
    """The old side (context and removed lines) of each hunk of `path` in
    commit `sha`, as the lines of at least 12 characters, stripped: what the
    reader must see of the code the commit changed."""
    out, current = [], None
    for line in git(git_dir, "diff", "-U1", sha + "^", sha, "--", path).splitlines():
        if line.startswith("@@"):
            current = []
            out.append(current)
        elif current is not None and line[:1] in (" ", "-") and not line.startswith("---"):
            text = line[1:].strip()
            if len(text) >= 12:
                current.append(text)
    return [h for h in out if h]


def shown(hunk, payload_lines):
    """Whether at least 80% of a hunk's lines are lines of the payload."""
    return sum(line in payload_lines for line in hunk) >= 0.8 * len(hunk)


def share(hits, total):
    return f"{100 * hits / total:.0f}%" if total else "n/a"


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--bin", action="append", required=True, help="name=path of a budget binary")
    parser.add_argument("--repo", action="append", required=True, help="bare git dir or URL")
    parser.add_argument("--commits", type=int, default=50)
    parser.add_argument("--budget", type=int, default=25_000)
    parser.add_argument("--cache", default=os.path.join(tempfile.gettempdir(), "budget-localize"))
    args = parser.parse_args()
    bins = dict(b.split("=", 1) for b in args.bin)
    os.makedirs(args.cache, exist_ok=True)
    rows = []
    # (language, binary) -> [changed files, RAW, RAW or SKELETON, SKELETON,
    #   hunks, hunks shown, hunks of SKELETON files, of those shown]
    by_language = collections.defaultdict(lambda: [0] * 8)
    for repo in args.repo:
        git_dir = repo
        if "://" in repo:
            git_dir = os.path.join(args.cache, repo.rstrip("/").split("/")[-1] + ".git")
            if not os.path.isdir(git_dir):
                subprocess.run(["git", "clone", "-q", "--bare", repo, git_dir], check=True)
        name = os.path.basename(os.path.dirname(git_dir.rstrip("/"))) if git_dir.endswith("/repo") else os.path.basename(git_dir)
        raw = collections.Counter()
        outlined = collections.Counter()
        seen = collections.Counter()
        total = 0
        picked = commits(git_dir, args.commits)
        for sha, subject, changed in picked:
            dest = tempfile.mkdtemp(prefix="localize-", dir=args.cache)
            shutil.rmtree(dest)
            checkout(git_dir, sha + "^", dest)
            try:
                reports = {b: pack(path, dest, args.budget, subject) for b, path in bins.items()}
                first = next(iter(reports.values()))
                files = texts(dest, first)
                total += len(changed)
                old_sides = {path: hunks(git_dir, sha, path) for path in changed}
                for b, report in reports.items():
                    for path in changed:
                        tier = (report.get(path) or {}).get("tier")
                        raw[b] += tier == "RAW"
                        outlined[b] += tier in ("RAW", "SKELETON")
                        seen[b] += tier in ("RAW", "SKELETON", "LINKED", "SUMMARY")
                        language = LANGUAGE.get(os.path.splitext(path)[1], "other")
                        by_language[(language, b)][0] += 1
                        by_language[(language, b)][1] += tier == "RAW"
                        by_language[(language, b)][2] += tier in ("RAW", "SKELETON")
                        by_language[(language, b)][3] += tier == "SKELETON"
                        for hunk in old_sides[path]:
                            present = shown(hunk, report[PAYLOAD])
                            by_language[(language, b)][4] += 1
                            by_language[(language, b)][5] += present
                            if tier == "SKELETON":
                                by_language[(language, b)][6] += 1
                                by_language[(language, b)][7] += present
                for baseline, kept in [
                    ("BM25", bm25(files, subject, args.budget)),
                    ("repomix order", repomix(git_dir, sha + "^", files, args.budget)),
                ]:
                    hits = sum(p in kept for p in changed)
                    raw[baseline] += hits
                    outlined[baseline] += hits
                    seen[baseline] += hits
            finally:
                remove(git_dir, dest)
        # Without a query, at HEAD (when the snapshot holds all of it).
        central = {}
        if complete(git_dir, "HEAD"):
            dest = tempfile.mkdtemp(prefix="localize-", dir=args.cache)
            shutil.rmtree(dest)
            checkout(git_dir, "HEAD", dest)
            try:
                reports = {b: pack(path, dest, args.budget) for b, path in bins.items()}
                top = most_imported(texts(dest, next(iter(reports.values()))))
                central = {
                    b: sum((r.get(p) or {}).get("tier") in ("RAW", "SKELETON") for p in top)
                    for b, r in reports.items()
                }
            finally:
                remove(git_dir, dest)
        for ranker in list(bins) + ["BM25", "repomix order"]:
            rows.append((name, len(picked), total, ranker, raw[ranker], outlined[ranker], seen[ranker],
                         share(central[ranker], len(top)) if ranker in central else "n/a"))
    totals = collections.defaultdict(lambda: [0, 0, 0, 0, 0])
    for name, commits_, files, ranker, raw_hits, outlined_hits, seen_hits, _ in rows:
        t = totals[ranker]
        for i, value in enumerate((commits_, files, raw_hits, outlined_hits, seen_hits)):
            t[i] += value
    rows += [("all", *t[:2], ranker, *t[2:], "") for ranker, t in totals.items()]
    print("| repository | commits | changed files | ranking | RAW (in full) | RAW or SKELETON | appears (any tier) | top-20 imported RAW or SKELETON, no query |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- |")
    rows = [(n, c, f, r, share(a, f), share(o, f), share(s, f), t) for n, c, f, r, a, o, s, t in rows]
    for row in rows:
        print("| " + " | ".join(str(c) for c in row) + " |")
    print()
    print("| language | ranking | changed files | RAW | RAW or SKELETON | changed hunks shown | of SKELETON files' hunks, shown |")
    print("| --- | --- | --: | --: | --: | --: | --: |")
    for (language, b), (n, r, o, k, h, hs, kh, khs) in sorted(by_language.items()):
        print(f"| {language} | {b} | {n} | {share(r, n)} | {share(o, n)} | {share(hs, h)} of {h} | {share(khs, kh)} of {kh} |")


if __name__ == "__main__":
    sys.exit(main())
