package jani

import (
	"os"
	"strings"
	"testing"
)

// TestArrays: a model with an int array (av) and a bool array (ac),
// read and written with constant and variable indices, imports as one
// variable per element and has the states a hand count gives. i only
// grows, and a[i] is decremented while i stays: a[0] in {1, 0} at every
// i, a[1] stays 0, a[2] in {2, 1, 0} once i == 2: 2 + 2 + 2*3 = 10 states,
// times the two values f takes ([true,false] and, flipped, [false,true]).
func TestArrays(t *testing.T) {
	data, err := os.ReadFile("testdata/array.jani")
	if err != nil {
		t.Fatal(err)
	}
	m, _, err := Decode("array.jani", data, nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, v := range m.Vars {
		names = append(names, v.Name)
	}
	if got := strings.Join(names, " "); got != "a[0] a[1] a[2] f[0] f[1] i" {
		t.Fatalf("variables %s", got)
	}
	n, err := reachable(m, 1000)
	if err != nil {
		t.Fatal(err)
	}
	if n != 20 {
		t.Errorf("%d reachable states, want 20", n)
	}
	s, _ := m.InitialState()
	if got := m.FormatState(s); got != "a=[1,0,2] f=[true,false] i=0" {
		t.Errorf("initial state %s", got)
	}
}
