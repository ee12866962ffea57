package batch

// The instances of vigil bench ic3's experiment: per model file and per
// size of --scale, the properties ic3 decides with each rules or table
// policy. batch runs vigil as whole processes and does not load models
// itself, so the caller says what a model holds (ModelFacts).

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
)

// ModelFacts are what IC3Instances needs to know of a model file loaded
// with some constants.
type ModelFacts struct {
	Consts      []string // the constants it declares
	Properties  []string // its properties that ic3 decides
	Policies    []string // its rules and table policies
	HasPolicies bool     // it declares policies (perhaps only learned ones)
	Log2States  float64  // log2 of the size of its state space
}

// IC3Instances lists the instances of files for IC3Algorithms: each file
// is a domain named by its stem (numbered when two files share one); each
// size (every combination of the values scale gives the constants the
// file declares) is an instance with the properties ic3 decides and the
// rules and table policies (a model without policies: all labels; a model
// with learned policies only is skipped, bench/polic3-*.toml measures
// those). defs are the constants of every file and args the extra
// arguments of every run. facts loads a file with constants; an error it
// returns ends the listing as it is.
func IC3Instances(files []string, defs map[string]string, scale Scale, args []string, facts func(file string, defs map[string]string) (ModelFacts, error)) ([]PlanInstance, error) {
	var out []PlanInstance
	domains := map[string]int{}
	for _, file := range files {
		insts, err := ic3FileInstances(file, defs, scale, args, facts)
		if err != nil {
			return nil, err
		}
		dom := strings.TrimSuffix(filepath.Base(file), filepath.Ext(file))
		if domains[dom]++; domains[dom] > 1 {
			dom = fmt.Sprintf("%s%d", dom, domains[dom])
		}
		for _, in := range insts {
			in.Domain = dom
			out = append(out, in)
		}
	}
	return out, nil
}

// ic3FileInstances lists the instances of one file, one per size.
func ic3FileInstances(file string, defs map[string]string, scale Scale, args []string, facts func(string, map[string]string) (ModelFacts, error)) ([]PlanInstance, error) {
	base, err := facts(file, defs)
	if err != nil {
		return nil, err
	}
	rel, err := filepath.Rel(".", file)
	if err != nil || filepath.IsAbs(file) {
		if wd, werr := os.Getwd(); werr == nil {
			rel, err = filepath.Rel(wd, file)
		}
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %v", file, err)
	}
	sizes, err := scale.Sizes(base.Consts)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", file, err)
	}
	var out []PlanInstance
	for _, size := range sizes {
		all := map[string]string{}
		for k, v := range defs {
			all[k] = v
		}
		for k, v := range size {
			all[k] = v
		}
		f, err := facts(file, all)
		if err != nil {
			return nil, err
		}
		if len(f.Properties) == 0 || f.HasPolicies && len(f.Policies) == 0 {
			continue
		}
		name := "base"
		if len(size) > 0 {
			name = strings.NewReplacer("=", "", " ", "-").Replace(DefinesText(size))
		}
		out = append(out, PlanInstance{Name: name, Models: []string{GlobEscape(rel)}, Policies: f.Policies, Properties: f.Properties, Defines: all, Args: args,
			Attributes: map[string]any{"log2_states": math.Round(f.Log2States*10) / 10, "size": SizeName(size)}})
	}
	return out, nil
}
