package load_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"vigil/lang"
	"vigil/lang/jani"
	"vigil/load"
	"vigil/symbolic"
)

const specs = "../specs"

// A .spec with two policies: the named one is selected, and without a
// name ThePolicy is an error that lists them while OnlyPolicy takes none.
func TestLoadSpec(t *testing.T) {
	path := filepath.Join(specs, "tarjansafe.spec")
	l, err := load.Load(path, load.Options{Policy: "patient", PropertyRequired: true, PolicyDefault: load.ThePolicy})
	if err != nil {
		t.Fatal(err)
	}
	if l.Property.Name != "no_crash" || l.Policy.Name != "patient" || len(l.Messages) != 0 {
		t.Errorf("loaded property %s, policy %s, messages %v", l.Property.Name, l.Policy.Name, l.Messages)
	}
	_, err = load.Load(path, load.Options{PropertyRequired: true, PolicyDefault: load.ThePolicy})
	ne, ok := errors.AsType[*load.NameError](err)
	if !ok || !ne.Several || ne.What != "policy" {
		t.Fatalf("no policy named: %v", err)
	}
	if want := "model tarjansafe has several policies; choose one with --policy (hasty, patient)"; err.Error() != want {
		t.Errorf("error %q, want %q", err, want)
	}
	l, err = load.Load(path, load.Options{PolicyDefault: load.OnlyPolicy})
	if err != nil || l.Policy != nil {
		t.Errorf("OnlyPolicy of two: %v, %v", l.Policy, err)
	}
	_, err = load.Load(path, load.Options{Property: "no_crsh"})
	if ne, ok := errors.AsType[*load.NameError](err); !ok || ne.Name != "no_crsh" || !strings.Contains(err.Error(), `did you mean "no_crash"`) {
		t.Errorf("misspelt property: %v", err)
	}
}

// Errors are typed: a model file with errors comes with its diagnostics,
// a policy file that is missing is a *FilesError, and the loader's
// Diagnostics keep the model's warnings on success.
func TestLoadErrors(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.spec")
	if err := os.WriteFile(bad, []byte("model bad\nvar x : 0 .. 3 = 0\naction up -> y' = 1\n"), 0o666); err != nil {
		t.Fatal(err)
	}
	l, err := load.Load(bad, load.Options{})
	de, ok := errors.AsType[*load.DiagnosticsError](err)
	if !ok || !de.Diagnostics.HasErrors() || l.Model != nil || len(l.Diagnostics) == 0 {
		t.Fatalf("bad model: %v", err)
	}
	_, err = load.Load(filepath.Join(specs, "tarjansafe.spec"), load.Options{Files: load.Files{PolicyFile: filepath.Join(dir, "missing.onnx")}})
	if _, ok := errors.AsType[*load.FilesError](err); !ok || !strings.HasPrefix(err.Error(), "--policy-file: ") {
		t.Errorf("missing policy file: %T %v", err, err)
	}
	_, err = load.Load(filepath.Join(specs, "tarjansafe.spec"), load.Options{Files: load.Files{Start: "s.jani"}})
	if _, ok := errors.AsType[*load.FilesError](err); !ok || !jani.IsError(err) {
		t.Errorf("--start without --unsafe: %T %v", err, err)
	}
}

// A PlaJA instance: a JANI model with a PA property file that names the
// start, the unsafe states and the network. The property and the policy
// are attached and selected; the interface without "filter" is read
// argmax all, with a note saying so, and the property's predicates draw a
// note.
func TestLoadPlaJA(t *testing.T) {
	pa := filepath.Join(specs, "plaja", "pa.jani")
	l, err := load.Load(filepath.Join(specs, "plaja", "counter.jani"), load.Options{
		Defines: map[string]string{"N": "3"}, Files: load.Files{Start: pa, Unsafe: pa, PolicyFile: pa},
		PropertyRequired: true, PolicyDefault: load.ThePolicy})
	if err != nil {
		t.Fatal(err)
	}
	if l.Property == nil || l.Policy == nil || l.Policy.Kind != symbolic.KindNN {
		t.Fatalf("property %v, policy %v", l.Property, l.Policy)
	}
	if !l.Policy.ArgMaxAll {
		t.Errorf("the policy of an interface without \"filter\" is read argmax applicable, want argmax all")
	}
	if len(l.Messages) != 2 || l.Messages[0].Warning || !strings.Contains(l.Messages[0].Text, `has no "filter": true`) ||
		l.Messages[1].Warning || !strings.Contains(l.Messages[1].Text, "used only by verify --engine ppa") {
		t.Errorf("messages %v", l.Messages)
	}
	if len(l.Diagnostics) == 0 || l.Diagnostics.HasErrors() {
		t.Errorf("diagnostics %v", l.Diagnostics)
	}
	if _, err := symbolic.Instantiate(l.Model, l.Policy); err != nil {
		t.Errorf("the policy does not bind: %v", err)
	}
}

