#!/usr/bin/env python3
"""Asks a running hub the judged questions of a JSON-lines file (examples/queries/*.jsonl: id, project, query,
relevant [{path, heading, grade}]) and prints each method's mean nDCG@10, judged per chunk (path and heading), as
ExampleVaultJudgedQueriesTest does, except that a section split into several chunks counts once.

  scripts/judged-queries.py --url http://127.0.0.1:8080 examples/queries/obsidian-help.jsonl [--per-query]
"""
import argparse
import json
import math
import urllib.request


def ndcg(ranked, grades, k=10):
    ranked = list(dict.fromkeys(ranked))  # a section split into several chunks counts once, at its best rank
    dcg = sum(grades.get(d, 0) / math.log2(i + 2) for i, d in enumerate(ranked[:k]))
    ideal = sorted((g for g in grades.values() if g > 0), reverse=True)[:k]
    idcg = sum(g / math.log2(i + 2) for i, g in enumerate(ideal))
    return dcg / idcg if idcg else 0.0


def ask(url, q, method):
    body = {"project": q["project"], "query": q["query"], "top_k": 10, "budget_tokens": 100000}
    if method != "default":  # default: the hub's route chooses
        body["search_method"] = method
    req = urllib.request.Request(url + "/memory/query", json.dumps(body).encode(),
                                 {"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=60) as r:
        return [x["path"] + "#" + x["heading"] for x in json.load(r)["results"]]


def main():
    p = argparse.ArgumentParser()
    p.add_argument("file")
    p.add_argument("--url", default="http://127.0.0.1:8080")
    p.add_argument("--methods", default="tfidf,lexical,semantic,hybrid,default")
    p.add_argument("--per-query", action="store_true")
    a = p.parse_args()
    questions = [json.loads(line) for line in open(a.file, encoding="utf-8") if line.strip()]
    for method in a.methods.split(","):
        scores = []
        for q in questions:
            grades = {r["path"] + "#" + r["heading"]: r["grade"] for r in q["relevant"]}
            ranked = ask(a.url, q, method)
            scores.append(ndcg(ranked, grades))
            if a.per_query:
                print(f"{method} {q['id']} {scores[-1]:.4f} {ranked}")
        print(f"{method}: mean nDCG@10 {sum(scores) / len(scores):.4f} over {len(scores)} questions")


if __name__ == "__main__":
    main()
