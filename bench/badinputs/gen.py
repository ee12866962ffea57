#!/usr/bin/env python3
"""Generate the bad-input suite: malformed files in every format vigil reads,
and cases.txt, one command line per input with its expected outcome.

    python3 bench/badinputs/gen.py            # rewrite cases/ and cases.txt
    go test ./cmd/vigil -run TestBadInputs -update-badinputs   # record outcomes

A case line is `EXIT | SUBSTRING | ARGS...`; `$D/` in ARGS stands for this
directory. A case written here with EXIT `?` has its outcome recorded by the
test's -update-badinputs flag (the exit code and the first error line), to be
reviewed before committing; every other case states its outcome here. The
seeds are the repository's own fixtures (specs/, nn/testdata, trees/testdata,
specs/plaja) and the run and certificate files in seeds/, written by vigil.
Deterministic: no randomness, so regenerating gives the same files.
"""

import json
import os
import shutil

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
CASES = os.path.join(HERE, "cases")
CHAIN = 3000  # definitions, three times the limit
DEEP = 5000  # five times vigil's nesting limits; lang/parser_test.go tries 100,000

lines = []


def read(rel):
    with open(os.path.join(ROOT, rel), "rb") as f:
        return f.read()


def write(fmt, name, data):
    d = os.path.join(CASES, fmt)
    os.makedirs(d, exist_ok=True)
    if isinstance(data, str):
        data = data.encode()
    with open(os.path.join(d, name), "wb") as f:
        f.write(data)
    return "$D/cases/%s/%s" % (fmt, name)


def case(exit_code, substring, *args):
    assert "|" not in substring
    lines.append("%s | %s | %s" % (exit_code, substring, " ".join(args)))


