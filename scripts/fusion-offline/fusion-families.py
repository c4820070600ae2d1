#!/usr/bin/env python3
"""Fusion families not tried before (docs/retrieval.md, "Scale-free fusions, and E5 on all five sets"), scored
offline on `bench beir --dump-branches` lists and fitted leave-one-set-out over both models' lists together.

Every family keeps what the hub ships around the fusion: per-branch thresholds on the min-max normalised score
(a hit under its branch's threshold adds nothing from that branch; a chunk no branch keeps is dropped), the
agreement gate (full_ratio 0.5, power 8) and the model's scripts (a query with half its letters or more outside
Latin gives the dense list weight 0). Ranked by document, ties by fused score then chunk id, as FusionReplay does.

  scripts/fusion-offline/fusion-families.py --dumps minilm=/tmp/hf/dumps-all-minilm-l6-v2-q \\
      --dumps e5=/tmp/hf/dumps-e5-small-v2-q [--family NAME ...] [--cache DIR] [--noise] [--safety] [--grid]
      [--no-gate] [--no-scripts]

--noise also scores each fold's choice on its held-out set with a random semantic list (a model that reads the
script but not the text); --safety the same with the model's scripts rule off (MiniLM's own lists on arcd and
jsquad-ja: a model that does not read the text, where only the gate guards the fusion); --grid prints every
configuration's margins (with --safety, its script-rule-off margins under them); --no-gate takes the agreement
gate out of every family, --no-scripts the scripts rule.

Families (score(d) = sum over branches b of weight_b * unit_b(d); weights normalised to sum 1):
  shipped     adaptive fusion as shipped: unit min-max, weight semantic spread / lexical bonus 0.1 (cosine units)
  spread      the same with bonus_unit: spread (tried before on three E5 sets; re-scored on five) [bonus]
  zsum        unit (s - s_last) / std of the list's top 100 (a per-query z-score, shifted so an absent hit is 0);
              weights gate_b * (lam for BM25, 1 for semantic, 0 for TF-IDF) [lam]; zmnz: times the number of
              branches that returned d
  ztail       unit (s - s_last) / std of the list's tail, ranks T..100 [lam, T]
  qpp         min-max unit, weight gate_b * c_b * qpp_b^g, qpp_b = (s_1 - mean_tail) / std_tail (ranks 11..100),
              c = lam for BM25, 1 semantic, 0 TF-IDF [lam, g]
  qpphead     as qpp with the same c for BM25 and semantic, qpp_b over the mean of the top `head` [head, g]
  rrf         gate_b * w_b / (k + rank_b), per-branch k: k_sem, k_lex (TF-IDF weight 0) [k_sem, k_lex]
  borda       gate_b * w_b * max(0, D - rank_b + 1), w = lam for BM25, 1 semantic, 0 TF-IDF [D, lam]
  floor       shipped weights, but the semantic weight is at least F when the dense list's qpp >= Q [Q, F]
  auto        shipped weights, bonus 0.1 with bonus_unit auto (cosine for MiniLM, spread for the others): what
              the hub ships since 2026-12-05
  spare       shipped weights (bonus 0.1, bonus_unit auto: cosine for MiniLM, spread for the others), but the
              agreement gate leaves the dense list's weight alone when that list is confident: its qpp >= Q [Q];
              spare-cosine, spare-spread: the same with that unit for both models; spare-margin: confidence is
              the top-1 margin (s_1 - s_2) / std_tail instead of the qpp [Q]; spare-bonus, spare-spread-bonus:
              the bonus (0.1 above) fitted too [bonus, Q]; for these each fold's line also counts the held-out
              set's questions the spare acts on (the gate cut the dense list and the list is confident)
  keep        as spare, but the dense list's gate is lifted when the list covers the query's terms: its
              IDF-weighted, discounted coverage of the top 10 is at least c times BM25's (QueryTermCoverage.java's
              last two columns, --coverage DIR with <model>-<set>.tsv) [c]

  protect     as auto, but when the gate leaves the dense list its weight, its first K hits stay first [K]
  topk        as auto, but BM25 adds only to chunks in the dense list's top K (where the gate left it its weight)
              [K, bonus]
  anchor      as auto, but BM25's unit is n_lex * (eps + (1 - eps) * n_sem^a) where the gate left the dense list
              its weight: BM25 reorders what the dense list finds plausible [a, eps, bonus]

  --coverage DIR is needed for keep; the TSVs come from QueryTermCoverage.java (docs/retrieval.md).
"""
import argparse
import glob
import importlib.util
import json
import math
import os
import random
import sys

