package lang

import (
	"fmt"
	"strings"
	"testing"
)

// nestedIndex is a[a[...a[x]...]], depth reads deep.
func nestedIndex(depth int) string {
	e := "x"
	for k := 0; k < depth; k++ {
		e = "a[" + e + "]"
	}
	return e
}

// TestS30fNestedIndexLimit: a read or write at an index nested twelve
// arrays deep (arrays of 4 elements) ran the load out of memory (each
// case split copies its index once per element: 4 million nodes per
// read, 1.6 GB and growing). It is error E0802 at the access now, the
// check stopped there, while shallower nests, and a wide but shallow
// a[b[i]], load.
func TestS30fNestedIndexLimit(t *testing.T) {
	const head = "model m\nvar a : [0 .. 3] of 0 .. 3 = 0\nvar x : 0 .. 3 = 0\n"
	for _, c := range []struct {
		name, action, at string
	}{
		{"read", "action s -> x' = " + nestedIndex(12) + "\n", "m.spec:4:18"},
		{"write", "action s -> " + nestedIndex(13) + "' = 1\n", "m.spec:4:15"},
		{"guard", "action s when " + nestedIndex(12) + " > 0 -> x' = 0\n", "m.spec:4:15"},
		{"property", "action s -> x' = 0\nproperty q { unsafe x < 4 && " + nestedIndex(12) + " == 1 }\n", "m.spec:5:30"},
	} {
		t.Run(c.name, func(t *testing.T) {
			src := head + c.action + "property p { unsafe x == 3 }\n"
			m, diags := LoadSource("m.spec", []byte(src), Options{})
			if m != nil {
				t.Fatal("the model loaded")
			}
			got := diags.Render()
			if !strings.Contains(got, c.at+": error[E0802]: the index of a[a[a[") || !strings.Contains(got, "lowers to a case split of") || !strings.Contains(got, "store an inner index in a variable") {
				t.Errorf("want E0802 at %s, got:\n%s", c.at, got)
			}
			if n := strings.Count(got, "error["); n != 1 {
				t.Errorf("%d errors, want 1:\n%s", n, got)
			}
		})
	}
	for _, src := range []string{
		head + "action s -> x' = " + nestedIndex(8) + ", " + nestedIndex(7) + "' = 1\nproperty p { unsafe x == 3 }\n",
		fmt.Sprintf("model m\nvar a : [0 .. %d] of 0 .. 3 = 0\nvar b : [0 .. %[1]d] of 0 .. %[1]d = 0\nvar i : 0 .. %[1]d = 0\naction s -> i' = min(a[b[i]], %[1]d), a[b[i]]' = 1\nproperty p { unsafe i == 3 }\n", 499),
	} {
		if m, diags := LoadSource("m.spec", []byte(src), Options{}); m == nil {
			t.Errorf("did not load:\n%s", diags.Render())
		}
	}
}
