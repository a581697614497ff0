# Writes a genuine export (from `sgemm-tune export`, format 2) and hostile variants of it as
# seeds for the import fuzzer:
#   python3 tools/fuzz/make_import_seeds.py EXPORT tools/fuzz/seeds_import
# Per-field variants are written in format 1 (results as objects), which import still reads;
# format 2's tables get variants of their own.
import copy, json, sys

src, out = sys.argv[1], sys.argv[2]
genuine = json.load(open(src))


def as_format_1(doc):
    doc = copy.deepcopy(doc)
    doc["version"] = 1
    for run in doc["runs"]:
        table = run["results"]
        run["results"] = [dict(zip(table["columns"], row)) for row in table["rows"]]
    return doc


def save(name, doc, keep_kernels=False):
    if not keep_kernels:
        doc = {k: v for k, v in doc.items() if k != "kernels"}
    with open(f"{out}/{name}.json", "w") as f:
        json.dump(doc, f, indent=1)


save("genuine", genuine, keep_kernels=True)
v1 = as_format_1(genuine)
save("genuine_format_1", v1, keep_kernels=True)


def variant(name, change, keep_kernels=False, base=v1):
    d = copy.deepcopy(base)
    change(d)
    save(name, d, keep_kernels)


variant("gpu_name_line_break", lambda d: d["runs"][0].update(gpu_name="NVIDIA H200\n#error injected"))
variant("gpu_name_escape", lambda d: d["runs"][0].update(gpu_name="\u001b]0;owned\u0007"))
variant("lowered_name_quote", lambda d: d["kernels"][0].update(lowered_name="x\");system(\"id"), True)
variant("cubin_forged", lambda d: d["kernels"][0].update(cubin="3q2+7w=="), True)
variant("kernel_orphan", lambda d: d["kernels"][0].update(fingerprint="0123456789abcdef"), True)
variant("tile_invalid", lambda d: d["runs"][0]["results"][0].update(stages=1))
variant("time_negative", lambda d: d["runs"][0]["results"][0].update(time_ms=-1.0))
variant("cc_code", lambda d: d["runs"][0].update(compute_capability="9.0, 0}; int x"))
variant("reason_unknown", lambda d: d["runs"][0]["results"][0].update(status="pruned", reason="because"))
variant("table_row_short", lambda d: d["runs"][0]["results"]["rows"][0].pop(), base=genuine)
variant("table_column_twice", lambda d: d["runs"][0]["results"]["columns"].__setitem__(1, "m"), base=genuine)
save("minimal_run", {"format": "sgemm-tune export", "version": 2, "runs": [{"uid": "a"}]})
