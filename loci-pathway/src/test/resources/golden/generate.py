#!/usr/bin/env python3
"""Golden vectors for Pathway Memory Specification v1, sections 3 and 4.

Implements the spec's algorithms literally, independently of the Java code, with the standard
library only, and writes vectors.json next to this file. Run from anywhere:

    python3 loci-pathway/src/test/resources/golden/generate.py

Each case holds a wire-format trace ("trace", without pathway_id and pathway_vec) and what the
spec says follows from it ("expected": file_prefix, pathway_id, the token list, pathway_vec).
"""
import hashlib
import json
import math
import os


def file_prefix(path):
    # Section 3.2: forward slash is the separator; Windows separators are normalized first;
    # first two segments joined by '/'; fewer than two segments: the full path verbatim.
    path = path.replace("\\", "/")
    segments = path.split("/")
    if len(segments) < 2:
        return path
    return "/".join(segments[:2])


def pathway_id(task_class, file_path, signal_class):
    # Section 3.1: sha256_hex(task_class || "|" || file_prefix || "|" || signal_class_or_empty)
    signal_class_or_empty = "" if signal_class is None else signal_class
    key = task_class + "|" + file_prefix(file_path) + "|" + signal_class_or_empty
    return hashlib.sha256(key.encode("utf-8")).hexdigest()


def collect_metadata_tokens(trace):
    # Section 4, "Tokens MUST include", one token per list element so repeats count.
    signal_class = trace.get("signal_class")
    tokens = [
        "task_class:" + trace["task_class"],
        "file_prefix:" + file_prefix(trace["file_path"]),
        "signal_class:" + ("" if signal_class is None else signal_class),
    ]
    tokens += ["model:" + a["model"] for a in trace.get("ladder_attempts", [])]
    tokens += ["kb_doc:" + c["source_doc"] for c in trace.get("kb_chunks", [])]
    tokens += ["signal:" + s["class"] for s in trace.get("observer_signals", [])]
    tokens += ["flag:" + f["flag"] for f in trace.get("bug_fingerprints", [])]
    return tokens


def build_pathway_vec(trace):
    # Section 4 pseudocode, verbatim apart from naming hashlib.
    buckets = [0.0] * 32
    tokens = collect_metadata_tokens(trace)
    for tok in tokens:
        h = hashlib.sha256(tok.encode()).digest()
        bucket = int.from_bytes(h[:4], "big") % 32
        buckets[bucket] += 1.0
    norm = math.sqrt(sum(b * b for b in buckets))
    return [b / norm if norm > 0 else 0.0 for b in buckets]


def attempt(model, rung=0):
    return {"rung": rung, "model": model, "latency_ms": 100, "accepted": rung > 0}


def chunk(doc, rank=0):
    return {"source_doc": doc, "chunk_id": doc + "#" + str(rank), "cosine_score": 0.5, "rank": rank}


def signal(cls):
    return {"class": cls, "priors": 1, "prior_iter_outcomes": ["accepted"]}


def fingerprint(flag):
    return {"flag": flag, "pattern_key": "pk-" + flag, "example": "x", "occurrences": 1}


T0 = "2026-05-03T08:07:38Z"


def trace(name, task_class, file_path, signal_class="absent", **lists):
    t = {"task_class": task_class, "file_path": file_path, "created_at": T0}
    if signal_class != "absent":
        t["signal_class"] = signal_class
    t.update(lists)
    return name, t