import numpy as np


def _features():
    """fusion-features.py, beside this script: its reading of a dumped query (first
    occurrences, the shipped agreement gate, the share of Latin letters) and constants."""
    spec = importlib.util.spec_from_file_location('fusion_features',
                                                  os.path.join(os.path.dirname(__file__), 'fusion-features.py'))
    module = importlib.util.module_from_spec(spec)
    sys.dont_write_bytecode = True  # no __pycache__ beside the scripts
    spec.loader.exec_module(module)
    return module


_F = _features()
BRANCHES, THRESHOLD = _F.BRANCHES, _F.THRESHOLD


class Query:
    """One judged query's lists, as arrays over its candidates (sorted by chunk id, so a stable sort on the
    negated score breaks ties by id)."""

    def __init__(self, text, branches, qrels, doc_by_chunk):
        base = _F.Query('', text, branches, qrels, doc_by_chunk)  # first occurrences, the shipped gate, the script
        lists = base.lists
        self.branches = [b for b in BRANCHES if b in lists]
        self.cands = sorted({c for hh in lists.values() for c, _ in hh})
        index = {c: i for i, c in enumerate(self.cands)}
        n = len(self.cands)
        self.docs = [doc_by_chunk.get(c, c) for c in self.cands]
        self.gain = np.array([max(0, qrels.get(d, 0)) for d in self.docs], dtype=float)
        ideal = sorted([g for g in qrels.values() if g > 0], reverse=True)[:10]
        self.idcg = sum(g / math.log2(i + 2) for i, g in enumerate(ideal))
        self.raw, self.norm, self.rank, self.kept, self.present = {}, {}, {}, {}, {}
        self.stats = {}
        for b in self.branches:
            hh = lists[b]
            s = np.array([x for _, x in hh])
            raw = np.full(n, np.nan)
            rank = np.full(n, np.inf)
            for r, (c, x) in enumerate(hh):
                raw[index[c]] = x
                rank[index[c]] = r + 1
            lo, hi = s.min(), s.max()
            norm = np.where(np.isnan(raw), 0.0, (raw - lo) / (hi - lo) if hi > lo else 1.0)
            present = ~np.isnan(raw)
            kept = present & (norm >= THRESHOLD[b])
            self.raw[b], self.rank[b], self.present[b], self.kept[b] = raw, rank, present, kept
            self.norm[b] = np.where(kept, norm, 0.0)
            self.stats[b] = s  # scores best first
        self.any_kept = np.zeros(n, dtype=bool)
        for b in self.branches:
            self.any_kept |= self.kept[b]
        self.gates = base.gates
        self.unread = base.latin < 0.5 and len(self.branches) > 1
        self.branch_ndcg = {b: self.ndcg(np.where(self.present[b], -self.rank[b], -np.inf), mask=self.present[b])
                            for b in self.branches}
        self.spread = base.spread
        self._units = {}

    def ndcg(self, score, mask=None):
        keep = self.any_kept if mask is None else mask
        order = np.argsort(-np.where(keep, score, -np.inf), kind='stable')
        seen, dcg = set(), 0.0
        for i in order:
            if not keep[i]:
                break
            d = self.docs[i]
            if d in seen:
                continue
            seen.add(d)
            dcg += self.gain[i] / math.log2(len(seen) + 1)
            if len(seen) == 10:
                break
        return dcg / self.idcg if self.idcg else 0.0

    def counted(self):
        """Branches that may carry weight (the model's scripts)."""
        return [b for b in self.branches if not (self.unread and b == 'semantic')]

    def qpp(self, b, head=1, tail_from=11):
        s = self.stats[b]
        tail = s[tail_from - 1:] if len(s) > tail_from else s  # a short list: its own spread
        sd = tail.std()
        return float((s[:head].mean() - tail.mean()) / sd) if sd > 0 else 0.0

    def unit(self, b, kind, tail_from=11):
        key = (b, kind, tail_from)
        if key not in self._units:
            raw, s = self.raw[b], self.stats[b]
            if kind == 'z':
                sd = s.std()
                u = (raw - s.min()) / sd if sd > 0 else np.ones_like(raw)
            else:  # 'ztail': the same shift, in units of the tail's spread
                tail = s[tail_from - 1:] if len(s) > tail_from else s  # a short list: its own spread
                sd = tail.std()
                u = (raw - s.min()) / sd if sd > 0 else np.ones_like(raw)
            self._units[key] = np.where(self.kept[b], np.nan_to_num(u), 0.0)
        return self._units[key]


