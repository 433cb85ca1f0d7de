"""BM25's b (length normalization) and k1 tried offline on the raw turns of LoCoMo-layout files.

Usage: python3 bm25_length_offline.py FILE [FILE ...] [--b 0.75,0.5,0.3,0.1] [--k1 1.2]

A plain BM25 in Python over each conversation's turns (`speaker: text`, lower case, letters and
digits, a small stop list, a crude plural cut; not Lucene's analyzer), every question with usable
evidence asked of its own conversation; prints turn recall_all@5 per setting. A quick check of
whether a BM25 parameter matters for a kind of text before it is built into Loci and measured with
`loci bench locomo` (docs/benchmarks.md, "Length normalization").
"""
import json, math, re, sys
from collections import Counter

STOP = set(("a an the and or but if of to in on at for with by from is are was were be been am i "
            "you he she it we they me my your his her our their this that these those what when "
            "where who whom which why how did do does done have has had not no so as about into "
            "than then there here just very can could would should will shall may might must also "
            "too up down out over again ever").split())


def toks(s):
    return [w[:-1] if w.endswith('s') and len(w) > 3 else w
            for w in re.findall(r"[a-z0-9]+", s.lower()) if w not in STOP]


def recall_all_at_5(path, settings):
    hits = {s: 0 for s in settings}
    asked = 0
    for conv in json.load(open(path)):
        c = conv['conversation']
        docs = {t['dia_id']: toks(t['speaker'] + ': ' + t['text'])
                for k, v in c.items() if k.startswith('session_') and isinstance(v, list) for t in v}
        n = len(docs)
        avg = sum(len(x) for x in docs.values()) / n
        df = Counter()
        for x in docs.values():
            df.update(set(x))
        tf = {i: Counter(x) for i, x in docs.items()}
        for q in conv['qa']:
            ev = [e for e in q.get('evidence', []) if e in docs]
            if not ev:
                continue
            asked += 1
            qt = toks(q['question'])
            for (k1, b) in settings:
                scores = {}
                for i, t in tf.items():
                    s, length = 0.0, len(docs[i])
                    for w in qt:
                        if w in t:
                            idf = math.log(1 + (n - df[w] + 0.5) / (df[w] + 0.5))
                            s += idf * t[w] * (k1 + 1) / (t[w] + k1 * (1 - b + b * length / avg))
                    if s > 0:
                        scores[i] = s
                top = [i for i, _ in sorted(scores.items(), key=lambda x: -x[1])[:5]]
                hits[(k1, b)] += set(ev) <= set(top)
    return {s: hits[s] / asked for s in settings}


def floats(flag, default):
    args = sys.argv[1:]
    return [float(x) for x in (args[args.index(flag) + 1] if flag in args else default).split(',')]


if __name__ == '__main__':
    files = [a for i, a in enumerate(sys.argv[1:]) if not a.startswith('--')
             and (i == 0 or not sys.argv[i].startswith('--'))]
    settings = [(k1, b) for k1 in floats('--k1', '1.2') for b in floats('--b', '0.75,0.5,0.3,0.1')]
    for f in files:
        r = recall_all_at_5(f, settings)
        print(f.split('/')[-1], ' '.join('k1=%g b=%g %.3f' % (k1, b, r[(k1, b)]) for k1, b in settings))
