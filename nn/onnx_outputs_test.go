package nn

import (
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
