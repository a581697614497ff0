# Writes hostile variants of a genuine export (from `sgemm-tune export`) as seeds for the
# import fuzzer: python3 tools/fuzz/make_import_seeds.py EXPORT tools/fuzz/seeds_import
import copy, json, sys
src, out = sys.argv[1], sys.argv[2]
g = json.load(open(src))
def save(name, doc):
    if name not in ("genuine", "lowered_name_quote", "kernel_orphan"):
        doc = {k: v for k, v in doc.items() if k != "kernels" or name == "cubin_forged"}
    with open(f"{out}/{name}.json", "w") as f: json.dump(doc, f, indent=1)
save("genuine", g)
d = copy.deepcopy(g); d.pop("kernels"); save("no_kernels", d)
d = copy.deepcopy(g); d["runs"][0]["gpu_name"] = "NVIDIA H200\n#error injected"; save("gpu_name_line_break", d)
d = copy.deepcopy(g); d["runs"][0]["gpu_name"] = "\u001b]0;owned\u0007"; save("gpu_name_escape", d)
d = copy.deepcopy(g); d["kernels"][0]["lowered_name"] = "x\");system(\"id"; save("lowered_name_quote", d)
d = copy.deepcopy(g); d["kernels"][0]["cubin"] = "3q2+7w=="; save("cubin_forged", d)
d = copy.deepcopy(g); d["runs"][0]["results"][0]["stages"] = 1; save("tile_invalid", d)
d = copy.deepcopy(g); d["runs"][0]["results"][0]["time_ms"] = 1e400 if False else -1.0; save("time_negative", d)
d = copy.deepcopy(g); d["runs"][0]["compute_capability"] = "9.0, 0}; int x"; save("cc_code", d)
d = copy.deepcopy(g); d["runs"][0]["results"][0]["status"] = "pruned"; d["runs"][0]["results"][0]["reason"] = "because"; save("reason_unknown", d)
d = copy.deepcopy(g); d["kernels"][0]["fingerprint"] = "0123456789abcdef"; save("kernel_orphan", d)
small = {"format": "sgemm-tune export", "version": 1, "runs": [{"uid": "a"}]}
save("minimal_run", small)
