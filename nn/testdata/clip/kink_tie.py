# Writes tie.onnx and good.onnx of bench/adversarial/review19c_onnx_clip_kink_tie.txtar (and their base64).
import onnx, onnx.helper as H, numpy as np, base64
from onnx import TensorProto as T
def net(swap, opset):
    W = np.array([[1.0, 0.0]], dtype=np.float32)   # x -> (x, 0)
    b = np.array([-10.0, 0.3], dtype=np.float32)   # (x - 10, 0.3f)
    if swap: W, b = W[:, ::-1].copy(), b[::-1].copy()
    inits = [H.make_tensor("W", T.FLOAT, [1, 2], W.ravel()), H.make_tensor("b", T.FLOAT, [2], b)]
    nodes = [H.make_node("Gemm", ["x", "W", "b"], ["h"])]
    if opset < 11:
        nodes.append(H.make_node("Clip", ["h"], ["y"], min=-1.0, max=0.3))
    else:
        inits.append(H.make_tensor("hi", T.FLOAT, [], [0.3]))
        nodes.append(H.make_node("Clip", ["h", "", "hi"], ["y"]))
    g = H.make_graph(nodes, "g", [H.make_tensor_value_info("x", T.FLOAT, ["batch", 1])],
                     [H.make_tensor_value_info("y", T.FLOAT, ["batch", 2])], inits)
    m = H.make_model(g, opset_imports=[H.make_opsetid("", opset)])
    onnx.checker.check_model(m)
    return m.SerializeToString()
for name, swap, opset in (("tie", False, 9), ("good", True, 13)):
    open(name + ".onnx", "wb").write(net(swap, opset))
    print(name, len(net(swap, opset)))
    open(name + ".b64", "w").write(base64.encodebytes(net(swap, opset)).decode())
