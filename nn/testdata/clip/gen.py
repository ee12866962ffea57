# Regenerates the ONNX exports and torch's float64 outputs that
# nn/clip_onnx_test.go reads (run with /usr/bin/python3: torch, onnx).
# Clip (ReLU6, Hardtanh, clamp with one bound), Squeeze/Unsqueeze and the
# Shape -> Gather -> Unsqueeze -> Concat -> Reshape chain of x.view(x.size(0), -1),
# exported at opsets 9, 11, 13 and 17 with a dynamic batch axis.
import json, os, warnings
import numpy as np, torch, torch.nn as nn
warnings.filterwarnings("ignore")
torch.manual_seed(19)
here = os.path.dirname(os.path.abspath(__file__))

class Clamp(nn.Module):
    def __init__(s, lo, hi): super().__init__(); s.a = nn.Linear(4, 8); s.b = nn.Linear(8, 3); s.lo, s.hi = lo, hi
    def forward(s, x): return s.b(s.a(x).clamp(min=s.lo, max=s.hi))
class View(nn.Module):
    def __init__(s): super().__init__(); s.a = nn.Linear(4, 8); s.b = nn.Linear(8, 3)
    def forward(s, x): return s.b(nn.functional.relu6(s.a(x.view(x.size(0), -1))))
class Unsq(nn.Module):
    def __init__(s): super().__init__(); s.l = nn.Linear(4, 3)
    def forward(s, x): return nn.functional.hardtanh(s.l(x.unsqueeze(1)).squeeze(1), -0.5, 0.25)

cases = {
    "relu6": nn.Sequential(nn.Linear(4, 8), nn.ReLU6(), nn.Linear(8, 3)),
    "hardtanh": nn.Sequential(nn.Linear(4, 8), nn.Hardtanh(), nn.Linear(8, 3)),
    "clampmin": Clamp(-0.25, None),
    "clampmax": Clamp(None, 0.75),
    "view": View(),
    "unsq": Unsq(),
    "exact": nn.Sequential(nn.Hardtanh(-1.5, 2.5)),
}
rng = np.random.default_rng(19)
xs = [rng.normal(size=4) * s for s in (0.5, 1, 2, 4, 8) for _ in range(4)]
xs += [np.array([6.0, -1.5, 2.5, 0.0]), np.array([-0.0, 1e300, -1e300, 2.5000000000000004])]
refs = {"inputs": [x.tolist() for x in xs], "outputs": {}}
for name, mod in cases.items():
    mod.eval()
    for opset in (9, 11, 13, 17):
        f = f"{name}_{opset}.onnx"
        torch.onnx.export(mod.float(), torch.zeros(1, 4), os.path.join(here, f), opset_version=opset,
                          input_names=["obs"], dynamic_axes={"obs": {0: "batch"}})
        ref = mod.double()
        with torch.no_grad():
            ys = [ref(torch.tensor(x).reshape(1, 4)).numpy().ravel().tolist() for x in xs]
        refs["outputs"][f] = ys
with open(os.path.join(here, "refs.json"), "w") as fh:
    json.dump(refs, fh)
