#!/usr/bin/env python3
"""Mutated worker requests, one per line, from the worker target's seed corpus (docs/testing.md).

    python3 Fuzz/scripts/mutated-requests.py bytes SEED N > in.jsonl   # truncations, bit flips,
                                                                       # splices, inserted bytes
    python3 Fuzz/scripts/mutated-requests.py json SEED N > in.jsonl    # valid JSON: values replaced
                                                                       # (extremes, wrong types),
                                                                       # fields dropped or added
Every line holds one request (a newline or CR made by a mutation becomes a space), so a worker
must write exactly N answer lines, each one JSON object.
"""
import glob, json, os, random, sys

mode, seed, n = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
random.seed(seed)
corpus = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "corpus", "worker")
lines = [l.rstrip(b"\r") for f in sorted(glob.glob(os.path.join(corpus, "line-*.jsonl")))
         for l in open(f, "rb").read().split(b"\n") if l.strip()]

def mutate_bytes(a):
    a = bytearray(a)
    k = random.random()
    if k < 0.3 and len(a) > 1:
        a = a[:random.randrange(1, len(a))]
    elif k < 0.6:
        for _ in range(random.randint(1, 4)):
            j = random.randrange(len(a)); a[j] ^= 1 << random.randrange(8)
    elif k < 0.85:
        b = random.choice(lines); a = a[:random.randrange(len(a) + 1)] + b[random.randrange(len(b) + 1):]
    else:
        j = random.randrange(len(a) + 1)
        a = a[:j] + bytes(random.randrange(256) for _ in range(random.randint(1, 8))) + a[j:]
    return bytes(a)

VALUES = [None, True, False, 0, -1, 1e308, -1e308, 1.5, "", "x" * 300, [], {}, [1, 2], {"lat": 91, "lon": 0},
          {"lat": 37.5, "lon": 126.9}, "2024-02-30T25:00:00Z", "NaN", 2**63, -2**63, "kr-seoul/regular", "p1"]

def mutate_json(o):
    if isinstance(o, dict):
        o = dict(o)
        if o and random.random() < 0.5:
            k = random.choice(list(o)); o[k] = random.choice(VALUES) if random.random() < 0.6 else mutate_json(o[k])
        if o and random.random() < 0.2: del o[random.choice(list(o))]
        if random.random() < 0.1: o["extra"] = random.choice(VALUES)
        return o
    if isinstance(o, list):
        o = list(o)
        if o and random.random() < 0.5: i = random.randrange(len(o)); o[i] = mutate_json(o[i])
        if random.random() < 0.2: o = o * random.randint(0, 30)
        return o
    return random.choice(VALUES)

def parsed(l):
    try: return json.loads(l)
    except ValueError: return None  # the corpus holds bad lines on purpose
requests = [r for r in map(parsed, lines) if r is not None]
out = sys.stdout.buffer
for _ in range(n):
    if mode == "bytes":
        line = mutate_bytes(random.choice(lines))
    else:
        line = json.dumps(mutate_json(random.choice(requests)), ensure_ascii=random.random() < 0.5).encode()
    out.write(line.replace(b"\n", b" ").replace(b"\r", b" ") + b"\n")
