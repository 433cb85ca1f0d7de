"""How often a question that names one of a conversation's two speakers is answered by that
speaker's turns, in LoCoMo-layout files.

Usage: python3 speaker_share.py FILE [FILE ...]

For each file: the questions with usable evidence that name exactly one speaker (the first word of
`speaker_a` or `speaker_b` as a whole word), the share of their gold turns said by the named
speaker, and the share of all turns that speaker said (docs/benchmarks.md, "Who the question
names").
"""
import json, re, sys

for path in sys.argv[1:]:
    asked = by = gold = named_turns = all_turns = 0
    for conv in json.load(open(path)):
        c = conv['conversation']
        a, b = c['speaker_a'], c['speaker_b']
        said = {t['dia_id']: t['speaker'] for k, v in c.items()
                if k.startswith('session_') and isinstance(v, list) for t in v}
        for q in conv['qa']:
            ev = [e for e in q.get('evidence', []) if e in said]
            if not ev:
                continue
            na = re.search(r'\b' + re.escape(a.split()[0]) + r'\b', q['question']) is not None
            nb = re.search(r'\b' + re.escape(b.split()[0]) + r'\b', q['question']) is not None
            if na == nb:
                continue
            name = a if na else b
            asked += 1
            gold += len(ev)
            by += sum(said[e] == name for e in ev)
            named_turns += sum(s == name for s in said.values())
            all_turns += len(said)
    print('%s: %d questions name one speaker; %.3f of their gold turns are that speaker\'s, '
          'against %.3f of all turns' % (path.split('/')[-1], asked, by / gold, named_turns / all_turns))
