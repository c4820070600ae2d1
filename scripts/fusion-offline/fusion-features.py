#!/usr/bin/env python3
"""Offline check of per-query fusion rules on `bench beir --dump-branches` lists (docs/retrieval.md, "The model's
scripts and query-term coverage"). Re-implements the shipped adaptive fusion (AdaptiveWeights: cosine spread,
lexical bonus 0.1 in cosine units, agreement gate full_ratio 0.5 / power 8, TF-IDF bonus 0) and scores variants:

  script    the semantic branch gets weight 0 when half or more of the query's letters are not Latin (what
            fusion.adaptive.model_scripts does with the built-in models); `bench replay --embedding-model` gives
            the same figures with the hub's own fusion
  coverage  BM25's weight is multiplied by LO unless the share of the query's analysed terms in BM25's top
            document (cov1) or top 5 (cov5) is at least T; TSVs from QueryTermCoverage.java
  spread    the lexical bonus in spread units (bonus_unit: spread)

and a leave-one-set-out choice over the coverage family (bonus x feature x T x LO), both models together.

  scripts/fusion-offline/fusion-features.py --dumps minilm=/tmp/hf/dumps-all-minilm-l6-v2-q \\
      --dumps e5=/tmp/hf/dumps-e5-small-v2-q --coverage /tmp/cov
  (coverage files: <dir>/<model>-<set>.tsv; sets without one are scored without the coverage variants)
"""
import argparse
import glob
import json
import math
import os

BRANCHES = ['semantic', 'lexical', 'tfidf']
THRESHOLD = {'semantic': 0.0, 'lexical': 0.02, 'tfidf': 0.02}
P, DEPTH = 0.98, 100


def rbo(a, b):
    seen_a, seen_b, shared, total, w = set(), set(), 0, 0.0, 1.0
    for k in range(1, DEPTH + 1):
        x = a[k - 1] if k <= len(a) else None
        y = b[k - 1] if k <= len(b) else None
        if x is not None and x == y:
            shared += 1
        else:
            shared += (x is not None and x in seen_b) + (y is not None and y in seen_a)
        if x is not None:
            seen_a.add(x)
        if y is not None:
            seen_b.add(y)
        total += w * shared / k
        w *= P
    return (1 - P) * total / (1 - P ** DEPTH)


def ndcg(docs, qrels, k=10):
    dcg = sum(max(0, qrels.get(d, 0)) / math.log2(i + 2) for i, d in enumerate(docs[:k]))
    ideal = sorted([g for g in qrels.values() if g > 0], reverse=True)[:k]
    idcg = sum(g / math.log2(i + 2) for i, g in enumerate(ideal))
    return dcg / idcg if idcg else 0.0


def unique(seq):
    return list(dict.fromkeys(seq))


class Query:
    def __init__(self, qid, text, branches, qrels, doc_by_chunk):
        self.id, self.text, self.qrels = qid, text, qrels
        self.lists = {}
        for b, hits in branches.items():
            if isinstance(hits, dict):
                continue  # a failed branch
            firsts = {}
            for c, s in hits:
                firsts.setdefault(c, s)
            if firsts:
                self.lists[b] = list(firsts.items())
        self.ids = {b: [c for c, _ in hh] for b, hh in self.lists.items()}
        self.norm = {}
        for b, hh in self.lists.items():
            scores = [s for _, s in hh]
            lo, hi = min(scores), max(scores)
            for c, s in hh:
                n = (s - lo) / (hi - lo) if hi > lo else 1.0
                if n >= THRESHOLD[b]:
                    self.norm.setdefault(c, {})[b] = n
        self.doc = lambda c: doc_by_chunk.get(c, c)
        self.branch_ndcg = {b: ndcg(unique(self.doc(c) for c in self.ids[b]), qrels) for b in self.lists}
        sem = self.lists.get('semantic')
        self.spread = (max(s for _, s in sem) - min(s for _, s in sem)) if sem else 0.0
        self.gates = self._gates()
        letters = [ch for ch in text if ch.isalpha()]
        self.latin = sum(1 for ch in letters if ord(ch) < 0x250) / len(letters) if letters else 1.0
        self.cov = None

    def _gates(self, full=0.5, power=8):
        keys = list(self.ids)
        gates = {}
        for b in keys:
            overlap = max([rbo(self.ids[b], self.ids[a]) for a in keys if a != b] or [0])
            others = max([rbo(self.ids[a], self.ids[c]) for a in keys for c in keys
                          if a != b and c != b and a < c] or [0])
            gates[b] = 1.0 if others <= 0 else min(1.0, overlap / others / full) ** power
        return gates

    def fused_ndcg(self, weights):
        scored = sorted(((-sum(weights.get(b, 0) * n for b, n in parts.items()), c)
                         for c, parts in self.norm.items()))
        return ndcg(unique(self.doc(c) for _, c in scored)[:10], self.qrels)


