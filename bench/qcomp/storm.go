package main

// Reading the benchmark set: a benchmark folder's index.json lists its
// files and, per file, the open-parameter settings; results/Storm*.json
// hold Storm's runs, one per file and setting (several variants: plain,
// exact, sound, dd, hybrid, bisim). For each setting the harness keeps the
// state count of a sparse-engine run (the dd and hybrid engines and
// bisimulation count other things) with the number of properties that run
// checked, and per property the best value: an exact run's rational before
// a sound run's float before a plain run's float.

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/big"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
)

// index is the part of a benchmark's index.json the harness reads.
type index struct {
	Short      string `json:"short"`
	Type       string `json:"type"`
	Properties []struct {
		Name string `json:"name"`
		Type string `json:"type"`
	} `json:"properties"`
	Files []struct {
		File string `json:"file"`
		Open []struct {
			Values []param `json:"values"`
			States []struct {
				Note   string          `json:"note"`
				Number json.RawMessage `json:"number"`
			} `json:"states"`
		} `json:"open-parameter-values"`
	} `json:"files"`
}

type param struct {
	Name  string          `json:"name"`
	Value json.RawMessage `json:"value"`
}

// result is one Storm run (results/Storm*.json).
type result struct {
	File    string  `json:"file"`
	Open    []param `json:"open-parameter-values"`
	Command string  `json:"command"`
	Tool    struct {
		Variant []string `json:"variant"`
	} `json:"tool"`
	Data []struct {
		Group    string `json:"group"`
		Property string `json:"property"`
		Values   []struct {
			Name  string          `json:"name"`
			Value json.RawMessage `json:"value"`
		} `json:"values"`
		Value json.RawMessage `json:"value"`
	} `json:"data"`
	path string
}

// value is Storm's answer to a property.
type value struct {
	kind  string   // "bool", "exact", "float", "inf"
	b     bool     // kind bool
	q     *big.Rat // kind exact
	f     float64  // kind float and exact (approximation)
	from  string   // the result file
	exact bool     // from an exact run
}

func (v value) String() string {
	switch v.kind {
	case "bool":
		return strconv.FormatBool(v.b)
	case "exact":
		s := v.q.RatString()
		if len(s) > 40 {
			s = s[:18] + "…" + s[len(s)-18:]
		}
		return fmt.Sprintf("%s (≈%.10g)", s, v.f)
	case "inf":
		return "∞"
	}
	return fmt.Sprintf("%.10g", v.f)
}

// instance is one file with one open-parameter setting.
type instance struct {
	bench     string // e.g. mdp/consensus
	typ       string // mdp, dtmc, ctmc, ma, pta
	file      string // absolute path of the .jani file
	params    []param
	propTypes map[string]string // property name -> index.json type

	stormStates    int    // -1 if unknown
	stormStatesRun string // the run it comes from
	stormProps     int    // how many properties that run checked
	stormSingle    string // the property name when it checked one
	values         map[string]value
}

func (in *instance) name() string {
	s := in.bench + "/" + filepath.Base(in.file)
	for _, p := range in.params {
		s += " " + p.Name + "=" + raw(p.Value)
	}
	return s
}

func (in *instance) defines() []string {
	var out []string
	for _, p := range in.params {
		out = append(out, "-D", p.Name+"="+raw(p.Value))
	}
	return out
}

func raw(m json.RawMessage) string {
	s := strings.TrimSpace(string(m))
	if u, err := strconv.Unquote(s); err == nil {
		return u
	}
	return s
}

func sameParams(a, b []param) bool {
	if len(a) != len(b) {
		return false
	}
	m := map[string]string{}
	for _, p := range a {
		m[p.Name] = raw(p.Value)
	}
	for _, p := range b {
		v, ok := m[p.Name]
		if !ok || !sameNumber(v, raw(p.Value)) {
			return false
		}
	}
	return true
}

func sameNumber(a, b string) bool {
	if a == b {
		return true
	}
	x, ok1 := new(big.Rat).SetString(a)
	y, ok2 := new(big.Rat).SetString(b)
	return ok1 && ok2 && x.Cmp(y) == 0
}

// readJSON decodes a file that may start with a UTF-8 byte-order mark.
func readJSON(path string, v any) error {
	data, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	if err := json.Unmarshal(data, v); err != nil {
		return fmt.Errorf("%s: %v", path, err)
	}
	return nil
}

