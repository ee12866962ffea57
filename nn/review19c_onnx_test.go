package nn

import "testing"

// Models written by onnx.helper (testdata/clip/review19c.py;
// the torch exports are in testdata/clip): what vigil still refuses, and a
// shape chain with opset 15's Shape start and end.
const (
	review19cClipComputed  = `CAg6SgoRCgF4CgFtCgASAXkiBENsaXASAWdaGAoBeBITChEIARINCgcSBWJhdGNoCgIIBGIYCgF5EhMKEQgBEg0KBxIFYmF0Y2gKAggEQgQKABAN`
	review19cClipMinGtMax  = `CAg6aQoUCgF4CgJsbwoCaGkSAXkiBENsaXASAWcqDBABIgQAAABAQgJsbyoMEAEiBAAAgD9CAmhpWhgKAXgSEwoRCAESDQoHEgViYXRjaAoCCARiGAoBeRITChEIARINCgcSBWJhdGNoCgIIBEIECgAQDQ==`
	review19cShapeArith    = `CAg6mwEKDQoBeBIBcyIFU2hhcGUKHgoBcwoBaRIBZCIGR2F0aGVyKgsKBGF4aXMYAKABAgoYCgFkEgJkZiIEQ2FzdCoJCgJ0bxgBoAECCg8KAXgKAmRmEgF5IgNBZGQSAWcqCBAHOgEBQgFpWhgKAXgSEwoRCAESDQoHEgViYXRjaAoCCARiGAoBeRITChEIARINCgcSBWJhdGNoCgIIBEIECgAQDQ==`
	review19cShapeAdd      = `CAg6gAEKDQoBeBIBcyIFU2hhcGUKHgoBcwoBaRIBZCIGR2F0aGVyKgsKBGF4aXMYAKABAgoOCgF4CgFkEgF5IgNBZGQSAWcqCBAHOgEBQgFpWhgKAXgSEwoRCAESDQoHEgViYXRjaAoCCARiGAoBeRITChEIARINCgcSBWJhdGNoCgIIBEIECgAQDQ==`
	review19cSqueezeNot1   = `CAg6VwoSCgF4CgFhEgF5IgdTcXVlZXplEgFnKgoIARAHOgEBQgFhWhgKAXgSEwoRCAESDQoHEgViYXRjaAoCCARiGAoBeRITChEIARINCgcSBWJhdGNoCgIIBEIECgAQDQ==`
	review19cShapeStartEnd = `CAg6gQIKJwoBeBIBcyIFU2hhcGUqCgoDZW5kGAGgAQIqDAoFc3RhcnQYAKABAgofCgFzCgJtMRIBYyIGQ29uY2F0KgsKBGF4aXMYAKABAgoSCgF4CgFjEgFyIgdSZXNoYXBlChQKAXIKAWESAXUiCVVuc3F1ZWV6ZQoPCgF1EgF2IgdTcXVlZXplChUKAXYKAmEwEgF5IglVbnNxdWVlemUSAWcqFAgBEAc6Cv///////////wFCAm0xKgoIARAHOgECQgFhKgsIARAHOgEAQgJhMFoYCgF4EhMKEQgBEg0KBxIFYmF0Y2gKAggEYhcKAXkSEgoQCAESDAoCCAEKAggBCgIIBEIECgAQDw==`
)

// TestReview19cRefusals: Clip with a computed bound or min > max, a
// shape used as a value, and a Squeeze of an axis of size 4 are refused
// by name.
func TestReview19cRefusals(t *testing.T) {
	for _, c := range []struct{ name, b64, want string }{
		{"Clip(x, m) with m computed", review19cClipComputed, `its minimum "m" is computed, not a constant`},
		{"Clip(x, 2, 1)", review19cClipMinGtMax, "clips to [2, 1]; vigil reads Clip with min <= max"},
		{"x + float(shape(x)[1])", review19cShapeArith, `computes with "d", which is taken from the data's shape`},
		{"x + shape(x)[1]", review19cShapeAdd, `computes with "d", which is taken from the data's shape`},
		{"Squeeze(x [batch, 4], axes [1])", review19cSqueezeNot1, "squeezes axis 1 of shape [1 4], which is not of size 1"},
	} {
		parseOrRefused(t, c.name, review19bModel(t, c.b64), c.want)
	}
}

// TestReview19cShapeStartEnd: Reshape(x, Concat(Shape(x, end=1), [-1]))
// then Unsqueeze, Squeeze (every axis of size 1) and Unsqueeze keep x.
func TestReview19cShapeStartEnd(t *testing.T) {
	net, ok := parseOrRefused(t, "shape chain", review19bModel(t, review19cShapeStartEnd), "")
	if !ok {
		return
	}
	if y := net.Eval([]float64{1, -2, 3.5, 0}); y[0] != 1 || y[1] != -2 || y[2] != 3.5 || y[3] != 0 {
		t.Errorf("identity chain at (1, -2, 3.5, 0) = %v", y)
	}
}
