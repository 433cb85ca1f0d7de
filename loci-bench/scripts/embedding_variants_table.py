#!/usr/bin/env python3
"""The tables of docs/benchmarks.md, "bge-small-q and bge-small-qd against the full model on every
conversation": one Markdown row per system of `loci bench locomo --out` runs of bge-small,
bge-small-q and bge-small-qd, turn and session recall_all, each variant judged within 0.01 of the
full model, and the leave-one-conversation-out "best hybrid or graph" row.

Usage: python3 embedding_variants_table.py PREFIX [all|held_out|tuning]
  reads PREFIX-bge-small.json, PREFIX-bge-small-q.json and PREFIX-bge-small-qd.json
"""
import json, sys
pre, split = sys.argv[1], (sys.argv[2] if len(sys.argv) > 2 else 'all')
names = ['bge-small', 'bge-small-q', 'bge-small-qd']
runs = {n: json.load(open(f'{pre}-{n}.json')) for n in names}
full = runs['bge-small']
def s(run, level, system, cat, metric):
    return run['summary'][split][level][system][cat][metric]
cols = [('turn', 'overall', 'recall_all@5', 'turn all@5'), ('turn', 'overall', 'recall_all@10', 'turn all@10'),
        ('turn', 'multi-hop', 'recall_all@10', 'multi-hop all@10'),
        ('session', 'overall', 'recall_all@5', 'session all@5'), ('session', 'overall', 'recall_all@10', 'session all@10')]
def trio(vals):
    return ' / '.join(f'{v:.3f}' for v in vals)
def verdict(vals):
    f = vals[0]
    return ', '.join(('holds' if v - f >= -0.01 else f'**{v - f:+.3f}**') if v != f else 'same' for v in vals[1:])
print('| mode | ' + ' | '.join(c[3] + ' (full / q / qd)' for c in cols) + ' | turn all@5 within 0.01: q, qd | session all@5 within 0.01: q, qd |')
print('| --- |' + ' --- |' * (len(cols) + 2))
for sy in full['systems']:
    row = [trio([s(runs[n], c[0], sy, c[1], c[2]) for n in names]) for c in cols]
    t = [s(runs[n], 'turn', sy, 'overall', 'recall_all@5') for n in names]
    se = [s(runs[n], 'session', sy, 'overall', 'recall_all@5') for n in names]
    print(f'| {sy} | ' + ' | '.join(row) + f' | {verdict(t)} | {verdict(se)} |')
cv = {n: runs[n].get('cross_validation') for n in names}
if split == 'all' and cv['bge-small']:
    fam = 'best hybrid or graph'
    ms = cv['bge-small']['metrics']
    idx = [ms.index('turn recall_all@5'), None, ms.index('multi-hop recall_all@10'), ms.index('session recall_all@5'), ms.index('session recall_all@10')]
    row = []
    for i in idx:
        row.append('' if i is None else trio([cv[n][fam]['pooled'][i] for n in names]))
    t = [cv[n][fam]['pooled'][idx[0]] for n in names]
    se = [cv[n][fam]['pooled'][idx[3]] for n in names]
    print(f'| LOCO {fam}, pooled | ' + ' | '.join(row) + f' | {verdict(t)} | {verdict(se)} |')
    for n in names:
        folds = cv[n][fam]['folds']
        print(f'\n<!-- {n}: ' + ', '.join(f"{f['conversation']}: {f['mean'][0]:.3f} {f['chosen']}" for f in folds) + ' -->', file=sys.stderr)
