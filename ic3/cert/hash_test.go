package cert

import (
	"testing"

	"vigil/symbolic"
)

// TestModelHashPathFree: the hash does not depend on the path a policy
// file was reached by (a certificate checks from any directory), only on
// its base name (and, for the certificate's policy, its content).
func TestModelHashPathFree(t *testing.T) {
	model := func(file string) *symbolic.Model {
		return &symbolic.Model{
			Name:     "m",
			Vars:     []symbolic.Var{{Name: "x", Lo: 0, Hi: 3, HasInit: true}},
			Labels:   []symbolic.Label{{Name: "a"}},
			Policies: []*symbolic.PolicyDecl{{Name: "net", Kind: symbolic.KindNN, File: file}},
		}
	}
	hash := func(file string) string {
		h, err := ModelHash(model(file), "p", "")
		if err != nil {
			t.Fatal(err)
		}
		return h
	}
	if a, b := hash("/home/u/models/net.onnx"), hash("../../models/net.onnx"); a != b {
		t.Errorf("the same file by two paths hashes to %s and %s", a, b)
	}
	if a, b := hash("models/net.onnx"), hash("models/other.onnx"); a == b {
		t.Errorf("two policy files hash alike: %s", a)
	}
}
