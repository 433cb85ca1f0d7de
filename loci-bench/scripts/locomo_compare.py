"""Two `loci bench locomo --out FILE` runs over the same questions, question by question.

Usage: python3 locomo_compare.py BEFORE.json AFTER.json

Per system of AFTER: turn recall_all@5 before -> after with the questions won and lost, the same on
questions that name a month or a year, and multi-hop recall_all@10. See docs/benchmarks.md, "The
session date in one form, whatever the file's format".
"""
import json, re, sys

a = json.load(open(sys.argv[1])); b = json.load(open(sys.argv[2]))
qa = {q['id']: q for q in a['questions']}; qb = {q['id']: q for q in b['questions']}
dated = re.compile(r'\b(19|20)\d\d\b|\b(january|february|march|april|may|june|july|august|september|october|november|december)\b', re.I)
for s in b['systems']:
    if s not in a['systems']: continue
    w = l = 0; sa = sb = 0.0; n = 0; da = db = 0.0; dn = 0; ma = mb = 0.0; mn = 0
    for i, q in qb.items():
        x = qa[i]['results'][s]['turn']['recall_all@5']; y = q['results'][s]['turn']['recall_all@5']
        sa += x; sb += y; n += 1
        w += y > x; l += y < x
        if dated.search(q['question']): da += x; db += y; dn += 1
        if q['category'] == 1:
            ma += qa[i]['results'][s]['turn']['recall_all@10']; mb += q['results'][s]['turn']['recall_all@10']; mn += 1
    print(f"{s:22s} all@5 {sa/n:.3f} -> {sb/n:.3f}  won {w} lost {l}  | questions naming a month/year ({dn}): {da/max(dn,1):.3f} -> {db/max(dn,1):.3f} | multi-hop all@10 ({mn}) {ma/max(mn,1):.3f} -> {mb/max(mn,1):.3f}")
