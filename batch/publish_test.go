package batch

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"
	"time"
)

func TestProgressLine(t *testing.T) {
	for _, tc := range []struct {
		p    Progress
		want string
	}{
		{Progress{Done: 3, Total: 9}, "batch x: 3/9 done, 0 failed, ETA -"},
		{Progress{Done: 3, Total: 9, Failed: 1, Errors: map[string]int{"timeout": 2, "crash": 1, "out-of-memory": 1}, ETA: 65400 * time.Millisecond},
			"batch x: 3/9 done, 1 failed, 2 timeout, 1 out-of-memory, ETA 1m5s"},
	} {
		if got := tc.p.Line("x"); got != tc.want {
			t.Errorf("Line = %q, want %q", got, tc.want)
		}
	}
}

// Publish writes the report into DATA/report by default, WriteFormat
// prints it in each format, and Disagreement names the instances on which
// two algorithms that decided differ.
func TestPublishAndDisagreement(t *testing.T) {
	x := experiment(t, 2, "[limits]\ntime = \"10s\"", "echo", "echo x")
	fakeResults(t, x, map[string]float64{"a0/d/m000": 1, "a1/d/m000": 3, "a0/d/m001": 2, "a1/d/m001": 5})
	rep, files, err := x.Publish(ReportOptions{}, "")
	if err != nil {
		t.Fatal(err)
	}
	if len(files) < 3 || filepath.Dir(files[0]) != filepath.Join(x.Data, "report") {
		t.Errorf("Publish wrote %v, want report.md and more in %s", files, filepath.Join(x.Data, "report"))
	}
	for format, want := range map[string]string{"md": "# Experiment", "html": "<html", "csv": "algorithm", "none": ""} {
		var b strings.Builder
		if err := rep.WriteFormat(&b, format); err != nil || !strings.Contains(b.String(), want) || want == "" && b.Len() > 0 {
			t.Errorf("WriteFormat(%s): %v\n%s", format, err, b.String())
		}
	}
	if err := rep.WriteFormat(&strings.Builder{}, "pdf"); err == nil || !strings.Contains(err.Error(), "want md, html, csv or none") {
		t.Errorf("WriteFormat(pdf): %v", err)
	}
	if err := rep.Disagreement(); err != nil {
		t.Errorf("agreeing runs: %v", err)
	}

	// a1 now says unsafe on m001.
	r := x.Runs[0]
	for _, run := range x.Runs {
		if run.ID == "a1/d/m001" {
			r = run
		}
	}
	path := filepath.Join(x.RunDir(r), propertiesFile)
	var p map[string]any
	b, _ := os.ReadFile(path)
	if err := json.Unmarshal(b, &p); err != nil {
		t.Fatal(err)
	}
	p["verdict"] = "unsafe"
	b, _ = json.Marshal(p)
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	rep, _, err = x.Publish(ReportOptions{}, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	if err := rep.Disagreement(); err == nil || !strings.Contains(err.Error(), "DISAGREEMENT on 1 instance:") || !strings.Contains(err.Error(), "d/m001: a0: verdict=safe; a1: verdict=unsafe") {
		t.Errorf("Disagreement = %v", err)
	}
}

// Reference names every key of an experiment file.
func TestReferenceNamesEveryKey(t *testing.T) {
	var keys []string
	var walk func(reflect.Type)
	walk = func(ty reflect.Type) {
		for i := 0; i < ty.NumField(); i++ {
			f := ty.Field(i)
			if k := f.Tag.Get("toml"); k != "" && k != "-" {
				keys = append(keys, strings.Split(k, ",")[0])
			}
			ft := f.Type
			if ft.Kind() == reflect.Slice {
				ft = ft.Elem()
			}
			if ft.Kind() == reflect.Struct && ft.PkgPath() == ty.PkgPath() && ft.NumField() > 0 && f.Tag.Get("toml") != "" {
				walk(ft)
			}
		}
	}
	walk(reflect.TypeOf(file{}))
	if len(keys) < 20 {
		t.Fatalf("found only %d keys: %v", len(keys), keys)
	}
	for _, k := range keys {
		if !regexp.MustCompile(`\b` + regexp.QuoteMeta(k) + `\b`).MatchString(Reference) {
			t.Errorf("Reference does not mention the key %q", k)
		}
	}
}
