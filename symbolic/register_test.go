package symbolic

import (
	"strings"
	"testing"
)

// Without its package's registration, a learned kind is refused with a
// message that says how a Go program links it in.
func TestInstantiateUnregisteredKind(t *testing.T) {
	m := &Model{Vars: []Var{{Name: "x", Lo: 0, Hi: 1}}, Labels: []Label{{Name: "a"}}}
	_, err := Instantiate(m, &PolicyDecl{Name: "p", Kind: KindNN, File: "net.onnx", Outputs: []LabelID{0}})
	if err == nil || !strings.Contains(err.Error(), "importing package vigil/nn") {
		t.Errorf("got %v, want a refusal that names package vigil/nn", err)
	}
}
