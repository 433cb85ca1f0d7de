"""Session caps re-applied offline to the rankings of a `loci bench locomo --out FILE` run.

Usage: python3 session_cap_offline.py FILE [SYSTEM] [--all-splits]

Reads every question's ranking of SYSTEM (default ppr; 50 turns a question), leaves out the
held-out split unless --all-splits (use it for the second development set, whose LOCO covers all
of it), and prints turn recall_all@5, multi-hop recall_all@10 and "sessions of the first 5 turns"
with no cap and with a cap of 1, 2 or 3 turns per session before a turn of another session, applied
to every question ("all") or only to list questions ("list": a plural noun between the wh-word and
the first auxiliary, "how many", or "both"). See docs/benchmarks.md, "Session diversity for list
questions, tried offline".
"""
import json, re, sys
from collections import defaultdict

AUX = {'does','did','do','has','have','had','is','are','was','were','can','could','would','might','will','should','may'}
NOT_PLURAL = {'is','was','has','does','this','his','hers','its','bus','news','series','species','us','yes','whose','across','less','unless','always','perhaps','status','campus','class','business','access','process','success','stress','address','fitness','illness','happiness','progress','christmas','texas','paris','miss','boss','dress','glass','grass','kiss','loss','chess','guess','press','bass','mass','pass','cross','focus','virus','bonus','genius','bonus','thus','plus','gas','yoga','has'}

def tokens(q):
    return re.findall(r"[A-Za-z+']+", q)

def is_plural(w):
    wl = w.lower()
    if wl in NOT_PLURAL or len(wl) < 4: return False
    if wl.endswith('ss') or wl.endswith('us') or wl.endswith("'s"): return False
    return wl.endswith('s') or wl in ('children','people','men','women','feet','teeth','mice')

def list_question(q):
    t = tokens(q)
    tl = [w.lower() for w in t]
    if len(tl) >= 2 and tl[0] == 'how' and tl[1] == 'many': return True
    if 'both' in tl: return True
    # noun phrase after the wh-word, up to the first auxiliary
    for i, w in enumerate(tl):
        if w in ('what','which'):
            j = i + 1
            np = []
            while j < len(tl) and tl[j] not in AUX:
                np.append(t[j]); j += 1
            if j < len(tl) and np and any(is_plural(x) for x in np):
                return True
            if tl[i+1:i+3] in (['are','the'],['were','the'],['are','some'],['were','some']):
                return True
            break
    return False

def session(tid):
    return tid.split(':')[0]

def recall_all(ranked, gold, k):
    top = set(ranked[:k])
    return 1.0 if gold and all(g in top for g in gold) else 0.0

def cap(ranked, c):
    if c <= 0: return ranked
    out, seen, rest = [], defaultdict(int), []
    for t in ranked:
        s = session(t)
        if seen[s] < c:
            out.append(t); seen[s] += 1
        else:
            rest.append(t)
    return out + rest

def main(path, system, all_splits):
    d = json.load(open(path))
    rows = []
    for q in d['questions']:
        if q['split'] == 'held_out' and not all_splits: continue
        r = q['results'].get(system)
        if r is None: continue
        gold = q['evidence']
        rows.append((q, r['ranked'], gold))
    print(path, system, len(rows), 'questions')
    cats = defaultdict(list)
    for q, ranked, gold in rows:
        cats[q['category']].append((q, ranked, gold))
    lq = [x for x in rows if list_question(x[0]['question'])]
    multi = [x for x in rows if x[0]['category'] == 1]
    print('list questions', len(lq), 'of which multi-hop', sum(1 for x in lq if x[0]['category']==1), '; multi-hop total', len(multi))
    for c in (0, 1, 2, 3):
        for scope in ('all', 'list'):
            def rr(x):
                q, ranked, gold = x
                if scope == 'list' and not list_question(q['question']): return ranked
                return cap(ranked, c)
            a5 = sum(recall_all(rr(x), x[2], 5) for x in rows) / len(rows)
            m10 = sum(recall_all(rr(x), x[2], 10) for x in multi) / max(1, len(multi))
            s5 = sum(1.0 if all(any(session(t)==session(g) for t in rr(x)[:5]) for g in x[2]) else 0.0 for x in rows) / len(rows)
            print(f'cap {c} {scope:4s}: turn all@5 {a5:.3f}  multi-hop all@10 {m10:.3f}  sessions-of-top5 all {s5:.3f}')
            if c == 0: break

if __name__ == '__main__':
    args = [a for a in sys.argv[1:] if not a.startswith('--')]
    main(args[0], args[1] if len(args) > 1 else 'ppr', '--all-splits' in sys.argv)
