package batch

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// A program writes the IC3 benchmark as a plan; the file it leaves parses
// back as the same experiment.
func TestPlanWrite(t *testing.T) {
	s := Scale{}
	for _, v := range []string{"N=1000,10^6", "W=2,1e1"} {
		if err := s.Set(v); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.Set("N=1e99"); err == nil || !strings.Contains(err.Error(), "beyond 2^53") {
		t.Errorf("Set(N=1e99) = %v, want beyond 2^53", err)
	}
	sizes, err := s.Sizes([]string{"N", "K", "W"})
	if err != nil || len(sizes) != 4 || SizeName(sizes[3]) != "N=1000000 W=10" || SizeName(nil) != "base" {
		t.Errorf("sizes %v", sizes)
	}
	big := Scale{}
	for _, v := range []string{"A=" + strings.Repeat("1,", 200) + "1", "B=" + strings.Repeat("2,", 200) + "2"} {
		if err := big.Set(v); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := big.Sizes([]string{"A", "B"}); err == nil || !strings.Contains(err.Error(), "more than 10000 sizes (201 values of A x 201 values of B)") {
		t.Errorf("201 x 201 sizes: %v, want the limit", err)
	}
	p := &Plan{Name: "bench-ic3", Limits: PlanLimits{Time: "20s"}, Algorithms: IC3Algorithms("/usr/bin/z3", true, 100)}
	dir := t.TempDir()
	t.Chdir(dir) // the plan's paths are relative to the current directory
	model := "a[1].spec"
	if err := os.WriteFile(model, []byte("model a\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	p.Instances = append(p.Instances, PlanInstance{Domain: "line", Name: "N1000", Models: []string{GlobEscape(model)},
		Properties: []string{"p"}, Defines: sizes[0], Attributes: map[string]any{"size": SizeName(sizes[0])}})
	x, err := p.Write(filepath.Join(dir, "kept"), "a test")
	if err != nil {
		t.Fatal(err)
	}
	names := x.Algorithms
	if want := []string{"ic3", "ic3-nog", "bfs", "spacer"}; !reflect.DeepEqual(names, want) {
		t.Errorf("algorithms %v, want %v", names, want)
	}
	src, err := os.ReadFile(x.File)
	if err != nil || !strings.HasPrefix(string(src), "# written by a test;") {
		t.Errorf("file %s: %v\n%s", x.File, err, src)
	}
	back, err := Parse("bench-ic3.toml", src) // its paths are relative to the directory it ran in
	if err != nil {
		t.Fatal(err)
	}
	if len(back.Algorithms) != 4 || back.Name != "bench-ic3" {
		t.Errorf("read back: %+v", back)
	}
}