// load reads every benchmark of the set under dir (which holds the type
// folders mdp/, dtmc/, ...).
func load(dir string) ([]*instance, error) {
	idxs, err := filepath.Glob(filepath.Join(dir, "*", "*", "index.json"))
	if err != nil {
		return nil, err
	}
	sort.Strings(idxs)
	var out []*instance
	for _, ip := range idxs {
		var idx index
		if err := readJSON(ip, &idx); err != nil {
			return nil, err
		}
		bdir := filepath.Dir(ip)
		bench, _ := filepath.Rel(dir, bdir)
		types := map[string]string{}
		for _, p := range idx.Properties {
			types[p.Name] = p.Type
		}
		var results []*result
		rps, _ := filepath.Glob(filepath.Join(bdir, "results", "Storm*.json"))
		sort.Strings(rps)
		for _, rp := range rps {
			r := &result{path: rp}
			if err := readJSON(rp, r); err != nil {
				return nil, err
			}
			results = append(results, r)
		}
		for _, f := range idx.Files {
			opens := f.Open
			if len(opens) == 0 {
				opens = append(opens, struct {
					Values []param `json:"values"`
					States []struct {
						Note   string          `json:"note"`
						Number json.RawMessage `json:"number"`
					} `json:"states"`
				}{})
			}
			for _, o := range opens {
				in := &instance{bench: bench, typ: idx.Type, file: filepath.Join(bdir, f.File),
					params: o.Values, propTypes: types, stormStates: -1, values: map[string]value{}}
				for _, s := range o.States {
					if strings.HasPrefix(s.Note, "Storm") {
						if n, err := strconv.Atoi(raw(s.Number)); err == nil {
							in.stormStates = n
						}
					}
				}
				for _, r := range results {
					if filepath.Base(r.File) == f.File && sameParams(r.Open, o.Values) {
						in.add(r)
					}
				}
				out = append(out, in)
			}
		}
	}
	return out, nil
}

// rank orders the variants: an exact run's values first, then sound, then plain.
func rank(r *result) int {
	v := strings.Join(r.Tool.Variant, ",")
	switch {
	case strings.Contains(v, "exact"):
		return 3
	case strings.Contains(v, "sound"):
		return 2
	case v == "":
		return 1
	}
	return 0
}

func (in *instance) add(r *result) {
	sparse := !strings.Contains(r.Command, "--engine") && !strings.Contains(r.Command, "--bisimulation") &&
		!strings.Contains(r.Command, "--ddlib")
	nprops := 0
	single := ""
	for _, d := range r.Data {
		if d.Property != "" {
			nprops++
			single = d.Property
		}
	}
	for _, d := range r.Data {
		if d.Property != "" || !sparse {
			continue
		}
		for _, v := range d.Values {
			if v.Name == "states" {
				if n, err := strconv.Atoi(raw(v.Value)); err == nil && in.stormStatesRun == "" {
					in.stormStates, in.stormStatesRun, in.stormProps = n, filepath.Base(r.path), nprops
					if nprops == 1 {
						in.stormSingle = single
					}
				}
			}
		}
	}
	for _, d := range r.Data {
		if d.Property == "" || len(d.Value) == 0 {
			continue
		}
		v, ok := parseValue(d.Value, rank(r) == 3)
		if !ok {
			continue
		}
		v.from = filepath.Base(r.path)
		v.exact = rank(r) == 3 && v.kind != "float"
		old, seen := in.values[d.Property]
		if !seen || better(v, old) {
			in.values[d.Property] = v
		}
	}
}

func better(v, old value) bool {
	score := func(v value) int {
		switch {
		case v.kind == "exact" || (v.exact && v.kind != "float"):
			return 3
		case strings.Contains(v.from, "sound"):
			return 2
		case !strings.Contains(v.from, ".dd") && !strings.Contains(v.from, "hybrid"):
			return 1
		}
		return 0
	}
	return score(v) > score(old)
}

func parseValue(m json.RawMessage, exactRun bool) (value, bool) {
	d := json.NewDecoder(bytes.NewReader(m))
	d.UseNumber()
	var x any
	if err := d.Decode(&x); err != nil {
		return value{}, false
	}
	switch x := x.(type) {
	case bool:
		return value{kind: "bool", b: x}, true
	case json.Number:
		return number(x.String(), exactRun)
	case string:
		switch strings.ToLower(x) {
		case "true", "false":
			return value{kind: "bool", b: strings.ToLower(x) == "true"}, true
		case "inf", "infinity", "+inf":
			return value{kind: "inf"}, true
		}
		return number(x, exactRun)
	case map[string]any:
		num, ok1 := x["num"].(json.Number)
		den, ok2 := x["den"].(json.Number)
		if ok1 && ok2 {
			q, ok := new(big.Rat).SetString(num.String() + "/" + den.String())
			if ok {
				f, _ := q.Float64()
				return value{kind: "exact", q: q, f: f}, true
			}
		}
		if a, ok := x["approx"].(json.Number); ok {
			return number(a.String(), false)
		}
	}
	return value{}, false
}

// number reads a plain number: an integer from an exact run is exact
// (Storm's exact mode prints integers without a fraction), anything else a
// float.
func number(s string, exactRun bool) (value, bool) {
	f, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return value{}, false
	}
	if exactRun && !strings.ContainsAny(s, ".eE") {
		if q, ok := new(big.Rat).SetString(s); ok {
			return value{kind: "exact", q: q, f: f}, true
		}
	}
	return value{kind: "float", f: f}, true
}