def gated(q, scale):
    return _F.gated(q.branches, q.gates, scale, q.counted())


def weighted_sum(q, w, units):
    return sum(w[b] * units[b] for b in q.branches)


def shipped_weights(q, lexical_bonus=0.1):
    return gated(q, {'semantic': q.spread, 'lexical': lexical_bonus, 'tfidf': 0.0})


def score(q, fam, p):
    if 'semantic' not in q.branches:
        w = {'semantic': 0.6, 'lexical': 0.4, 'tfidf': 0.2}
        return weighted_sum(q, {b: w[b] for b in q.branches}, q.norm)
    if fam == 'shipped':
        return weighted_sum(q, shipped_weights(q, p.get('bonus', 0.1)), q.norm)
    if fam == 'spread':
        return weighted_sum(q, shipped_weights(q, p['bonus'] * q.spread), q.norm)
    if fam in ('zsum', 'zmnz', 'ztail'):
        w = gated(q, {'semantic': 1.0, 'lexical': p['lam'], 'tfidf': 0.0})
        if fam == 'ztail':
            units = {b: q.unit(b, 'ztail', p['T']) for b in q.branches}
        else:
            units = {b: q.unit(b, 'z') for b in q.branches}
        s = weighted_sum(q, w, units)
        if fam == 'zmnz':
            s = s * sum(q.kept[b].astype(float) for b in q.branches if w[b] > 0)
        return s
    if fam in ('qpp', 'qpphead'):
        c = {'semantic': 1.0, 'lexical': p.get('lam', 1.0), 'tfidf': 0.0}
        scale = {b: c[b] * max(q.qpp(b, p.get('head', 1)), 1e-9) ** p['g'] for b in q.branches}
        return weighted_sum(q, gated(q, scale), q.norm)
    if fam == 'rrf':
        w = gated(q, {'semantic': 1.0, 'lexical': 1.0, 'tfidf': 0.0})
        k = {'semantic': p['k_sem'], 'lexical': p['k_lex'], 'tfidf': 60}
        return sum(w[b] * np.where(q.kept[b], 1.0 / (k[b] + q.rank[b]), 0.0) for b in q.branches)
    if fam == 'borda':
        w = gated(q, {'semantic': 1.0, 'lexical': p['lam'], 'tfidf': 0.0})
        return sum(w[b] * np.where(q.kept[b], np.maximum(0, p['D'] - q.rank[b] + 1), 0.0) for b in q.branches)
    if fam.startswith('spare') or fam in ('auto', 'keep'):
        unit = ('cosine' if fam.startswith('spare-cosine') else 'spread' if fam.startswith('spare-spread')
                else AUTO_UNIT.get(q.model, 'spread'))
        bonus = p.get('bonus', 0.1) * (q.spread if unit == 'spread' else 1.0)
        gates = dict(q.gates)
        if fam != 'auto' and spares(q, fam, p):
            gates['semantic'] = 1.0
        w = _F.gated(q.branches, gates, {'semantic': q.spread, 'lexical': bonus, 'tfidf': 0.0}, q.counted())
        return weighted_sum(q, w, q.norm)
    if fam in ('protect', 'topk', 'anchor'):
        unit = AUTO_UNIT.get(q.model, 'spread')
        bonus = p.get('bonus', 0.1) * (q.spread if unit == 'spread' else 1.0)
        w = _F.gated(q.branches, q.gates, {'semantic': q.spread, 'lexical': bonus, 'tfidf': 0.0}, q.counted())
        units = dict(q.norm)
        dense = 'semantic' in q.counted() and q.gates.get('semantic', 1.0) >= 1.0
        if fam == 'topk' and dense:
            units['lexical'] = np.where(q.rank['semantic'] <= p['K'], q.norm['lexical'], 0.0)
        if fam == 'anchor' and dense:
            units['lexical'] = q.norm['lexical'] * (p['eps'] + (1 - p['eps']) * q.norm['semantic'] ** p['a'])
        fused = weighted_sum(q, w, units)
        if fam == 'protect' and dense:
            return np.where(q.rank['semantic'] <= p['K'], 10 - q.rank['semantic'], fused)
        return fused
    if fam == 'floor':
        w = shipped_weights(q)
        if 'semantic' in q.counted() and q.qpp('semantic') >= p['Q'] and w['semantic'] < p['F']:
            rest = sum(v for b, v in w.items() if b != 'semantic')
            w = {b: (p['F'] if b == 'semantic' else v * (1 - p['F']) / rest if rest > 0 else 0.0)
                 for b, v in w.items()}
        return weighted_sum(q, w, q.norm)
    raise ValueError(fam)