// PolicyFileKind tells networks and ensembles from PlaJA files by
// extension and content; a JANI model without PA properties and an empty
// file are refused with what to give instead.
func TestPolicyFileKind(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o666); err != nil {
			t.Fatal(err)
		}
		return p
	}
	for _, c := range []struct {
		path    string
		kind    symbolic.PolicyKind
		learned bool
		err     string
	}{
		{filepath.Join(specs, "policies", "oneway_32x32.onnx"), symbolic.KindNN, true, ""},
		{filepath.Join(specs, "plaja", "net", "counter.nnet"), symbolic.KindNN, true, ""},
		{filepath.Join(specs, "plaja", "net", "counter.jani2nnet"), "", false, ""},
		{filepath.Join(specs, "plaja", "pa.jani"), "", false, ""},
		{filepath.Join(specs, "policies", "oneway_trees.json"), symbolic.KindTrees, true, ""},
		{write("lgbm.txt", "tree\nversion=v3\n"), symbolic.KindTrees, true, ""},
		{write("net.json", `{"layers": []}`), symbolic.KindNN, true, ""},
		{filepath.Join(specs, "plaja", "counter.jani"), "", false, "a JANI model without PA properties, not a policy"},
		{write("empty.json", " \n"), "", false, "the file is empty"},
		{filepath.Join(dir, "missing.onnx"), "", false, "--policy-file: "},
		// The top-level members decide over strings in the values: a
		// network whose comment says "trees", an ensemble whose
		// members hold "layers" text.
		{write("noted.json", `{"format": "vigil-nn", "comment": "trees", "layers": []}`), symbolic.KindNN, true, ""},
		{write("veritas.json", `{"at_type": "\"layers\"", "base_scores": [0], "trees": []}`), symbolic.KindTrees, true, ""},
		{dir, "", false, "a directory, not a file"},
	} {
		kind, learned, err := load.PolicyFileKind(c.path)
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("%s: error %v, want %q", c.path, err, c.err)
			}
			continue
		}
		if err != nil || kind != c.kind || learned != c.learned {
			t.Errorf("%s: %q, %v, %v; want %q, %v", c.path, kind, learned, err, c.kind, c.learned)
		}
	}
}

// A network file for a model that declares no learned policy takes the
// model's variables and labels in order, and must have as many inputs and
// outputs; a file that a declared policy already reads is that policy.
func TestAttachPolicyFile(t *testing.T) {
	m, diags := lang.LoadFile(filepath.Join(specs, "plaja", "counter.jani"), lang.Options{Defines: map[string]string{"N": "3"}})
	if m == nil {
		t.Fatal(diags.Render())
	}
	_, err := load.AttachPolicyFile(m, filepath.Join(specs, "plaja", "net", "counter.nnet"), symbolic.KindNN, "")
	if err == nil || !strings.Contains(err.Error(), "the file has 3 inputs and 2 outputs, but the model declares no learned policy") {
		t.Errorf("mismatched network: %v", err)
	}

	path := filepath.Join(specs, "oneway.spec")
	m, diags = lang.LoadFile(path, lang.Options{})
	if m == nil {
		t.Fatal(diags.Render())
	}
	var own *symbolic.PolicyDecl
	for _, d := range m.Policies {
		if d.Kind == symbolic.KindNN {
			own = d
		}
	}
	if own == nil {
		t.Fatal("oneway.spec declares no network policy")
	}
	n := len(m.Policies)
	name, err := load.AttachPolicyFile(m, own.File, symbolic.KindNN, "")
	if err != nil || name != own.Name || len(m.Policies) != n {
		t.Errorf("the declared policy's own file: %q, %v, %d policies", name, err, len(m.Policies))
	}
	_, err = load.AttachPolicyFile(m, own.File, symbolic.KindNN, "careful")
	if err == nil || !strings.Contains(err.Error(), "--policy careful is a rules policy") {
		t.Errorf("a rules policy as the template: %v", err)
	}
}

