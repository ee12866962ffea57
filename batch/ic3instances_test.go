package batch

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"time"
)

// IC3Instances: a domain per file (numbered when stems clash), an instance
// per size, files whose policies are all learned skipped, and the loader's
// error passed on.
func TestIC3Instances(t *testing.T) {
	t.Chdir(t.TempDir())
	s := Scale{}
	if err := s.Set("N=10,20"); err != nil {
		t.Fatal(err)
	}
	var loads []string
	facts := func(file string, defs map[string]string) (ModelFacts, error) {
		loads = append(loads, file+" "+DefinesText(defs))
		switch file {
		case "learned.spec":
			return ModelFacts{Properties: []string{"p"}, HasPolicies: true}, nil
		case "bad.spec":
			return ModelFacts{}, errors.New("bad")
		}
		return ModelFacts{Consts: []string{"N"}, Properties: []string{"p"}, Policies: []string{"r"}, HasPolicies: true, Log2States: 3.14159}, nil
	}
	got, err := IC3Instances([]string{"a/line.spec", "b/line.spec", "learned.spec"}, map[string]string{"K": "1"}, s, []string{"--start", "s.jani"}, facts)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, in := range got {
		names = append(names, in.Domain+"/"+in.Name)
	}
	if want := []string{"line/N10", "line/N20", "line2/N10", "line2/N20"}; !reflect.DeepEqual(names, want) {
		t.Errorf("instances %v, want %v", names, want)
	}
	in := got[1]
	if !reflect.DeepEqual(in.Models, []string{"a/line.spec"}) || !reflect.DeepEqual(in.Defines, map[string]string{"K": "1", "N": "20"}) ||
		in.Attributes["size"] != "N=20" || in.Attributes["log2_states"] != 3.1 || !reflect.DeepEqual(in.Args, []string{"--start", "s.jani"}) {
		t.Errorf("instance %+v", in)
	}
	if loads[0] != "a/line.spec K=1" || loads[1] != "a/line.spec K=1 N=10" {
		t.Errorf("loads %v: want the file with -D first, then each size", loads)
	}
	if _, err := IC3Instances([]string{"bad.spec"}, nil, s, nil, facts); err == nil || err.Error() != "bad" {
		t.Errorf("a failing load: %v, want its error", err)
	}
}

// IC3Bench refuses files without a property ic3 decides before it writes
// or runs anything.
func TestIC3BenchNoInstances(t *testing.T) {
	data := filepath.Join(t.TempDir(), "data")
	_, err := IC3Bench(context.Background(), IC3BenchOptions{Files: []string{"a.spec"}, Data: data, Limit: time.Second,
		Facts: func(string, map[string]string) (ModelFacts, error) { return ModelFacts{}, nil }})
	if !errors.Is(err, ErrNoIC3Instances) {
		t.Errorf("IC3Bench = %v, want ErrNoIC3Instances", err)
	}
	if _, err := os.Stat(data); !os.IsNotExist(err) {
		t.Errorf("the data directory was made: %v", err)
	}
}