AUTO_UNIT = {'minilm': 'cosine'}  # bonus_unit auto: cosine for all-minilm-l6-v2-q, spread for every other model


def confidence(q, fam):
    """How clearly the dense list's first hit stands out of its tail (ranks 11..100), in the tail's std."""
    if fam == 'spare-margin':
        s = q.stats['semantic']
        tail = s[10:] if len(s) > 11 else s
        sd = tail.std()
        return float((s[0] - s[1]) / sd) if sd > 0 and len(s) > 1 else 0.0
    return q.qpp('semantic')


def spares(q, fam, p):
    """Whether the spare lifts the dense list's gate for this query (it acts only where the gate cut)."""
    if 'semantic' not in q.counted() or q.gates.get('semantic', 1.0) >= 1.0:
        return False
    if fam == 'keep':
        return q.cov['semantic'] >= p['c'] * q.cov['lexical']
    return confidence(q, fam) >= p['Q']


def grid(fam):
    lams = [0.1, 0.2, 0.3, 0.5, 0.7, 1.0]
    if fam in ('shipped', 'auto'):
        return [{}]
    if fam == 'spread':
        return [{'bonus': b} for b in [0.005, 0.01, 0.02, 0.03, 0.05, 0.1, 0.15, 0.2, 0.25, 0.3]]
    if fam in ('zsum', 'zmnz'):
        return [{'lam': x} for x in [0.005, 0.01, 0.02, 0.03, 0.05, 0.1, 0.2, 0.3, 0.5, 0.7, 1.0]]
    if fam == 'ztail':
        return [{'lam': x, 'T': t} for x in lams for t in [6, 11, 21, 51]]
    if fam == 'qpp':
        return [{'lam': x, 'g': g} for x in lams + [1.5, 2.0] for g in [0.5, 1, 2, 3]]
    if fam == 'qpphead':
        return [{'head': h, 'g': g} for h in [1, 3, 5, 10] for g in [0.5, 1, 2, 3, 4]]
    if fam == 'rrf':
        return [{'k_sem': a, 'k_lex': b} for a in [1, 5, 10, 20, 60] for b in [1, 5, 10, 20, 60, 120, 300]]
    if fam == 'borda':
        return [{'D': d, 'lam': x} for d in [10, 15, 20, 30, 50, 100]
                for x in [0.01, 0.02, 0.03, 0.05, 0.1, 0.15, 0.2, 0.3, 0.5, 1.0]]
    if fam.startswith('spare') and fam.endswith('-bonus'):
        return [{'bonus': b, 'Q': x} for b in [0.03, 0.05, 0.07, 0.1, 0.15, 0.2, 0.25, 0.3]
                for x in [0, 2, 3, 4, 5, 6, 8, 1e9]]
    if fam == 'keep':
        return [{'c': x} for x in [0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0, 1e9]]
    if fam.startswith('spare'):
        return [{'Q': x} for x in [0, 1, 2, 2.5, 3, 3.5, 4, 4.5, 5, 5.5, 6, 7, 8, 10, 12, 15, 1e9]]
    if fam == 'protect':
        return [{'K': k} for k in [1, 2, 3]]
    if fam == 'topk':
        return [{'K': k, 'bonus': b} for k in [5, 10, 20, 30, 50, 100] for b in [0.1, 0.2, 0.3]]
    if fam == 'anchor':
        return [{'a': a, 'eps': e, 'bonus': b} for a in [0.5, 1, 2, 4] for e in [0, 0.25, 0.5] for b in [0.1, 0.2, 0.3]]
    if fam == 'floor':
        return [{'Q': a, 'F': f} for a in [0, 1, 1.5, 2, 2.5, 3, 4, 5, 6, 8] for f in [0.5, 0.7, 0.8, 0.9, 0.95, 1.0]]
    raise ValueError(fam)


