# Writes the onnx.helper models of nn/review19c_onnx_test.go (printed as Go constants).
import onnx, onnx.helper as H, numpy as np, base64
from onnx import TensorProto as T
def model(nodes, inits, opset, shape=["batch", 4], out=["batch", 4]):
    g = H.make_graph(nodes, "g", [H.make_tensor_value_info("x", T.FLOAT, shape)],
                     [H.make_tensor_value_info("y", T.FLOAT, out)], inits)
    m = H.make_model(g, opset_imports=[H.make_opsetid("", opset)])
    return base64.b64encode(m.SerializeToString()).decode()
i64 = lambda n, v, d=None: H.make_tensor(n, T.INT64, [len(v)] if d is None else d, v)
f32 = lambda n, v: H.make_tensor(n, T.FLOAT, [], [v])
cases = {
 "ClipComputed": model([H.make_node("Clip", ["x", "m", ""], ["y"])], [], 13),
 "ClipMinGtMax": model([H.make_node("Clip", ["x", "lo", "hi"], ["y"])], [f32("lo", 2.0), f32("hi", 1.0)], 13),
 "ShapeArith": model([H.make_node("Shape", ["x"], ["s"]), H.make_node("Gather", ["s", "i"], ["d"], axis=0),
                      H.make_node("Cast", ["d"], ["df"], to=T.FLOAT), H.make_node("Add", ["x", "df"], ["y"])], [i64("i", [1], [])], 13),
 "ShapeAdd": model([H.make_node("Shape", ["x"], ["s"]), H.make_node("Gather", ["s", "i"], ["d"], axis=0),
                    H.make_node("Add", ["x", "d"], ["y"])], [i64("i", [1], [])], 13),
 "SqueezeNot1": model([H.make_node("Squeeze", ["x", "a"], ["y"])], [i64("a", [1])], 13),
 "ShapeStartEnd": model([H.make_node("Shape", ["x"], ["s"], start=0, end=1), H.make_node("Concat", ["s", "m1"], ["c"], axis=0),
                         H.make_node("Reshape", ["x", "c"], ["r"]), H.make_node("Unsqueeze", ["r", "a"], ["u"]),
                         H.make_node("Squeeze", ["u"], ["v"]), H.make_node("Unsqueeze", ["v", "a0"], ["y"])],
                        [i64("m1", [-1]), i64("a", [2]), i64("a0", [0])], 15, out=[1, 1, 4]),
}
for k, v in cases.items(): print(f"\treview19c{k} = `{v}`")
