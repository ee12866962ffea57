package nn

import (
	"encoding/json"
	"math"
	"os"
	"strings"
	"testing"
)

// An actor-critic exported whole (torch.onnx.export of a module returning
// the logits and the value, opset 13) has two graph outputs: refused,
// naming both and how to export the actor alone.
func TestONNXTwoOutputsNamed(t *testing.T) {
	_, err := LoadONNX("testdata/actor_critic.onnx")
	if err == nil {
		t.Fatal("an actor-critic with two outputs loaded")
	}
	for _, want := range []string{`2 outputs ("logits" [1 3], "value" [1 1])`, "only those", "tools/sb3_to_onnx.py"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q lacks %q", err, want)
		}
	}
}

// outputFixtures is output/expected.json (make_output_fixtures.py): torch's
// float64 logits, values and arg-max actions at a few inputs.
type outputFixtures struct {
	Inputs  [][]float64 `json:"inputs"`
	Logits  [][]float64 `json:"logits"`
	Values  [][]float64 `json:"values"`
	Actions []int       `json:"actions"`
}

// An actor-critic exported as Stable-Baselines3's export guide does
// (actions, values, log_prob): read through a named output. "actions" is
// the ArgMax of Categorical(logits).probs: vigil reads the Softmax of the
// logits (the x - ReduceLogSumExp(x) before it read as the identity), whose
// arg-max is torch's action; "values" is the critic; log_prob (a gather)
// is refused by its op, and a name that is no output lists them.
func TestONNXChooseOutput(t *testing.T) {
	b, err := os.ReadFile("testdata/output/expected.json")
	if err != nil {
		t.Fatal(err)
	}
	var exp outputFixtures
	if err := json.Unmarshal(b, &exp); err != nil {
		t.Fatal(err)
	}
	if _, err := LoadONNX("testdata/output/sb3_ppo.onnx"); err == nil || !strings.Contains(err.Error(), `output "NAME"`) || !strings.Contains(err.Error(), `"log_prob"`) {
		t.Errorf("three outputs, none named: %v", err)
	}
	act, err := LoadONNXOutput("testdata/output/sb3_ppo.onnx", "actions")
	if err != nil {
		t.Fatal(err)
	}
	if act.Out != OutSoftmax || act.Inputs() != 3 || act.Outputs() != 4 {
		t.Fatalf("actions: out %v, %d inputs, %d outputs", act.Out, act.Inputs(), act.Outputs())
	}
	val, err := LoadONNXOutput("testdata/output/sb3_ppo.onnx", "values")
	if err != nil {
		t.Fatal(err)
	}
	raw, err := LoadONNX("testdata/output/argmax_logits.onnx") // one output: ArgMax(logits)
	if err != nil {
		t.Fatal(err)
	}
	for i, x := range exp.Inputs {
		y := act.Eval(x)
		// softmax of torch's logits, to compare
		m := math.Inf(-1)
		for _, v := range exp.Logits[i] {
			m = math.Max(m, v)
		}
		sum := 0.0
		for _, v := range exp.Logits[i] {
			sum += math.Exp(v - m)
		}
		for j, v := range exp.Logits[i] {
			if want := math.Exp(v-m) / sum; math.Abs(y[j]-want) > 1e-12 {
				t.Errorf("actions at %v: score %d = %v, softmax of torch's logits %v", x, j, y[j], want)
			}
		}
		if got := argmaxFirst(y); got != exp.Actions[i] {
			t.Errorf("actions at %v: vigil's arg-max %d, torch's action %d", x, got, exp.Actions[i])
		}
		r := raw.Eval(x)
		for j, v := range exp.Logits[i] {
			if math.Abs(r[j]-v) > 1e-12 {
				t.Errorf("argmax_logits at %v: score %d = %v, torch's logit %v", x, j, r[j], v)
			}
		}
		if v := val.Eval(x); len(v) != 1 || math.Abs(v[0]-exp.Values[i][0]) > 1e-12 {
			t.Errorf("values at %v: %v, torch %v", x, v, exp.Values[i])
		}
	}
	for _, c := range []struct{ file, output, want string }{
		{"sb3_ppo.onnx", "log_prob", "unsupported op"},
		{"sb3_ppo.onnx", "action", `no output "action"; its outputs are "actions"`},
		{"argmax_axis0.onnx", "", "a batch axis?"},
		{"argmax_lastindex.onnx", "", "select_last_index 1"},
		// not the normalisation read as the identity: refused by its op
		{"lse_reversed.onnx", "actions", "unsupported op ReduceLogSumExp"},
		{"lse_axis0.onnx", "actions", "unsupported op ReduceLogSumExp"},
		// another domain's ops, even named like standard ones
		{"dom_relu.onnx", "", `node 1 (Relu) is an op of the domain "com.example"`},
		{"dom_argmax.onnx", "", `node 2 (ArgMax) is an op of the domain "com.example"`},
	} {
		_, err := LoadONNXOutput("testdata/output/"+c.file, c.output)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s output %q: %v, want %q", c.file, c.output, err, c.want)
		}
	}
	if n, err := LoadONNX("testdata/output/dom_std.onnx"); err != nil || n.Outputs() != 2 {
		t.Errorf("dom_std.onnx (domain ai.onnx): %v", err)
	} else if y := n.Eval([]float64{1, 2}); y[0] != 5 || y[1] != 0 {
		t.Errorf("dom_std.onnx at (1, 2): %v, want relu((1, -1) + 2 (2, 0.5)) = (5, 0)", y)
	}
	// the older two-output fixture, each output by name
	if n, err := LoadONNXOutput("testdata/actor_critic.onnx", "logits"); err != nil || n.Outputs() != 3 {
		t.Errorf("actor_critic.onnx logits: %v", err)
	}
	if n, err := LoadONNXOutput("testdata/actor_critic.onnx", "value"); err != nil || n.Outputs() != 1 {
		t.Errorf("actor_critic.onnx value: %v", err)
	}
	if _, err := LoadOutput("testdata/nnet.nnet", "actions"); err == nil || !strings.Contains(err.Error(), "NNet file") {
		t.Errorf("an output named for an NNet file: %v", err)
	}
}

func argmaxFirst(y []float64) int {
	k := 0
	for j := range y {
		if y[j] > y[k] {
			k = j
		}
	}
	return k
}