def load(path, cache=None, noise=False):
    """The judged queries of one dump; with noise, each semantic list replaced by as many chunks drawn at random
    from the corpus (seeded by the query's place), with that query's own cosines, as FusionReplay's noise variant
    does (another random generator, so other draws)."""
    if cache:
        import hashlib
        import pickle
        st = os.stat(path)
        f = os.path.join(cache, hashlib.sha1(f'v2:{os.path.abspath(path)}:{st.st_mtime}:{st.st_size}'
                                             f'{":noise" if noise else ""}'.encode()).hexdigest())
        if os.path.exists(f):
            return pickle.load(open(f, 'rb'))
        out = load(path, noise=noise)
        os.makedirs(cache, exist_ok=True)
        pickle.dump(out, open(f, 'wb'))
        return out
    root = json.load(open(path))
    corpus = sorted(root['doc_by_chunk'])
    out = []
    for i, (qid, q) in enumerate(root['queries'].items()):
        branches = dict(q['branches'])
        if noise and isinstance(branches.get('semantic'), list):
            ids = corpus[:]
            random.Random(i).shuffle(ids)
            branches['semantic'] = [[c, x] for c, x in zip(ids, sorted((x for _, x in branches['semantic']),
                                                                       reverse=True))]
        if root['qrels'].get(qid):
            out.append(Query(q.get('text', ''), branches, root['qrels'][qid], root['doc_by_chunk']))
            out[-1].qid = qid
    return out


