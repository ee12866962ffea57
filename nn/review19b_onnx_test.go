package nn

import (
	"encoding/base64"
	"strings"
	"testing"
)

// Models written by onnx.helper (bench/adversarial/review19b_onnx_*).
const (
	// y = x @ Transpose(W, perm=[0, 1]) with W = [[1, 2], [0, 0]].
	review19bPerm01 = `
CAgSADqBAQohCgFXEgJXdCIJVHJhbnNwb3NlKg0KBHBlcm1AAEABoAEHChIKAXgKAld0EgF5IgZNYXRNdWwSAWcqGwgCCAIQAUIBV0oQAACAPwAAAEAAAAAAAAAAAFoTCgF4Eg4KDAgBEggKAggBCgIIAmITCgF5Eg4KDAgBEggKAggBCgIIAkIECgAQDQ==`
	// Dropout(x, ratio 0.5, training_mode true), the bool in raw data.
	review19bDropTrain = `CAgSADpbChUKAXgKAXIKAXQSAXkiB0Ryb3BvdXQSAWcqCxABQgFySgQAAAA/KggQCUIBdEoBAVoTCgF4Eg4KDAgBEggKAggBCgIIAmITCgF5Eg4KDAgBEggKAggBCgIIAkIECgAQDQ==`
	// The same with training_mode false.
	review19bDropInfer = `CAgSADpbChUKAXgKAXIKAXQSAXkiB0Ryb3BvdXQSAWcqCxABQgFySgQAAAA/KggQCUIBdEoBAFoTCgF4Eg4KDAgBEggKAggBCgIIAmITCgF5Eg4KDAgBEggKAggBCgIIAkIECgAQDQ==`
)

func review19bModel(t *testing.T, b64 string) []byte {
	t.Helper()
	b, err := base64.StdEncoding.DecodeString(strings.TrimSpace(b64))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestReview19bTransposeIdentityPerm: a constant's Transpose with perm
// [0, 1] keeps the matrix; it was folded as the transpose.
func TestReview19bTransposeIdentityPerm(t *testing.T) {
	net, ok := parseOrRefused(t, "perm [0, 1]", review19bModel(t, review19bPerm01), "")
	if !ok {
		return
	}
	if y := net.Eval([]float64{1, 0}); y[0] != 1 || y[1] != 2 {
		t.Errorf("x W at (1, 0) = %v, want [1 2] (the first row of W)", y)
	}
}

// TestReview19bDropoutTraining: a Dropout in training mode is random in
// onnxruntime; it was read as the identity. In inference mode it is.
func TestReview19bDropoutTraining(t *testing.T) {
	parseOrRefused(t, "training_mode true", review19bModel(t, review19bDropTrain), `is in training mode (training_mode "t" is true)`)
	net, ok := parseOrRefused(t, "training_mode false", review19bModel(t, review19bDropInfer), "")
	if ok {
		if y := net.Eval([]float64{1, 2}); y[0] != 1 || y[1] != 2 {
			t.Errorf("inference Dropout at (1, 2) = %v, want [1 2]", y)
		}
	}
}
