"""What a heap holds more of: `python3 heapDiff.py before.heapsnapshot after.heapsnapshot N`.

Self size and count by (node type, constructor name), after − before, per N (the calls pending
in the second snapshot). A V8 heap snapshot is a flat array of nodes described by its meta."""
import json
import sys
from collections import defaultdict


def totals(path):
    snap = json.load(open(path))
    meta = snap["snapshot"]["meta"]
    fields = meta["node_fields"]
    types = meta["node_types"][0]
    nodes = snap["nodes"]
    strings = snap["strings"]
    width = len(fields)
    t, n, s = fields.index("type"), fields.index("name"), fields.index("self_size")
    out = defaultdict(lambda: [0, 0])
    for i in range(0, len(nodes), width):
        kind = types[nodes[i + t]]
        name = strings[nodes[i + n]] if kind in ("object", "closure", "native") else f"({kind})"
        entry = out[(kind, name[:60])]
        entry[0] += nodes[i + s]
        entry[1] += 1
    return out


before, after, per = totals(sys.argv[1]), totals(sys.argv[2]), int(sys.argv[3])
rows = []
for key in set(before) | set(after):
    b, a = before.get(key, [0, 0]), after.get(key, [0, 0])
    rows.append((a[0] - b[0], a[1] - b[1], key))
rows.sort(reverse=True)
total = sum(r[0] for r in rows)
print(f"total self size +{total / per:,.0f} B per pending call")
for size, count, (kind, name) in rows[:40]:
    print(f"{size / per:9,.0f} B  {count / per:6.1f}×  {kind:8} {name}")