// Import converts a PlaJA instance to .spec text that loads again with
// the same property and a network policy whose inputs are written out.
func TestImport(t *testing.T) {
	pa := filepath.Join(specs, "plaja", "pa.jani")
	dir := t.TempDir()
	im, err := load.Import(filepath.Join(specs, "plaja", "counter.jani"), load.ImportOptions{
		Defines: map[string]string{"N": "3"}, Files: load.Files{Start: pa, Unsafe: pa, PolicyFile: pa}, Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	if len(im.JANINotes) != 1 || !strings.Contains(im.JANINotes[0].Msg, "transient variable") || !strings.HasPrefix(string(im.Spec), "// Imported by vigil import from counter.jani.\n") {
		t.Errorf("notes %v, spec:\n%s", im.JANINotes, im.Spec)
	}
	out := filepath.Join(dir, "counter.spec")
	if err := os.WriteFile(out, im.Spec, 0o666); err != nil {
		t.Fatal(err)
	}
	l, err := load.Load(out, load.Options{PropertyRequired: true, PolicyDefault: load.ThePolicy})
	if err != nil {
		t.Fatalf("%v\n%s", err, im.Spec)
	}
	if l.Policy.Kind != symbolic.KindNN || l.Policy.Interface != "" || len(l.Policy.Inputs) != 3 {
		t.Errorf("policy %+v", l.Policy)
	}

	_, err = load.Import(filepath.Join(specs, "plaja", "counter.jani"), load.ImportOptions{})
	if !jani.IsError(err) {
		t.Errorf("open constant: %T %v", err, err)
	}
}

// --argmax overrides the reading of the selected policy: an interface
// without "filter" read argmax applicable loses the note that said it was
// read argmax all, and the model as printed says the reading used; a
// rules policy, or none, is refused with an *ArgMaxError naming the flag.
func TestLoadArgMax(t *testing.T) {
	pa := filepath.Join(specs, "plaja", "pa.jani")
	opts := load.Options{Defines: map[string]string{"N": "3"}, Files: load.Files{Start: pa, Unsafe: pa, PolicyFile: pa},
		PropertyRequired: true, PolicyDefault: load.ThePolicy}
	opts.ArgMax = load.ArgMaxApplicable
	l, err := load.Load(filepath.Join(specs, "plaja", "counter.jani"), opts)
	if err != nil {
		t.Fatal(err)
	}
	if l.Policy.ArgMaxAll || load.ReadingOf(l.Policy) != "applicable" {
		t.Errorf("--argmax applicable: the policy reads %s", load.ReadingOf(l.Policy))
	}
	if len(l.Messages) != 1 || strings.Contains(l.Messages[0].Text, `"filter"`) {
		t.Errorf("messages %v, want the predicates' note alone", l.Messages)
	}
	var printed strings.Builder
	if err := symbolic.Print(&printed, l.Model); err != nil || !strings.Contains(printed.String(), "argmax applicable") {
		t.Errorf("the printed model does not say argmax applicable")
	}

	path := filepath.Join(specs, "tarjansafe.spec")
	_, err = load.Load(path, load.Options{Files: load.Files{ArgMax: load.ArgMaxAll}, Policy: "patient", PropertyRequired: true, PolicyDefault: load.ThePolicy})
	ae, ok := errors.AsType[*load.ArgMaxError](err)
	if !ok || ae.Policy == nil || !strings.HasPrefix(err.Error(), "--argmax all: policy patient is a rules policy") {
		t.Errorf("--argmax all with a rules policy: %v", err)
	}
	_, err = load.Load(path, load.Options{Files: load.Files{ArgMax: load.ArgMaxApplicable}, PolicyDefault: load.NoPolicy})
	if ae, ok := errors.AsType[*load.ArgMaxError](err); !ok || ae.Policy != nil || !strings.HasPrefix(err.Error(), "--argmax applicable: no policy is selected") {
		t.Errorf("--argmax applicable without a policy: %v", err)
	}
	if _, err := load.ParseArgMax("every"); err == nil || !strings.Contains(err.Error(), `--argmax "every": want all`) {
		t.Errorf("ParseArgMax(every): %v", err)
	}
}
