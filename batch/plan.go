package batch

// Experiments that a program writes rather than a person: Plan is the
// part of the experiment file's schema (exp.go) such a program fills in,
// Write turns it into an Experiment with its file kept beside the data,
// and Sizes and Scale expand constants over the sizes of a scaling
// benchmark. vigil bench ic3 is such a program: its experiment is
// IC3Algorithms over IC3Instances, written, run and reported like any
// other by IC3Bench (bench/ic3scaling.toml is the same experiment written
// down).

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	toml "github.com/pelletier/go-toml/v2"
)

// Plan is an experiment as a program writes it.
type Plan struct {
	Name       string          `toml:"name"`
	Limits     PlanLimits      `toml:"limits"`
	Algorithms []PlanAlgorithm `toml:"algorithms"`
	Instances  []PlanInstance  `toml:"instances"`
}

// PlanLimits are the limits of every run.
type PlanLimits struct {
	Time string `toml:"time"`
}

// PlanAlgorithm is one algorithm: the arguments of a vigil command, or of
// Program, with an optional preparation step and a verdict mapping.
type PlanAlgorithm struct {
	Name     string            `toml:"name"`
	Args     []string          `toml:"args"`
	Program  string            `toml:"program,omitempty"`
	Prepare  []string          `toml:"prepare,omitempty"`
	Verdicts map[string]string `toml:"verdicts,omitempty"`
}

// PlanInstance is one group of instances: models (globs), their policies
// and properties, constants, extra arguments and report attributes.
type PlanInstance struct {
	Domain     string            `toml:"domain"`
	Name       string            `toml:"name"`
	Models     []string          `toml:"models"`
	Policies   []string          `toml:"policies,omitempty"`
	Properties []string          `toml:"properties"`
	Defines    map[string]string `toml:"defines,omitempty"`
	Args       []string          `toml:"args,omitempty"`
	Attributes map[string]any    `toml:"attributes"`
}

// IC3Algorithms are the algorithms of the IC3 benchmark (vigil bench ic3
// and bench/ic3scaling.toml): ic3 (and ic3-nog with nog) and bfs, bounded
// by maxStates, as whole vigil verify processes, and Spacer as the z3
// binary at z3 on the CHC export of the same question.
func IC3Algorithms(z3 string, nog bool, maxStates int) []PlanAlgorithm {
	verify := func(engine string, extra ...string) PlanAlgorithm {
		args := []string{"verify", "{model}", "{defines}", "{policy_flag}", "{property_flag}", "{args}", "--engine", engine}
		args = append(args, extra...)
		return PlanAlgorithm{Name: engine, Args: append(args, "--timeout", "{time}", "--json")}
	}
	as := []PlanAlgorithm{verify("ic3")}
	if nog {
		as = append(as, verify("ic3-nog"))
	}
	return append(as, verify("bfs", "--max-states", fmt.Sprint(maxStates)), PlanAlgorithm{
		Name:     "spacer",
		Prepare:  []string{"export", "--chc", "{model}", "{defines}", "{policy_flag}", "{property_flag}", "{args}", "-o", "{run_dir}/question.smt2"},
		Program:  z3,
		Args:     []string{"{run_dir}/question.smt2"},
		Verdicts: map[string]string{"sat": "safe", "unsat": "unsafe"},
	})
}

// Write writes the plan into dir/NAME.toml, with a first comment line
// saying who wrote it, and loads it as an experiment whose results go to
// dir/data. Its paths stay relative to the current directory, where its
// commands run.
func (p *Plan) Write(dir, writer string) (*Experiment, error) {
	src, err := toml.Marshal(p)
	if err != nil {
		return nil, err
	}
	name := p.Name + ".toml"
	x, err := Parse(name, src)
	if err != nil {
		return nil, err
	}
	x.Data = filepath.Join(dir, "data")
	x.File = filepath.Join(dir, name)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	header := "# written by " + writer + "; the paths are relative to the directory it ran in\n"
	if err := os.WriteFile(x.File, append([]byte(header), src...), 0o644); err != nil {
		return nil, err
	}
	return x, nil
}

// Scale holds the values of constants a scaling benchmark runs at: per
// constant name, its values. As a flag.Value it reads NAME=V1,V2,... with
// the values written as ParseScale reads them.
type Scale map[string][]string

func (s Scale) String() string { return "" }