def attach_coverage(queries, tsv):
    """The dense and BM25 lists' IDF-weighted coverage of each query (QueryTermCoverage.java's last two columns)."""
    rows = {}
    for line in open(tsv):
        f = line.rstrip('\n').split('\t')
        rows[f[0]] = {'lexical': float(f[6]), 'semantic': float(f[7])}
    for q in queries:
        q.cov = rows[q.qid]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--dumps', action='append', required=True, help='model=directory of <set>.json dumps')
    ap.add_argument('--family', action='append', help='families to score (default: all)')
    ap.add_argument('--cache', help='directory for the parsed lists (keyed by file path, time and size)')
    ap.add_argument('--coverage', help='directory of <model>-<set>.tsv from QueryTermCoverage.java (family keep)')
    ap.add_argument('--no-gate', action='store_true', help='every family without the agreement gate (gate 1)')
    ap.add_argument('--grid', action='store_true', help='also print every configuration\'s margins')
    ap.add_argument('--no-scripts', action='store_true', help="every family without the model's scripts rule")
    ap.add_argument('--safety', action='store_true',
                    help="also score each fold's choice on the held-out set with the model's scripts rule off")
    ap.add_argument('--noise', action='store_true',
                    help="also score each fold's choice on the held-out set with a random semantic list")
    a = ap.parse_args()
    if 'keep' in (a.family or []) and (a.noise or not a.coverage):
        ap.error('family keep needs --coverage and cannot score --noise (the TSVs cover the dumped lists only)')
    data = {}
    for spec in a.dumps:
        model, folder = spec.split('=', 1)
        for path in sorted(glob.glob(os.path.join(folder, '*.json'))):
            data[(model, os.path.basename(path)[:-5])] = load(path, a.cache)
            if a.noise:
                data[(model, os.path.basename(path)[:-5] + '~noise')] = load(path, a.cache, noise=True)
            if a.safety:
                data[(model, os.path.basename(path)[:-5] + '~noscripts')] = load(path, a.cache)
    for (model, name), qs in data.items():
        if a.coverage and not name.endswith('~noise'):  # a random list's coverage is not the dumped list's
            attach_coverage(qs, os.path.join(a.coverage, f'{model}-{name.split("~")[0]}.tsv'))
        for q in qs:
            q.model = model
            if a.no_scripts or name.endswith('~noscripts'):
                q.unread = False
    if a.no_gate:
        for q in (q for qs in data.values() for q in qs):
            q.gates = {b: 1.0 for b in q.gates}
    extra = {k: data.pop(k) for k in [k for k in data if '~' in k[1]]}  # scored, never fitted on

    def variant(k, suffix):
        return extra[(k[0], k[1] + '~' + suffix)]

    variants = [(suffix, label) for suffix, label, on in [('noise', 'random semantic list', a.noise),
                                                         ('noscripts', 'script rule off', a.safety)] if on]
    keys = sorted(data, key=lambda k: (k[1], k[0]))
    best = {}
    for k in keys:
        means = {b: np.mean([q.branch_ndcg.get(b, 0) for q in data[k]]) for b in BRANCHES}
        b = max(means, key=means.get)
        best[k] = (b, means[b])
    print('best branch: ' + ', '.join(f'{m}/{s} {best[(m, s)][0]} {best[(m, s)][1]:.4f}' for m, s in keys))
    header = ' '.join(f'{(m[:3] + "/" + s[:6]):>10s}' for m, s in keys)
    for fam in a.family or ['shipped', 'auto', 'spread', 'zsum', 'zmnz', 'ztail', 'qpp', 'qpphead', 'rrf', 'borda',
                            'floor', 'spare', 'spare-cosine', 'spare-spread', 'spare-margin', 'spare-bonus',
                            'spare-spread-bonus']:
        configs = grid(fam)
        margins = [{k: np.mean([q.ndcg(score(q, fam, p)) for q in data[k]]) - best[k][1] for k in keys}
                   for p in configs]
        print(f'\n== {fam}: {len(configs)} configurations; margin over the best branch, nDCG@10')
        print(f'{"":34s} {header}')
        if fam in ('shipped', 'auto'):
            print(f'{fam + " (not fitted here)":34s} ' + ' '.join(f'{margins[0][k]:+10.4f}' for k in keys))
            for suffix, label in variants:
                print(f'{"  same, " + label:34s} '
                      + ' '.join(f'{variant_margin(variant(k, suffix), fam, {}):+10.4f}' for k in keys))
            continue
        if a.grid:
            for p, m in zip(configs, margins):
                print(f'{"  " + str(p):34s} ' + ' '.join(f'{m[k]:+10.4f}' for k in keys))
                if a.safety:
                    print(f'{"    script rule off":34s} ' + ' '.join(
                        f'{variant_margin(variant(k, "noscripts"), fam, p):+10.4f}' for k in keys))
        top = max(range(len(configs)), key=lambda j: (round(min(margins[j].values()), 6),
                                                     np.mean(list(margins[j].values()))))
        print(f'{"in-sample best " + str(configs[top]):34s} ' + ' '.join(f'{margins[top][k]:+10.4f}' for k in keys))
        held, held_variant = {}, {label: {} for _, label in variants}
        for s in sorted({k[1] for k in keys}):
            train = [k for k in keys if k[1] != s]
            j = max(range(len(configs)), key=lambda j: (round(min(margins[j][k] for k in train), 6),
                                                       np.mean([margins[j][k] for k in train])))
            for k in keys:
                if k[1] == s:
                    held[k] = margins[j][k]
                    for suffix, label in variants:
                        held_variant[label][k] = variant_margin(variant(k, suffix), fam, configs[j])
            fired = ''
            if fam.startswith('spare') or fam == 'keep':
                fired = ', spared ' + ', '.join(
                    f'{k[0]} {sum(spares(q, fam, configs[j]) for q in data[k])}/{len(data[k])}'
                    for k in keys if k[1] == s)
                if a.safety:
                    fired += ' (script rule off: ' + ', '.join(
                        f'{k[0]} {sum(spares(q, fam, configs[j]) for q in variant(k, "noscripts"))}'
                        for k in keys if k[1] == s) + ')'
            print(f'  held out {s:17s} chosen {configs[j]}{fired}')
        print(f'{"held out (leave-one-set-out)":34s} ' + ' '.join(f'{held[k]:+10.4f}' for k in keys))
        for _, label in variants:
            print(f'{"  same, " + label:34s} ' + ' '.join(f'{held_variant[label][k]:+10.4f}' for k in keys))


def variant_margin(queries, fam, p):
    """Margin over the best branch of a variant of a set (semantic lists made noise, or the scripts rule off)."""
    best = max(np.mean([q.branch_ndcg.get(b, 0) for q in queries]) for b in BRANCHES)
    return np.mean([q.ndcg(score(q, fam, p)) for q in queries]) - best


if __name__ == '__main__':
    main()
