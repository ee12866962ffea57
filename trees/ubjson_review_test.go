package trees

import (
	"strings"
	"testing"
)

// A high-precision number (H) that strconv reads but JSON cannot hold is
// named with its byte, not left to json.Marshal's bare "invalid number
// literal" (review20x).
func TestUBJSONHighPrecisionNotJSON(t *testing.T) {
	for _, h := range []string{"NaN", "+Inf", "0x1p-2", "1_0", ".5", "+1"} {
		doc := "{i\x07learner{i\x04testHi" + string(rune(len(h))) + h + "}}"
		_, err := Parse([]byte(doc))
		if err == nil || !strings.Contains(err.Error(), "UBJSON model, byte") || !strings.Contains(err.Error(), "is not a number") {
			t.Errorf("H %q: got %v, want the high-precision number named", h, err)
		}
	}
	// a valid one decodes (and is then refused as a model without trees,
	// not as a number)
	doc := "{i\x07learner{i\x04testHi\x061.5e-3}}"
	if _, err := Parse([]byte(doc)); err == nil || strings.Contains(err.Error(), "is not a number") {
		t.Errorf("H 1.5e-3: got %v", err)
	}
}

// Containers typed Z, T or F take no bytes per element; nested in a typed
// container of containers their total is bounded by the document's size
// (120 KB held 1.5 billion nulls before, out of memory).
func TestUBJSONEmptyElementsBounded(t *testing.T) {
	inner := "$Z#l\x00\x00\x05\xdc" // 1500 nulls
	doc := "{i\x07learner[$[#l\x00\x00\x00\xc8" + strings.Repeat(inner, 200) + "}"
	_, err := Parse([]byte(doc))
	if err == nil || !strings.Contains(err.Error(), "containers typed $Z hold") {
		t.Fatalf("got %v, want the typed nulls bounded", err)
	}
}