def weights(q, lexical_bonus=0.1, unit='cosine', script=False, feature=None, t=1.0, lo=0.0):
    if 'semantic' not in q.lists:
        return {'semantic': 0.6, 'lexical': 0.4, 'tfidf': 0.2}
    scale = {'semantic': q.spread, 'tfidf': 0.0,
             'lexical': lexical_bonus * (q.spread if unit == 'spread' else 1.0)}
    unread = script and q.latin < 0.5 and len(q.lists) > 1
    if feature and q.cov and q.cov[feature] < t and not unread:  # coverage only weighs BM25 against the dense list
        scale['lexical'] *= lo
    return gated(list(q.lists), q.gates, scale, [b for b in q.lists if not (unread and b == 'semantic')])


def gated(branches, gates, scale, counted):
    """AdaptiveWeights' rule: scale times gate over the counted branches (0 for the others); the gates left out when
    every gated weight is 0, equal shares when every scale is 0; divided by the sum."""
    any_gate = any(scale[b] * gates[b] > 0 for b in counted)
    any_scale = any(scale[b] > 0 for b in counted)
    raw = {b: (scale[b] * gates[b] if any_gate else scale[b] if any_scale else 1.0) if b in counted else 0.0
           for b in branches}
    total = sum(raw.values())
    return {b: w / total for b, w in raw.items()}


def load(path, coverage_file):
    root = json.load(open(path))
    out = []
    for qid, q in root['queries'].items():
        if root['qrels'].get(qid):
            out.append(Query(qid, q['text'], q['branches'], root['qrels'][qid], root['doc_by_chunk']))
    if coverage_file and os.path.exists(coverage_file):
        rows = {}
        for line in open(coverage_file):
            f = line.rstrip('\n').split('\t')
            rows[f[0]] = dict(zip(['terms', 'cov1', 'cov5', 'sem_cov1', 'sem_cov5'], map(float, f[1:])))
        for q in out:
            q.cov = rows[q.id]
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--dumps', action='append', required=True, help='model=directory of <set>.json dumps')
    ap.add_argument('--coverage', help='directory of <model>-<set>.tsv from QueryTermCoverage.java')
    a = ap.parse_args()
    data = {}
    for spec in a.dumps:
        model, folder = spec.split('=', 1)
        for p in sorted(glob.glob(os.path.join(folder, '*.json'))):
            s = os.path.basename(p)[:-5]
            data[(model, s)] = load(p, a.coverage and os.path.join(a.coverage, f'{model}-{s}.tsv'))
    keys = list(data)
    best = {k: max(sum(q.branch_ndcg.get(b, 0) for q in data[k]) / len(data[k]) for b in BRANCHES) for k in keys}

    def margins(**kw):
        return {k: sum(q.fused_ndcg(weights(q, **kw)) for q in data[k]) / len(data[k]) - best[k] for k in keys}

    def show(name, m):
        print(f'{name:48s}', ' '.join(f'{m[k]:+9.4f}' for k in keys))

    print('margin over the best branch, nDCG@10')
    print(' ' * 48, ' '.join(f'{k[0][:3] + "/" + k[1][:5]:>9s}' for k in keys))
    show('shipped adaptive', margins())
    show('script rule', margins(script=True))
    show('bonus in spread units', margins(unit='spread'))
    show('script rule + spread units', margins(script=True, unit='spread'))
    # leave-one-set-out over the bonus and its unit, with the script rule, both models together
    family = [dict(script=True, unit=u, lexical_bonus=b) for u in ['cosine', 'spread']
              for b in [0.03, 0.05, 0.1, 0.15, 0.2, 0.25, 0.3]]
    loso('leave-one-set-out, script rule + bonus and unit (fitted: unit, bonus):', family,
         [margins(**c) for c in family], keys)
    covered = [k for k in keys if data[k][0].cov]
    if not covered:
        return
    for f in ['cov1', 'cov5']:
        for t in [0.75, 1.0]:
            show(f'coverage {f} >= {t} else BM25 0', margins(feature=f, t=t))
            show(f'script rule + coverage {f} >= {t} else BM25 0', margins(script=True, feature=f, t=t))
    print('queries whose BM25 top document holds every query term:',
          ', '.join(f'{k[0]}/{k[1]} {sum(q.cov["cov1"] >= 1 for q in data[k]) / len(data[k]):.2f}' for k in covered))
    # leave-one-set-out over the coverage family, with the script rule, both models together
    family = [dict(script=True, lexical_bonus=b, feature=f, t=t, lo=lo) for b in [0.03, 0.05, 0.07, 0.1, 0.15, 0.2]
              for f in ['cov1', 'cov5'] for t in [0.5, 0.75, 1.0] for lo in [0.0, 0.25, 0.5]]
    family.append(dict(script=True))
    loso('leave-one-set-out, script rule + coverage family (fitted: bonus, feature, T, LO):', family,
         [margins(**c) for c in family], covered)


def loso(title, family, scores, keys):
    """Each set scored with the configuration whose worst margin (then mean) over the other sets is best."""
    print(title)
    for s in sorted({k[1] for k in keys}):
        train = [k for k in keys if k[1] != s]
        test = [k for k in keys if k[1] == s]
        i = max(range(len(family)), key=lambda j: (round(min(scores[j][k] for k in train), 6),
                                                    sum(scores[j][k] for k in train)))
        print(f'  held out {s:17s} chosen {family[i]}: ' + ', '.join(f'{k[0]} {scores[i][k]:+.4f}' for k in test))


if __name__ == '__main__':
    main()
