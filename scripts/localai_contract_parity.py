#!/usr/bin/env python3
"""Compare our budget-contract check with LocalAI-RAG's reference implementation.

Runs, per model config and policy, the reference `enforce_budget_contract`
(LocalAI-RAG, MIT) and our checker over the same pipelines, prompts and
counter (seed ratio for prose, ceil(chars / 4), on all text; format overhead
64), and compares per pipeline: verdict, clamps and max_context_tokens_after
(within --tolerance tokens). Neither the reference code nor the pipelines are
part of this repository: pass their locations.

    scripts/localai_contract_parity.py --reference REF_DIR --project PROJECT_DIR

REF_DIR holds `code_query_engine/pipeline/{budget_contract,loader,definitions}.py`
with one fix applied: `_token_count` must call the counter's `count_tokens`
(as published it looks up `token_count`, so every prompt counts 0 tokens).
PROJECT_DIR holds `pipelines/` (with `base/`), `prompts/` and one or more
`config*.json` model configs. Our side runs
`cargo run --example check --features contract -- --json`, or
`BIN check --counter ratios:prose --format-overhead 64 --format json --policy P`
with --budget-bin. Exit status 1 on any mismatch.
"""

import argparse
import glob
import json
import os
import subprocess
import sys

import yaml


class SeedProse:
    """The seed estimator's prose ratio on every text: ceil(chars / 4)."""

    def count_tokens(self, text):
        return -(-len(text) // 4)


def pipeline_files(root):
    files = []
    for dirpath, _dirs, names in os.walk(root):
        files += [os.path.join(dirpath, n) for n in names if n.endswith((".yaml", ".yml"))]
    return sorted(files)


def names_in(path):
    """Names of the pipelines a file holds; None selects a single pipeline."""
    with open(path, encoding="utf-8") as f:
        doc = yaml.safe_load(f) or {}
    if isinstance(doc.get("YAMLpipeline"), dict):
        return [(None, str(doc["YAMLpipeline"].get("name") or path).strip())]
    items = doc.get("YAMLpipelines") or doc.get("pipelines") or []
    return [(str(p.get("name")).strip(), str(p.get("name")).strip()) for p in items if isinstance(p, dict)]


def reference_run(ref_dir, project, config, policy):
    sys.path.insert(0, ref_dir)
    from code_query_engine.pipeline.budget_contract import enforce_budget_contract
    from code_query_engine.pipeline.loader import PipelineLoader

    with open(config, encoding="utf-8") as f:
        model = json.load(f)
    cwd = os.getcwd()
    os.chdir(project)  # the reference resolves prompts_dir against the working directory
    try:
        loader = PipelineLoader(pipelines_root="pipelines")
        out = {}
        for path in pipeline_files("pipelines"):
            for selector, name in names_in(path):
                try:
                    pipeline = loader.load_from_path(path, pipeline_name=selector)
                    name = pipeline.name
                    result = enforce_budget_contract(
                        pipeline=pipeline,
                        effective_settings=dict(pipeline.settings or {}),
                        model_context_window=model["model_context_window"],
                        model_default_max_tokens=model["model_max_tokens"],
                        token_counter=SeedProse(),
                        policy=policy,
                    )
                    out[name] = {
                        "ok": True,
                        "after": result.max_context_tokens_after,
                        "clamps": [(c.kind, c.step_id, c.before, c.after) for c in result.clamps],
                    }
                except Exception as error:  # the reference reports every problem as an exception
                    out[name] = {"ok": False, "after": None, "clamps": [], "error": str(error)}
        return out
    finally:
        os.chdir(cwd)


def our_run(repo, project, config, policy, budget_bin):
    pipelines = os.path.join(project, "pipelines")
    prompts = os.path.join(project, "prompts")
    if budget_bin:
        cmd = [budget_bin, "check", pipelines, "--model-config", config, "--prompts", prompts,
               "--counter", "ratios:prose", "--format-overhead", "64", "--format", "json",
               "--policy", policy]
        env = dict(os.environ)
    else:
        cmd = ["cargo", "run", "-q", "--example", "check", "--features", "contract", "--",
               "--json", config, prompts, pipelines]
        env = dict(os.environ, PIPELINE_LIMITS_POLICY=policy)
    done = subprocess.run(cmd, cwd=repo, env=env, capture_output=True, text=True)
    if done.returncode not in (0, 1):
        sys.exit(f"our check failed ({done.returncode}): {done.stderr}")
    out = {}
    for report in json.loads(done.stdout):
        out[report["name"]] = {
            "ok": report["ok"],
            "after": report["max_context_tokens_after"],
            "clamps": [(c["kind"], c["step"], c["before"], c["after"]) for c in report["clamps"]],
            "error": report.get("error"),
        }
    return out


def same(ref, ours, tolerance):
    if ref["ok"] != ours["ok"]:
        return False
    if ref["ok"] and abs(ref["after"] - ours["after"]) > tolerance:
        return False
    if len(ref["clamps"]) != len(ours["clamps"]):
        return False
    for (rk, rs, rb, ra), (ok, os_, ob, oa) in zip(ref["clamps"], ours["clamps"]):
        if rk != ok or rs != os_ or rb != ob or abs(ra - oa) > tolerance:
            return False
    return True


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--reference", required=True)
    parser.add_argument("--project", required=True)
    parser.add_argument("--configs", nargs="*")
    parser.add_argument("--tolerance", type=int, default=3)
    parser.add_argument("--budget-bin")
    args = parser.parse_args()
    repo = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    project = os.path.abspath(args.project)
    configs = args.configs or sorted(glob.glob(os.path.join(project, "config*.json")))
    print("| window | policy | pipeline | reference | ours | context after (ref / ours) | clamps (ref / ours) | match |")
    print("|---|---|---|---|---|---|---|---|")
    mismatches = 0
    for config in configs:
        config = os.path.abspath(config)
        with open(config, encoding="utf-8") as f:
            window = json.load(f)["model_context_window"]
        for policy in ("fail_fast", "auto_clamp"):
            ref = reference_run(os.path.abspath(args.reference), project, config, policy)
            ours = our_run(repo, project, config, policy, args.budget_bin)
            for name in sorted(set(ref) | set(ours)):
                r, o = ref.get(name), ours.get(name)
                ok = r is not None and o is not None and same(r, o, args.tolerance)
                mismatches += not ok
                verdict = lambda x: "-" if x is None else ("ok" if x["ok"] else "error")
                after = lambda x: "-" if x is None or x["after"] is None else str(x["after"])
                clamps = lambda x: "-" if x is None else ", ".join(f"{k} {b}->{a}" for k, _s, b, a in x["clamps"]) or "none"
                print(f"| {window} | {policy} | {name} | {verdict(r)} | {verdict(o)} | {after(r)} / {after(o)} "
                      f"| {clamps(r)} / {clamps(o)} | {'yes' if ok else 'NO'} |")
    print(f"\n{mismatches} mismatch(es)")
    sys.exit(1 if mismatches else 0)


if __name__ == "__main__":
    main()
