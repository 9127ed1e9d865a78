"""Who holds what a heap holds more of: `python3 heapOwners.py before.heapsnapshot after.heapsnapshot N [detail]`.

Each node new in the second snapshot (by V8's node id, stable between snapshots of one process)
is charged to its nearest retainer, breadth-first up the retainer graph (weak edges skipped),
that is an instance of a named class; plain objects, arrays, closures, contexts and promises
have no owner of their own. The owners are grouped as Node's HTTP and sockets, Fastify, the
MCP SDK, and ours (AbortController and its signal counted as ours: a waiting call makes it).
Compiled code and JIT metadata are left apart: they do not grow with the calls. A heuristic,
not a dominator tree: an object two owners share goes to the nearer one."""
import json
import sys
from collections import Counter, defaultdict, deque

NODE = {"Socket", "TCP", "HTTPParser", "IncomingMessage", "ServerResponse", "WritableState",
        "ReadableState", "HTTPServerAsyncResource", "Server", "TimersList", "Timeout", "FreeList"}
FASTIFY = {"_Request", "_Reply", "Fastify", "Context"}
SDK = {"McpServer", "StreamableHTTPServerTransport", "WebStandardStreamableHTTPServerTransport",
       "Protocol", "Server"}
ABORT = {"AbortController", "AbortSignal", "EventTarget"}
GENERIC = {"Object", "Array", "system / Context", "", "Promise", "system / PromiseReaction",
           "system / PropertyArray", "Map", "Set", "native_bind", "heap number", "system / Map",
           "system / DescriptorArray", "(object elements)", "(object properties)",
           "system / FixedArray", "Listener", "NullObject", "WeakMap", "WeakSet"}
ROOTS = {"(GC roots)", "(Strong roots)", "(Handle scope)", "(Global handles)", "(Stack roots)"}


def group(name):
    if name in NODE or name.startswith("Node / "):
        return "Node http/net"
    if name in FASTIFY:
        return "Fastify"
    if name in SDK:
        return "MCP SDK"
    if name in ABORT:
        return "ours: AbortController + signal"
    return "ours: " + name


def main(before_path, after_path, per, detail):
    before = json.load(open(before_path))
    fields = before["snapshot"]["meta"]["node_fields"]
    width, id_at = len(fields), fields.index("id")
    old = set(before["nodes"][k + id_at] for k in range(0, len(before["nodes"]), width))
    del before
    snap = json.load(open(after_path))
    meta = snap["snapshot"]["meta"]
    fields = meta["node_fields"]
    width, edge_width = len(fields), len(meta["edge_fields"])
    node_types, edge_types = meta["node_types"][0], meta["edge_types"][0]
    nodes, edges, strings = snap["nodes"], snap["edges"], snap["strings"]
    t_at, n_at, i_at, s_at, e_at = (fields.index(f) for f in
                                    ("type", "name", "id", "self_size", "edge_count"))
    count = len(nodes) // width
    retainers = defaultdict(list)
    edge = 0
    for node in range(count):
        for k in range(edge, edge + nodes[node * width + e_at] * edge_width, edge_width):
            if edge_types[edges[k]] != "weak":
                retainers[edges[k + 2] // width].append(node)
        edge += nodes[node * width + e_at] * edge_width

    def kind(node):
        return node_types[nodes[node * width + t_at]]

    def name(node):
        return strings[nodes[node * width + n_at]]

    def owns(node):
        return (kind(node) == "object" and name(node) not in GENERIC) or (
            kind(node) in ("synthetic", "native") and name(node) not in ROOTS)

    totals, parts = Counter(), defaultdict(Counter)
    for node in range(count):
        if nodes[node * width + i_at] in old:
            continue
        size = nodes[node * width + s_at]
        if kind(node) == "code":
            totals["(code and JIT metadata, not per call)"] += size
            continue
        if owns(node):
            owner = group(name(node))
        else:
            owner, seen, queue = "(no named owner)", {node}, deque([node])
            while queue:
                current = queue.popleft()
                found = next((r for r in retainers.get(current, ()) if r not in seen and owns(r)), None)
                if found is not None:
                    owner = group(name(found))
                    break
                for r in retainers.get(current, ()):
                    if r not in seen:
                        seen.add(r)
                        queue.append(r)
                if len(seen) > 5000:
                    break
        totals[owner] += size
        parts[owner][f"{kind(node)} {name(node)[:40]}"] += size
    per_call = sum(v for k, v in totals.items() if not k.startswith("(code"))
    print(f"+{per_call / per:,.0f} B per call, code excluded")
    for owner, size in totals.most_common():
        print(f"{size / per:8,.0f} B  {owner}")
        if detail:
            for part, part_size in parts[owner].most_common(8):
                print(f"           {part_size / per:7,.0f} B  {part}")


main(sys.argv[1], sys.argv[2], int(sys.argv[3]), len(sys.argv) > 4)
