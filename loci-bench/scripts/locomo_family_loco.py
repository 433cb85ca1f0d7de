"""Leave-one-conversation-out of the family {hybrid, weighted_graph, ppr}, as `loci bench locomo`
computes it, with members taken from other runs over the same questions.

Usage: python3 locomo_family_loco.py BASE.json [MEMBER=OTHER.json:SYSTEM ...]

BASE gives `hybrid`, `weighted_graph` and `ppr` unless a MEMBER argument replaces one (for example
ppr=run-w0.1.json:ppr, the `ppr` of a run with another --term-weight). In each fold (conversation)
the member best on the other conversations' turn recall_all@5 (ties to the earlier member) is scored
on it; prints each member's mean, the pooled figure, its spread over folds, multi-hop recall_all@10
and the picks. See docs/benchmarks.md, "Per-mode term-edge weights".
"""
import json, sys, statistics

base = json.load(open(sys.argv[1]))
members = {'hybrid': (base, 'hybrid'), 'weighted_graph': (base, 'weighted_graph'), 'ppr': (base, 'ppr')}
for arg in sys.argv[2:]:
    name, src = arg.split('=')
    f, sysname = src.split(':')
    members[name] = (json.load(open(f)), sysname)
order = ['hybrid', 'weighted_graph', 'ppr']
def sc(m, qid, key, level='turn'):
    return idx[m][qid]['results'][members[m][1]][level][key]
idx = {m: {q['id']: q for q in members[m][0]['questions']} for m in order}
qs = base['questions']
convs = sorted({q['conversation'] for q in qs})
pooled = []; mh = []; folds = []; picks = {}
for c in convs:
    out = [q for q in qs if q['conversation'] != c]
    best = max(order, key=lambda m: (sum(sc(m, q['id'], 'recall_all@5') for q in out) / len(out), -order.index(m)))
    picks[best] = picks.get(best, 0) + 1
    ins = [q for q in qs if q['conversation'] == c]
    v = [sc(best, q['id'], 'recall_all@5') for q in ins]
    pooled += v; folds.append(sum(v) / len(v))
    mh += [sc(best, q['id'], 'recall_all@10') for q in ins if q['category'] == 1]
for m in order:
    print(m, members[m][1], f"{sum(sc(m,q['id'],'recall_all@5') for q in qs)/len(qs):.3f}")
print(f"family LOCO turn all@5 {sum(pooled)/len(pooled):.3f}  spread {statistics.mean(folds):.3f} ± {statistics.stdev(folds):.3f} [{min(folds):.3f}, {max(folds):.3f}]  multi-hop all@10 {sum(mh)/len(mh):.3f}  picks {picks}")
