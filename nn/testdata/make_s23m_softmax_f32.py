#!/usr/bin/python3
"""Writes two float32 ONNX policies ending in Softmax, for
nn/s23m_softmax_test.go and bench/adversarial/s23m_softmax_float32_ties.txtar:
their float32 evaluation (torch, onnxruntime) ties where vigil's float64
evaluation (lang/spec.md) does not.

s23m_softmax_tie.onnx: one input x, logits (0, 1e-8 (1 + x)). In float32
exp(-1e-8 (1 + x)) rounds to 1, so both probabilities are 0.5 and the
arg-max is output 0; in float64 output 1 is larger.

s23m_softmax_under.onnx: logits (0, -120 + 0 x, -110 + 0 x). In float32
exp(-120) and exp(-110) underflow to 0 (below e^-103.97), so outputs 1
and 2 tie at 0; in float64 output 2 is larger (e^-110 > e^-120). Where
output 0's label is not applicable, a float32 runtime picks output 1,
vigil output 2.

Needs Debian's python3-torch and python3-onnx. Run from this directory."""
import torch


class Net(torch.nn.Module):
    def __init__(self, w, b):
        super().__init__()
        self.l = torch.nn.Linear(1, len(b))
        with torch.no_grad():
            self.l.weight[:] = torch.tensor(w)
            self.l.bias[:] = torch.tensor(b)

    def forward(self, x):
        return torch.softmax(self.l(x), dim=-1)


for name, w, b in (
    ("s23m_softmax_tie", [[0.0], [1e-8]], [0.0, 1e-8]),
    ("s23m_softmax_under", [[0.0], [0.0], [0.0]], [0.0, -120.0, -110.0]),
):
    net = Net(w, b).eval()
    x = torch.tensor([[0.0], [0.5], [1.0]])
    print(name, "float32 probabilities", net(x).tolist())
    torch.onnx.export(net, torch.zeros(1, 1), name + ".onnx", input_names=["obs"],
                      output_names=["probs"], opset_version=13)