// Set adds the values of one NAME=V1,V2,...
func (s Scale) Set(v string) error {
	name, vals, ok := strings.Cut(v, "=")
	name = strings.TrimSpace(name)
	if !ok || name == "" || strings.TrimSpace(vals) == "" {
		return fmt.Errorf("want NAME=V1,V2,..., got %q", v)
	}
	for _, x := range strings.Split(vals, ",") {
		x = strings.TrimSpace(x)
		n, err := ParseScale(x)
		if err != nil {
			return fmt.Errorf("%s: %v", name, err)
		}
		s[name] = append(s[name], strconv.FormatInt(n, 10))
	}
	return nil
}

// MaxScaleSizes is the most sizes --scale may give one model: each is a
// model loaded and a row of runs.
const MaxScaleSizes = 10_000

// Sizes returns the sizes of a model that declares the constants consts:
// every combination of the values s gives those of them it scales (one
// empty size when it scales none); more than MaxScaleSizes is an error.
func (s Scale) Sizes(consts []string) ([]map[string]string, error) {
	n, counts := 1, []string(nil)
	for _, c := range consts {
		if vals, ok := s[c]; ok {
			counts = append(counts, fmt.Sprintf("%d values of %s", len(vals), c))
			if n = n * len(vals); n > MaxScaleSizes {
				return nil, fmt.Errorf("--scale makes more than %d sizes (%s); give fewer values", MaxScaleSizes, strings.Join(counts, " x "))
			}
		}
	}
	sizes := []map[string]string{{}}
	for _, c := range consts {
		vals, ok := s[c]
		if !ok {
			continue
		}
		var next []map[string]string
		for _, d := range sizes {
			for _, v := range vals {
				nd := map[string]string{c: v}
				for k, x := range d {
					nd[k] = x
				}
				next = append(next, nd)
			}
		}
		sizes = next
	}
	return sizes, nil
}

// ParseScale reads a whole number, also written 1e6 or 10^6, up to 2^53.
func ParseScale(x string) (int64, error) {
	if n, err := strconv.ParseInt(x, 10, 64); err == nil {
		return n, nil
	}
	bad := fmt.Errorf("want a whole number (1000, 1e6, 10^9), got %q", x)
	b, e, ok := strings.Cut(x, "^")
	if !ok {
		b, e, ok = strings.Cut(strings.ToLower(x), "e")
		if !ok {
			return 0, bad
		}
		// mantissa e exponent: mantissa * 10^exp
		mant, err1 := strconv.ParseInt(b, 10, 64)
		k, err2 := strconv.ParseInt(e, 10, 64)
		if err1 != nil || err2 != nil || k < 0 {
			return 0, bad
		}
		if mant == 0 {
			return 0, nil // 0e999999999999 would loop without growing
		}
		n := mant
		for range k {
			if n *= 10; n > 1<<53 || n < -(1<<53) {
				return 0, fmt.Errorf("%q is beyond 2^53", x)
			}
		}
		return n, nil
	}
	base, err1 := strconv.ParseInt(b, 10, 64)
	exp, err2 := strconv.ParseInt(e, 10, 64)
	if err1 != nil || err2 != nil || exp < 0 {
		return 0, bad
	}
	switch {
	case base == 0 && exp > 0:
		return 0, nil
	case base == 1, exp == 0:
		return 1, nil
	case base == -1:
		return 1 - 2*(exp%2), nil // 1^999999999999 would loop without growing
	}
	n := int64(1)
	for range exp {
		if n *= base; n > 1<<53 || n < -(1<<53) {
			return 0, fmt.Errorf("%q is beyond 2^53", x)
		}
	}
	return n, nil
}

// SizeName names a size row: its constants ("N=1000 W=3"), or "base".
func SizeName(d map[string]string) string {
	if len(d) == 0 {
		return "base"
	}
	return DefinesText(d)
}

// DefinesText writes constants as "A=1 B=2", sorted by name.
func DefinesText(d map[string]string) string {
	ks := make([]string, 0, len(d))
	for k := range d {
		ks = append(ks, k)
	}
	slices.Sort(ks)
	parts := make([]string, len(ks))
	for i, k := range ks {
		parts[i] = k + "=" + d[k]
	}
	return strings.Join(parts, " ")
}

// GlobEscape quotes the glob metacharacters of a file name, since an
// experiment's models are globs.
func GlobEscape(p string) string {
	return strings.NewReplacer(`\`, `\\`, "*", `\*`, "?", `\?`, "[", `\[`).Replace(p)
}