CASES = [
    trace("ordinary_path", "scrum_review", "crates/queryd/src/service.rs", "CONVERGING"),
    trace("spec_example_two_segments", "scrum_review", "crates/gateway", "CONVERGING"),
    trace("spec_example_one_segment", "scrum_review", "README.md", "CONVERGING"),
    trace("empty_path_zero_segments", "pr_audit", "", "LOOPING"),
    trace("many_segments", "pr_audit", "a/b/c/d/e/f/g.txt", "STUCK_RETRY"),
    trace("windows_separators", "scrum_review", "crates\\queryd\\src\\service.rs", "CONVERGING"),
    trace("windows_mixed_separators", "scrum_review", "crates\\queryd/src\\service.rs", "CONVERGING"),
    trace("windows_one_separator", "scrum_review", "crates\\gateway", "CONVERGING"),
    trace("leading_slash_absolute", "scrum_review", "/home/dev/repo/x.rs", "CONVERGING"),
    trace("double_slash_empty_segment", "scrum_review", "a//b/c", "CONVERGING"),
    trace("trailing_slash", "scrum_review", "crates/", "CONVERGING"),
    trace("signal_class_null", "staffing.fill", "crates/queryd/src/service.rs", None),
    trace("signal_class_missing", "staffing.fill", "crates/queryd/src/service.rs"),
    trace("signal_class_empty", "staffing.fill", "crates/queryd/src/service.rs", ""),
    trace("signal_class_set", "staffing.fill", "crates/queryd/src/service.rs", "LOOPING"),
    trace(
        "repeated_models_docs_signals_flags",
        "scrum_review",
        "crates/vectord/src/pathway_memory.rs",
        "CONVERGING",
        ladder_attempts=[attempt("qwen", 0), attempt("qwen", 1), attempt("claude", 2)],
        kb_chunks=[chunk("adr-021.md", 0), chunk("adr-021.md", 1), chunk("spec.md", 2)],
        observer_signals=[signal("LOOPING"), signal("LOOPING"), signal("CONVERGING")],
        bug_fingerprints=[fingerprint("OffByOne"), fingerprint("OffByOne"), fingerprint("DeadCode")],
        semantic_flags=["OffByOne", "DeadCode"],
    ),
    trace(
        "same_token_many_times",
        "scrum_review",
        "crates/queryd/src/service.rs",
        "CONVERGING",
        ladder_attempts=[attempt("qwen", i) for i in range(7)],
    ),
    trace(
        "empty_lists",
        "scrum_review",
        "crates/queryd/src/service.rs",
        "CONVERGING",
        ladder_attempts=[],
        kb_chunks=[],
        observer_signals=[],
        bug_fingerprints=[],
    ),
    trace(
        "all_nine_flags",
        "pr_audit",
        "loci-core/src/main/java/dev/loci/Loci.java",
        "STUCK_RETRY",
        bug_fingerprints=[
            fingerprint(f)
            for f in [
                "UnitMismatch",
                "TypeConfusion",
                "NullableConfusion",
                "OffByOne",
                "StaleReference",
                "PseudoImpl",
                "DeadCode",
                "WarningNoise",
                "BoundaryViolation",
            ]
        ],
    ),
    trace(
        "unicode",
        "revue_résumé",
        "src/日本語/ファイル.rs",
        "収束",
        ladder_attempts=[attempt("modèle-é")],
        kb_chunks=[chunk("доклад.md")],
        observer_signals=[signal("🔁 LOOPING")],
    ),
    trace(
        "free_text_is_not_a_token",
        "scrum_review",
        "crates/queryd/src/service.rs",
        "CONVERGING",
        reducer_summary="candidate_id 42, jane@example.com, +1 555 0100",
        final_verdict="accepted",
        bridge_hits=[{"library": "tokio", "version": "1.40", "result_summary": "spawn docs"}],
        type_hints_used=[{"source": "schema", "symbol": "Row", "type_repr": "struct Row"}],
    ),
    trace("pipe_in_task_class", "a|b", "c/d", "e"),
]


def main():
    out = []
    for name, t in CASES:
        out.append(
            {
                "name": name,
                "trace": t,
                "expected": {
                    "file_prefix": file_prefix(t["file_path"]),
                    "pathway_id": pathway_id(t["task_class"], t["file_path"], t.get("signal_class")),
                    "tokens": collect_metadata_tokens(t),
                    "pathway_vec": build_pathway_vec(t),
                },
            }
        )
    doc = {
        "spec": "Pathway Memory Specification v1, sections 3 and 4",
        "generator": "generate.py (Python standard library, independent of the Java code)",
        "cases": out,
    }
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "vectors.json")
    with open(path, "w", encoding="utf-8") as f:
        json.dump(doc, f, ensure_ascii=False, indent=2)
        f.write("\n")


if __name__ == "__main__":
    main()
