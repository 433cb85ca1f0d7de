#!/usr/bin/env python3
"""Assemble loci-dev-chat.json from the hand-written chat sources (*.txt) in this folder.

Pure format conversion: every turn, date and question is written by hand in the .txt files.
Line forms: 'ID sample', 'A name', 'B name', 'S session date', 'X: text [@tag ...]' where X is the
first letter of a speaker, 'X: text || photo caption' for a shared photo, and
'Q category | question | answer | tag tag ...' (tags name the evidence turns).
"""
import json, re, sys, glob, os, collections

TAG = re.compile(r"\s@([A-Za-z0-9_]+)")

def parse(path):
    conv, qa, tags = {}, [], {}
    names, sid, n, turns = {}, None, 0, None
    for ln, line in enumerate(open(path, encoding="utf-8"), 1):
        line = line.rstrip("\n")
        if not line.strip() or line.startswith("#"):
            continue
        if line.startswith("ID "):
            sid = line[3:].strip()
        elif line[:2] in ("A ", "B "):
            names[line[2:].strip()[0]] = line[2:].strip()
            conv["speaker_a" if line[0] == "A" else "speaker_b"] = line[2:].strip()
        elif line.startswith("S "):
            n += 1
            conv[f"session_{n}_date_time"] = line[2:].strip()
            turns = conv[f"session_{n}"] = []
        elif line.startswith("Q "):
            cat, q, a, ev = [p.strip() for p in line[2:].split("|")]
            qa.append((ln, q, a, ev.split(), int(cat)))
        elif len(line) > 2 and line[1] == ":" and line[0] in names:
            text = line[2:].strip()
            found = TAG.findall(text)
            text = TAG.sub("", text).strip()
            turn = {"speaker": names[line[0]], "dia_id": f"D{n}:{len(turns) + 1}"}
            if " || " in text:
                text, cap = text.split(" || ", 1)
                turn["img_url"] = [f"https://example.invalid/{sid}/{n}-{len(turns) + 1}.jpg"]
                turn["blip_caption"] = cap.strip()
            turn["text"] = text.strip()
            for t in found:
                if t in tags:
                    sys.exit(f"{path}:{ln}: duplicate tag {t}")
                tags[t] = turn["dia_id"]
            turns.append(turn)
        else:
            sys.exit(f"{path}:{ln}: cannot read: {line}")
    out = []
    for ln, q, a, ev, cat in qa:
        for t in ev:
            if t not in tags:
                sys.exit(f"{path}:{ln}: unknown tag {t}")
        out.append({"question": q, "answer": a, "evidence": [tags[t] for t in ev], "category": cat})
    return {"sample_id": sid, "conversation": conv, "qa": out}

here = os.path.dirname(os.path.abspath(__file__))
data = [parse(p) for p in sorted(glob.glob(os.path.join(here, "*.txt")))]
OUT = os.path.join(here, "..", "..", "src", "main", "resources", "devset", "loci-dev-chat.json")
json.dump(data, open(OUT, "w", encoding="utf-8"),
          ensure_ascii=False, indent=1)
json.load(open(OUT, encoding="utf-8"))
tot = collections.Counter()
for c in data:
    conv = c["conversation"]
    ss = [k for k in conv if re.fullmatch(r"session_\d+", k)]
    lens = [len(conv[k]) for k in ss]
    words = sorted(len(t["text"].split()) for k in ss for t in conv[k])
    cats = collections.Counter(q["category"] for q in c["qa"])
    ids = {t["dia_id"] for k in ss for t in conv[k]}
    for q in c["qa"]:
        assert all(e in ids for e in q["evidence"])
    for k in ss:
        for i, t in enumerate(conv[k], 1):
            assert t["dia_id"] == f"D{k.split('_')[1]}:{i}"
    tot.update(cats); tot["turns"] += sum(lens); tot["sessions"] += len(ss)
    print(c["sample_id"], "sessions", len(ss), "turns", sum(lens), "min/max", min(lens), max(lens),
          "median words", words[len(words) // 2], "qa", len(c["qa"]), dict(sorted(cats.items())))
print(dict(tot), "questions", sum(v for k, v in tot.items() if isinstance(k, int)))
