package main

// vigil bench ic3 --scale NAME=V1,V2,...: the sizes of the scaling
// benchmark of issue 27 (bench_ic3.go makes an instance of each).

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// scaleFlag holds --scale NAME=V1,V2,...: per constant name, its values.
type scaleFlag map[string][]string

func (s scaleFlag) String() string { return "" }

func (s scaleFlag) Set(v string) error {
	name, vals, ok := strings.Cut(v, "=")
	name = strings.TrimSpace(name)
	if !ok || name == "" || strings.TrimSpace(vals) == "" {
		return fmt.Errorf("want NAME=V1,V2,..., got %q", v)
	}
	for _, x := range strings.Split(vals, ",") {
		x = strings.TrimSpace(x)
		n, err := parseScale(x)
		if err != nil {
			return fmt.Errorf("%s: %v", name, err)
		}
		s[name] = append(s[name], strconv.FormatInt(n, 10))
	}
	return nil
}

// parseScale reads a whole number, also written 1e6 or 10^6, up to 2^53.
func parseScale(x string) (int64, error) {
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
	n := int64(1)
	for range exp {
		if n *= base; n > 1<<53 || n < -(1<<53) {
			return 0, fmt.Errorf("%q is beyond 2^53", x)
		}
	}
	return n, nil
}

func sortedKeys(d defines) []string {
	ks := make([]string, 0, len(d))
	for k := range d {
		ks = append(ks, k)
	}
	slices.Sort(ks)
	return ks
}