def cuts(data, n):
    """n cut points spread over data, never 0 or len(data)."""
    pts = sorted({max(1, min(len(data) - 1, len(data) * (i + 1) // (n + 1))) for i in range(n)})
    return [p for p in pts if 0 < p < len(data)]


# ---- .spec -----------------------------------------------------------------

def specs():
    deep = {
        "parens": "const c = " + "(" * DEEP + "1" + ")" * DEEP + "\n",
        "unclosed": "const c = " + "(" * DEEP + "\n",
        "neg": "const c = " + "-" * DEEP + "1\n",
        "not": "var x : bool\npred p = " + "!" * DEEP + "x\n",
        "sum": "const c = 1" + " + 1" * DEEP + "\n",
        "and": "var x : bool\npred p = x" + " && x" * DEEP + "\n",
        "implies": "var x : bool\npred p = x" + " => x" * DEEP + "\n",
        "if": "const c = " + "if true then 1 else " * DEEP + "1\n",
        "abs": "const c = " + "abs(" * DEEP + "1" + ")" * DEEP + "\n",
        "guard": "var x : 0 .. 1\naction a when " + "(" * DEEP + "x > 0" + ")" * DEEP + " -> x' = 0\n",
        "assign": "var x : 0 .. 1\naction a -> x' = " + "(" * DEEP + "0" + ")" * DEEP + "\n",
        "property": "var x : 0 .. 1 = 0\nproperty p { unsafe " + "!" * DEEP + "(x > 0) }\n",
        "input": "var x : 0 .. 1\naction a -> skip\npolicy nn p \"p.onnx\" {\n    inputs " + "(" * DEEP + "x\n}\n",
        "mixed": "const c = " + "(-" * DEEP + "1" + ")" * DEEP + "\n",
    }
    for name, src in deep.items():
        f = write("spec", "deep_%s.spec" % name, src)
        case(1, "nested too deeply", "check", f)
    for name in ("parens", "sum", "and"):
        case(1, "nested too deeply", "fmt", "$D/cases/spec/deep_%s.spec" % name)
    # Long chains of definitions, each using the next (declared last first).
    chain = "".join("const c%d = c%d + 1\n" % (i, i + 1) for i in range(CHAIN)) + "const c%d = 0\n" % CHAIN
    case(1, "E0210", "check", write("spec", "chain_consts.spec", chain))
    chain = "var x : 0 .. 3\n" + "".join("pred p%d = p%d && x < 3\n" % (i, i + 1) for i in range(CHAIN)) + "pred p%d = x > 0\n" % CHAIN
    case(1, "E0210", "check", write("spec", "chain_preds.spec", chain))
    # Huge counts and sizes.
    huge = {
        "int": ("const c = 99999999999999999999999999\n", "too large"),
        "range": ("var x : 0 .. 9223372036854775807\n", "too large"),
        "product": ("const c = 9223372036854775807 * 2\n", "overflows"),
        "sum": ("const c = 9223372036854775807 + 1\n", "overflows"),
        "neg": ("const c = -9223372036854775807 - 2\n", "overflows"),
        "weight": ("var x : 0 .. 1\naction a -> 99999999999999999999999: x' = 0 | 1: x' = 1\n", "E0404"),
        "decimal": ("var x : 0 .. 1\naction a -> 0.99999999999999999999999999: x' = 0 | 0.1: x' = 1\n", "E0404"),
        "define": ("const c = 1\nvar x : 0 .. c\n", None),
        "empty_range": ("var x : 5 .. 1\n", "empty range"),
    }
    for name, (src, msg) in huge.items():
        f = write("spec", "huge_%s.spec" % name, src)
        if msg is None:
            case(1, "-D", "check", "-D", "c=99999999999999999999", f)
        else:
            case(1, msg, "check", f)
    # Lexical errors.
    lex = {
        "utf8": (b"model m\nconst c = \xff\xfe\n", "not valid UTF-8"),
        "nul": (b"model m\x00\n", "NUL byte"),
        "string": (b'import "a.spec\n', "unterminated string"),
        "comment": (b"model m /* no end\n", "unterminated comment"),
        "char": (b"model m\nconst c = 1 # 2\n", "invalid character"),
        "escape": (b'import "a\\q.spec"\n', "invalid string"),
        "binary": (bytes(range(1, 256)), "not valid UTF-8"),
        "empty_import": (b'import ""\n', "cannot import"),
        "bom": (b"model m\n\xef\xbb\xbfvar x : 0 .. 1\n", "byte-order mark"),  # a mark only at the start is read (session 22)
    }
    for name, (src, msg) in lex.items():
        case(1, msg, "check", write("spec", "lex_%s.spec" % name, src))
    # Syntax and checker errors, one each.
    syn = {
        "eof_brace": ("var x : 0 .. 1\nproperty p {\n    unsafe x > 0\n", "end of file"),
        "assign_eq": ("var x : 0 .. 1\naction a -> x = 1\n", "unexpected \"=\""),
        "and_arrow": ("var x : 0 .. 1\naction a when x > 1 && -> x' = 1\n", "unexpected \"->\""),
        "keyword_name": ("var when : 0 .. 1\n", "keyword"),
        "dup_var": ("var x : 0 .. 1\nvar x : 0 .. 2\n", "already declared"),
        "undeclared": ("var x : 0 .. 1\naction a -> x' = y\n", "E0101"),
        "nonlinear": ("var x : 0 .. 1\nvar y : 0 .. 1\naction a -> x' = x * y\n", "not linear"),
        "div_zero": ("var x : 0 .. 1\naction a -> x' = x / 0\n", "E0205"),
        "self_const": ("const c = c + 1\n", "in terms of itself"),
        "self_pred": ("var x : bool\npred p = p && x\n", "in terms of itself"),
        "cycle_pred": ("var x : bool\npred p = q && x\npred q = p\n", "in terms of itself"),
        "type_mix": ("var x : 0 .. 1\npred p = x + true > 0\n", "E020"),
        "twice_assign": ("var x : 0 .. 1\naction a -> x' = 0, x' = 1\n", "E0401"),
        "no_unsafe": ("var x : 0 .. 1 = 0\nproperty p { start x == 0 }\n", "E0601"),
        "init_range": ("var x : 0 .. 1 = 5\n", "E0302"),
        "import_missing": ('import "nowhere.spec"\n', "E0002"),
        "import_self": ('import "syn_import_self.spec"\nvar x : 0 .. 1\n', "import cycle"),
        "import_ext": ('import "x.onnx"\n', "E0108"),
        "policy_label": ("var x : 0 .. 1\naction a -> skip\npolicy rules p {\n    otherwise -> b\n}\n", "E0501"),
        "policy_kind": ("var x : 0 .. 1\naction a -> skip\npolicy magic p {\n    otherwise -> a\n}\n", "E0502"),
        "policy_file": ("var x : 0 .. 1\naction a -> skip\npolicy nn p \"missing.onnx\" {\n    inputs x\n    outputs a\n}\n", "E0507"),
        "min_args": ("const c = min(1)\n", "E0208"),
        "model_twice": ("model a\nmodel b\n", "E0105"),
        "import_as": ('import "a.spec" as b\n', "E0107"),
        "weight_sum": ("var x : 0 .. 1\naction a -> 0.7: x' = 0 | 0.6: x' = 1 | skip\n", "E0404"),
        "decimal_use": ("var x : 0 .. 1\naction a -> x' = 0.5\n", "E0203"),
        "lone_prime": ("var x : 0 .. 1\npred p = x' > 0\n", "primed"),
        "garbage": ("}}}{{{ ;;; @@@\n", "unexpected \"}\""),
        "only_keyword": ("action\n", "end of file"),
        "property_dup": ("var x : 0 .. 1 = 0\nproperty p { unsafe x > 0 unsafe x > 1 }\n", "E0602"),
    }
    for name, (src, msg) in syn.items():
        case(1, msg, "check", write("spec", "syn_%s.spec" % name, src))
    # Truncations of a real model: whatever the cut, an outcome, no crash.
    src = read("specs/transport.spec")
    for i, p in enumerate(cuts(src, 40)):
        case("?", "", "check", write("spec", "cut_transport_%02d.spec" % i, src[:p]))
    # Every line of a real model deleted in turn.
    src = read("specs/tarjansafe.spec").split(b"\n")
    for i in range(len(src)):
        if src[i].strip() and not src[i].strip().startswith(b"//"):
            case("?", "", "check", write("spec", "dropline_tarjansafe_%02d.spec" % i, b"\n".join(src[:i] + src[i + 1:])))


# ---- JSON mutations -----------------------------------------------------------

def set_path(doc, path, value):
    d = doc
    for k in path[:-1]:
        d = d[k]
    d[path[-1]] = value


def json_mutations(fmt, base_name, doc, paths, args_for, ext=".json"):
    """Wrong-typed values at paths, deep nesting, truncation, garbage."""
    raw = json.dumps(doc).encode()
    for p in paths:
        for tag, v in (("str", "one"), ("neg", -5), ("huge", 1e20), ("null", None)):
            d = json.loads(raw)
            try:
                set_path(d, p, v)
            except (KeyError, IndexError, TypeError):
                continue
            name = "%s_%s_%s%s" % (base_name, "_".join(str(k) for k in p).replace("-", ""), tag, ext)
            case("?", "", *args_for(write(fmt, name, json.dumps(d))))
    for i, cut in enumerate(cuts(raw, 8)):
        case(1, "", *args_for(write(fmt, "%s_cut%02d%s" % (base_name, i, ext), raw[:cut])))
    case(1, "", *args_for(write(fmt, "%s_empty%s" % (base_name, ext), b"")))
    case(1, "", *args_for(write(fmt, "%s_deep%s" % (base_name, ext), b"[" * DEEP + b"]" * DEEP)))
    case(1, "", *args_for(write(fmt, "%s_garbage%s" % (base_name, ext), bytes(range(256)))))


def jani():
    doc = json.loads(read("specs/plaja/counter.jani"))
    def args(f):
        return ("check", "-D", "N=5", f)
    paths = [["jani-version"], ["type"], ["variables", 0, "type"], ["variables", 0, "initial-value"],
             ["automata", 0, "edges"], ["automata", 0, "locations"], ["constants", 0, "name"],
             ["system"], ["actions"], ["variables", 0, "name"]]
    json_mutations("jani", "counter", doc, paths, args, ".jani")
    # A deeply nested expression inside a valid model.
    d = json.loads(read("specs/plaja/counter.jani"))
    text = json.dumps(d)
    nested = '{"op": "-", "exp": ' * 5000 + '"x"' + "}" * 5000
    text = text.replace('"initial-value": 0', '"initial-value": ' + nested, 1)
    case(1, "", "check", "-D", "N=5", write("jani", "counter_deep_expr.jani", text))
    d = json.loads(read("specs/plaja/counter.jani"))
    d["jani-version"] = "one"
    case(1, "jani-version", "check", "-D", "N=5", write("jani", "counter_version_one.jani", json.dumps(d)))
    d = json.loads(read("specs/plaja/counter.jani"))
    d["variables"].append(dict(d["variables"][0]))
    case(1, "", "check", "-D", "N=5", write("jani", "counter_dup_var.jani", json.dumps(d)))


def jani2nnet():
    for f in ("counter.jani", "net/counter.nnet"):
        write("jani2nnet", os.path.basename(f), read("specs/plaja/" + f))
    doc = json.loads(read("specs/plaja/net/counter.jani2nnet"))
    model = "$D/cases/jani2nnet/counter.jani"
    def args(f):
        return ("run", "-D", "N=5", "--steps", "1", "--policy-file", f, model)
    paths = [["file"], ["input"], ["output"], ["input", 0, "name"], ["input", 2, "index"], ["output", 0]]
    json_mutations("jani2nnet", "iface", doc, paths, args, ".jani2nnet")
    for tag, idx in (("1e20", 1e20), ("neg5", -5), ("half", 0.5)):
        d = json.loads(read("specs/plaja/net/counter.jani2nnet"))
        d["input"][2]["index"] = idx
        case(1, "index of automaton", *args(write("jani2nnet", "iface_index_%s.jani2nnet" % tag, json.dumps(d))))
    d = json.loads(read("specs/plaja/net/counter.jani2nnet"))
    d["output"] = ["inc", "inc"]
    case(1, "listed twice", *args(write("jani2nnet", "iface_dup_output.jani2nnet", json.dumps(d))))


def trees():
    def args(f):
        return ("trees", "info", f)
    doc = json.loads(read("trees/testdata/xgb_multi.json"))
    m = ["learner", "gradient_booster", "model"]
    paths = [["learner", "learner_model_param", "num_class"], ["learner", "learner_model_param", "num_feature"],
             ["learner", "learner_model_param", "base_score"], m + ["tree_info"], m + ["trees"],
             m + ["trees", 0, "left_children"], m + ["trees", 0, "split_conditions"], m + ["trees", 0, "split_indices"],
             m + ["gbtree_model_param", "num_trees"], ["learner", "gradient_booster", "name"]]
    json_mutations("xgboost", "xgb", doc, paths, args)
    d = json.loads(read("trees/testdata/xgb_multi.json"))
    d["learner"]["gradient_booster"]["model"]["trees"].pop()
    d["learner"]["gradient_booster"]["model"]["tree_info"].pop()
    case(1, "num_trees declares 12 trees but the file has 11", *args(write("xgboost", "xgb_tree_missing.json", json.dumps(d))))
    d = json.loads(read("trees/testdata/xgb_multi.json"))
    t = d["learner"]["gradient_booster"]["model"]["trees"][0]
    t["left_children"][0] = 1000
    case(1, "", *args(write("xgboost", "xgb_child_range.json", json.dumps(d))))
    t["left_children"][0] = 0
    case(1, "", *args(write("xgboost", "xgb_child_cycle.json", json.dumps(d))))

    doc = json.loads(read("trees/testdata/veritas_small.json"))
    paths = [["at_type"], ["base_scores"], ["trees"], ["trees", 0, "structure"], ["trees", 0, "structure", "feat_id"],
             ["trees", 0, "structure", "split_value"], ["trees", 0, "structure", "left"], ["trees", 0, "num_leaf_values"]]
    json_mutations("veritas", "veritas", doc, paths, args)
    deep = '{"base_scores": [0], "trees": [{"structure": ' + '{"feat_id": 0, "split_value": 1, "right": {"leaf_value": 1}, "left": ' * 1500 + '{"leaf_value": 1}' + "}" * 1500 + "}]}"
    case(1, "deeper than", *args(write("veritas", "veritas_deep_tree.json", deep)))

    src = read("trees/testdata/lgb_multi.txt")
    end = src.index(b"end of trees")
    for i, p in enumerate(cuts(src[:end], 12)):
        case(1, "", *args(write("lightgbm", "lgb_cut%02d.txt" % i, src[:p])))
    # Cut exactly before each tree: the old reader loaded the trees before.
    starts = [i for i in range(len(src)) if src.startswith(b"Tree=", i)]
    for i, p in enumerate(starts[1:]):
        case(1, "cut short", *args(write("lightgbm", "lgb_tree_boundary%02d.txt" % i, src[:p])))
    text = src.decode()
    subs = {
        "num_class_str": ("num_class=2", "num_class=two"),
        "num_class_neg": ("num_class=2", "num_class=-5"),
        "num_class_huge": ("num_class=2", "num_class=100000000000000000000"),
        "feat_huge": ("max_feature_idx=1", "max_feature_idx=100000000"),
        "leaves_huge": ("num_leaves=3", "num_leaves=100000000"),
        "leaves_zero": ("num_leaves=3", "num_leaves=0"),
        "threshold_nan": ("threshold=2.5 4", "threshold=nan 4"),
        "threshold_word": ("threshold=2.5 4", "threshold=abc 4"),
        "child_range": ("left_child=-1 -2", "left_child=-1 7"),
        "tree_order": ("Tree=1", "Tree=7"),
        "sizes": ("tree_sizes=400 300 100 300", "tree_sizes=400 300 100"),
        "no_tree_header": ("tree\nversion", "forest\nversion"),
        "categorical": ("num_cat=0", "num_cat=1"),
        "linear": ("num_leaves=3", "is_linear=1\nnum_leaves=3"),
    }
    for name, (old, new) in subs.items():
        assert old in text, old
        case("?", "", *args(write("lightgbm", "lgb_%s.txt" % name, text.replace(old, new, 1))))
    case(1, "empty", *args(write("lightgbm", "lgb_empty.txt", b"")))
    case(1, "", *args(write("lightgbm", "lgb_binary.txt", bytes(range(256)) * 4)))


def nn():
    def args(f, n=3):
        return ("nn", "eval", f, "--input", ",".join(["0"] * n))
    for name in ("gemm", "matmul", "forms"):
        src = read("nn/testdata/%s.onnx" % name)
        for i, p in enumerate(cuts(src, 10)):
            case(1, "", *args(write("onnx", "%s_cut%02d.onnx" % (name, i), src[:p])))
        flipped = bytearray(src)
        for i in range(0, len(flipped), max(1, len(flipped) // 6)):
            flipped[i] ^= 0xFF
        case("?", "", *args(write("onnx", "%s_flipped.onnx" % name, bytes(flipped))))
    case(1, "", *args(write("onnx", "empty.onnx", b"")))
    case(1, "", *args(write("onnx", "text.onnx", b"this is not a protobuf\n")))
    case(1, "", *args(write("onnx", "varint.onnx", b"\x3a" + b"\xff" * 20)))
    case(1, "", *args(write("onnx", "huge_len.onnx", b"\x3a\xff\xff\xff\xff\x0f")))

    src = read("nn/testdata/nnet.nnet")
    for i, p in enumerate(cuts(src, 14)):
        case(1, "", *args(write("nnet", "cut%02d.nnet" % i, src[:p])))
    text = src.decode()
    hdr_line = [l for l in text.split("\n") if l.strip() and not l.startswith("//")][0]
    fields = hdr_line.rstrip(",").split(",")
    for name, repl in (("layers_huge", ["100000000"] + fields[1:]), ("layers_neg", ["-5"] + fields[1:]),
                       ("layers_word", ["one"] + fields[1:]), ("inputs_huge", fields[:1] + ["1e20"] + fields[2:]),
                       ("layers_frac", ["1.5"] + fields[1:]), ("layers_zero", ["0"] + fields[1:])):
        case("?", "", *args(write("nnet", "%s.nnet" % name, text.replace(hdr_line, ",".join(repl) + ",", 1))))
    body = text.split("\n")
    for name, tok in (("nan", "nan"), ("inf", "inf"), ("word", "abc")):
        b = list(body)
        b[-3] = tok + ","
        case("?", "", *args(write("nnet", "value_%s.nnet" % name, "\n".join(b))))
    case(1, "", *args(write("nnet", "extra.nnet", text + "1,2,3,\n")))
    case(1, "", *args(write("nnet", "empty.nnet", "")))

    doc = json.loads(read("nn/testdata/tiny.json"))
    paths = [["format"], ["version"], ["layers"], ["layers", 0, "weights"], ["layers", 0, "bias"], ["layers", 0, "activation"]]
    json_mutations("nnjson", "tiny", doc, paths, lambda f: args(f, 2))

    # VNNLIB properties for gemm.onnx (3 inputs, 4 outputs).
    net = "$D/cases/vnnlib/gemm.onnx"
    write("vnnlib", "gemm.onnx", read("nn/testdata/gemm.onnx"))
    good = ("(declare-const X_0 Real)\n(declare-const X_1 Real)\n(declare-const X_2 Real)\n"
            "(declare-const Y_0 Real)\n(declare-const Y_1 Real)\n(declare-const Y_2 Real)\n(declare-const Y_3 Real)\n"
            "(assert (>= X_0 0))\n(assert (<= X_0 1))\n(assert (>= X_1 0))\n(assert (<= X_1 1))\n"
            "(assert (>= X_2 0))\n(assert (<= X_2 1))\n(assert (>= Y_0 100))\n")
    def vargs(f):
        return ("nn", "verify", net, f)
    for i, p in enumerate(cuts(good.encode(), 10)):
        case("?", "", *vargs(write("vnnlib", "cut%02d.vnnlib" % i, good[:p])))
    case(1, "nested more than", *vargs(write("vnnlib", "deep.vnnlib", good + "(assert " + "(and " * DEEP + "(>= Y_0 1)" + ")" * DEEP + ")\n")))
    case(1, "nested more than", *vargs(write("vnnlib", "deep_parens.vnnlib", "(" * DEEP)))
    muts = {
        "undeclared": good.replace("(assert (>= Y_0 100))", "(assert (>= Z_9 100))"),
        "word_bound": good.replace("(<= X_0 1)", "(<= X_0 one)"),
        "unbounded": good.replace("(assert (<= X_0 1))\n", ""),
        "x_huge_index": good.replace("X_2 Real", "X_99999999999999999999 Real"),
        "unknown_op": good.replace("(>= Y_0 100)", "(~ Y_0 100)"),
        "garbage": "\x00\x01\x02 not smt",
        "unbalanced": good + ")))",
        "empty": "",
    }
    for name, src in muts.items():
        case("?", "", *vargs(write("vnnlib", "%s.vnnlib" % name, src)))


def run_and_cert():
    write("run", "tarjansafe.spec", read("specs/tarjansafe.spec"))
    spec = "$D/cases/run/tarjansafe.spec"
    doc = json.loads(read("bench/badinputs/seeds/run.json"))
    def rargs(f):
        return ("run", spec, "--replay", f)
    paths = [["version"], ["model"], ["steps"], ["steps", 0, "state"], ["steps", 0, "state", "layer"], ["steps", 0, "label"],
             ["steps", 0, "command_index"], ["steps", 0, "outcome"], ["end"]]
    json_mutations("run", "run", doc, paths, rargs)

    write("cert", "tarjansafe.spec", read("specs/tarjansafe.spec"))
    doc = json.loads(read("bench/badinputs/seeds/safe.cert.json"))
    def cargs(f):
        return ("cert", "check", f)
    paths = [["format"], ["version"], ["kind"], ["spec"], ["vars"], ["state"], ["entries"], ["entries", 0, "s"],
             ["entries", 0, "b"], ["entries", 0, "label"], ["radius"], ["policy"]]
    json_mutations("cert", "safe", doc, paths, cargs)
    case(1, "", *cargs(write("cert", "inv_garbage.smt2", "(assert (and " * 1000 + "\n")))
    case(1, "", *cargs(write("cert", "inv_deep.smt2", "(" * DEEP)))


def main():
    if os.path.isdir(CASES):
        shutil.rmtree(CASES)
    specs()
    jani()
    jani2nnet()
    trees()
    nn()
    run_and_cert()
    with open(os.path.join(HERE, "cases.txt"), "w") as f:
        f.write("# Generated by gen.py; outcomes marked ? there are recorded with\n")
        f.write("# go test ./cmd/vigil -run TestBadInputs -update-badinputs and reviewed.\n")
        f.write("# EXIT | SUBSTRING OF THE OUTPUT | ARGS ($D is bench/badinputs)\n")
        for l in lines:
            f.write(l + "\n")
    print("%d cases" % len(lines))


if __name__ == "__main__":
    main()
