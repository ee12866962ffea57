package ic3_test

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"vigil/ic3"
	"vigil/ic3/cert"
	"vigil/lang"
	"vigil/nn"
	"vigil/smt"
	"vigil/symbolic"
	"vigil/symbolic/explicit"
	"vigil/verify"
)

// review13N sets the number of generated models of TestReview13Permutations
// (a longer run: go test ./ic3 -run Review13 -review13.n 2000).
var (
	review13N       = flag.Int("review13.n", 0, "models of TestReview13Permutations and TestReview13Mutants (0: the default)")
	review13Verbose = flag.Bool("review13.v", false, "log the models PolIC3 leaves unknown")
)

// review13Model writes a permutation-like model: n variables over 0..R
// (R = n-1+extra), started in states whose values all differ, whose labels
// swap or rotate values (sometimes guarded, so that a label is not
// applicable everywhere), move a variable to the one free value (extra 1:
// in range exactly when all differ), step a variable up (guarded, or not:
// a range error where it is chosen at R), sometimes with goal states, so
// that the disequality invariant D holds for some pairs and not for
// others.
func review13Model(seed uint64) string {
	r := rand.New(rand.NewPCG(seed, 13))
	n := 3 + r.IntN(3)
	if n == 5 && r.IntN(2) == 0 {
		n = 4
	}
	extra := r.IntN(3)
	if r.IntN(6) == 0 {
		// larger: up to 7! states of D among 8^7, boxes holding more
		// than 256 states but few of D
		n, extra = 6+r.IntN(2), r.IntN(2)
	}
	R := n - 1 + extra
	var b strings.Builder
	fmt.Fprintf(&b, "model rev13_%d\n", seed)
	for i := range n {
		fmt.Fprintf(&b, "var x%d : 0 .. %d\n", i, R)
	}
	x := func(i int) string { return fmt.Sprintf("x%d", i) }
	pick2 := func() (int, int) {
		i := r.IntN(n)
		j := (i + 1 + r.IntN(n-1)) % n
		return i, j
	}
	labels := 3 + r.IntN(4)
	for k := range labels {
		guard := ""
		switch r.IntN(4) {
		case 0:
			i, j := pick2()
			guard = fmt.Sprintf(" when %s < %s", x(i), x(j))
		case 1:
			guard = fmt.Sprintf(" when %s != %d", x(r.IntN(n)), r.IntN(R+1))
		}
		switch c := r.IntN(10); {
		case c < 5:
			i, j := pick2()
			fmt.Fprintf(&b, "action a%d%s -> %s' = %s, %s' = %s\n", k, guard, x(i), x(j), x(j), x(i))
		case c < 7 && n >= 3:
			p := r.Perm(n)
			fmt.Fprintf(&b, "action a%d%s -> %s' = %s, %s' = %s, %s' = %s\n", k, guard, x(p[0]), x(p[1]), x(p[1]), x(p[2]), x(p[2]), x(p[0]))
		case c < 8 && extra == 1:
			i := r.IntN(n)
			sum := make([]string, n)
			for v := range n {
				sum[v] = x(v)
			}
			fmt.Fprintf(&b, "action a%d%s -> %s' = %d - %s\n", k, guard, x(i), R*(R+1)/2, strings.Join(sum, " - "))
		case c < 9:
			i := r.IntN(n)
			fmt.Fprintf(&b, "action a%d when %s < %d -> %s' = %s + 1\n", k, x(i), R, x(i), x(i))
		default:
			// unguarded: leaves the range at R (a range error where the
			// policy chooses it, unknown for PolIC3 where it does not)
			i, j := pick2()
			fmt.Fprintf(&b, "action a%d%s -> %s' = %s, %s' = %s\n", k, guard, x(i), x(j), x(j), x(i))
			if r.IntN(3) == 0 {
				fmt.Fprintf(&b, "action a%dr -> %s' = %s + 1\n", k, x(i), x(i))
			}
		}
	}
	start := func() string {
		vals := r.Perm(R + 1)[:n]
		var cs []string
		for i, v := range vals {
			cs = append(cs, fmt.Sprintf("%s == %d", x(i), v))
		}
		return "(" + strings.Join(cs, " && ") + ")"
	}
	st := start()
	for r.IntN(3) == 0 {
		st += " || " + start()
	}
	var unsafe string
	i, j := pick2()
	switch r.IntN(3) {
	case 0:
		unsafe = fmt.Sprintf("%s == %d && %s == %d", x(i), r.IntN(R+1), x(j), r.IntN(R+1))
	case 1:
		unsafe = fmt.Sprintf("%s + %s == %d", x(i), x(j), r.IntN(2*R+1))
	default:
		unsafe = fmt.Sprintf("%s < %s && %s == %d", x(i), x(j), x(r.IntN(n)), r.IntN(R+1))
	}
	goal := ""
	if r.IntN(3) == 0 {
		// terminal states: no successors, no facts needed there
		i, j := pick2()
		goal = fmt.Sprintf("    goal %s == %d || %s > %s + 1\n", x(i), r.IntN(R+1), x(j), x(i))
	}
	fmt.Fprintf(&b, "property p {\n    start %s\n    unsafe %s\n%s}\n", st, unsafe, goal)
	return b.String()
}

// review13Policy returns a network policy of m: random (ReLU, Tanh,
// Sigmoid or LeakyReLU hidden layers, or none), or one with small integer
// weights reading the variables themselves, so that scores are exact
// integers and ties between outputs (within a state, and between
// permutations of a state) are common, some of whose outputs are scaled
// by 1e308 (+Inf ties, -Inf, and NaN where +Inf meets -Inf). Some read
// argmax all; some leave a label out of the outputs.
func review13Policy(m *symbolic.Model, seed uint64) (*nn.Policy, *symbolic.PolicyDecl, string, error) {
	r := rand.New(rand.NewPCG(seed, 1313))
	var outs []symbolic.LabelID
	for l := range m.Labels {
		outs = append(outs, symbolic.LabelID(l))
	}
	if len(outs) > 2 && r.IntN(4) == 0 {
		k := r.IntN(len(outs))
		outs = append(outs[:k:k], outs[k+1:]...)
	}
	all := r.IntN(3) == 0
	kind := r.IntN(6)
	var p *nn.Policy
	var d *symbolic.PolicyDecl
	var err error
	desc := ""
	switch kind {
	case 0, 1, 2:
		acts := []nn.Activation{nn.ActReLU, nn.ActTanh, nn.ActSigmoid, nn.ActLeakyReLU}
		act := acts[r.IntN(len(acts))]
		hidden := [][]int{nil, {6}, {5, 4}}[r.IntN(3)]
		p, d, err = nn.RandomWith(m, outs, seed, hidden, act)
		desc = fmt.Sprintf("random %v %v", act, hidden)
	default:
		inf := kind == 5
		d = &symbolic.PolicyDecl{Name: fmt.Sprintf("int_nn_%d", seed), Kind: symbolic.KindNN, Outputs: outs}
		for v := range m.Vars {
			d.Inputs = append(d.Inputs, symbolic.Affine{Const: symbolic.Rat{Num: 0, Den: 1},
				Terms: []symbolic.AffineTerm{{Coef: symbolic.Rat{Num: 1, Den: 1}, Var: symbolic.VarID(v)}}})
		}
		in := len(m.Vars)
		h := 3 + r.IntN(4)
		net := &nn.Network{}
		l1 := nn.Layer{In: in, Out: h, W: make([]float64, in*h), B: make([]float64, h), Act: nn.ActReLU}
		for i := range l1.W {
			l1.W[i] = float64(r.IntN(3) - 1)
		}
		for i := range l1.B {
			l1.B[i] = float64(r.IntN(5) - 2)
		}
		l2 := nn.Layer{In: h, Out: len(outs), W: make([]float64, h*len(outs)), B: make([]float64, len(outs))}
		for i := range l2.W {
			l2.W[i] = float64(r.IntN(3) - 1)
		}
		for i := range l2.B {
			l2.B[i] = float64(r.IntN(2))
		}
		if inf {
			// scale one or two rows: x*1e308 overflows from x = 2 on
			for range 1 + r.IntN(2) {
				o := r.IntN(len(outs))
				for j := range h {
					l2.W[o*h+j] *= 1e308
				}
			}
		}
		net.Layers = []nn.Layer{l1, l2}
		p, err = nn.NewPolicyFromNetwork(m, d, net)
		desc = fmt.Sprintf("integer %dx%d inf=%v", h, len(outs), inf)
	}
	if err == nil && all {
		d.ArgMaxAll = true
		desc += " argmax all"
	}
	return p, d, desc, err
}

// TestReview13Permutations is the session-13 review's differential test
// of PolIC3 within disequality invariants (evaluation within D before
// CROWN, meetsBad/stepsOut/APFT/facts by evaluation on boxes small in D):
// generated permutation models (review13Model) and network policies
// (review13Policy), PolIC3 with and without D against BFS. A safe answer
// must be BFS's, its invariant (with D) is checked by enumeration, and
// its certificate, written and read back, must be accepted by the checker;
// an unsafe answer must be BFS's (or BFS's range error). Unknown answers
// (range errors of unchosen labels, timeouts) are counted, not failures.
func TestReview13Permutations(t *testing.T) {
	n := 40
	if testing.Short() {
		n = 12
	}
	if *review13N > 0 {
		n = *review13N
	}
	count := map[string]int{}
	z3, _ := exec.LookPath("z3")
	differFacts := 0
	for seed := uint64(1); seed <= uint64(n); seed++ {
		src := review13Model(seed)
		dir := t.TempDir()
		path := filepath.Join(dir, "m.spec")
		if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		m, diags := lang.Load(path, lang.Options{})
		if diags.HasErrors() {
			t.Fatalf("seed %d: %s\n%s", seed, diags.Render(), review13Model(seed))
		}
		prop := m.Property("")
		p, pd, desc, err := review13Policy(m, seed)
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		g, err := explicit.New(m, prop)
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		dec, err := explicit.PolicyDecider(m, p)
		if err != nil {
			t.Fatal(err)
		}
		want, bfsErr := explicit.Search(context.Background(), g, explicit.Options{Policy: dec, StopAtUnsafe: true})
		if seed%3 == 0 {
			// the whole verify path (as vigil verify --engine polic3
			// runs it): its answer is checked (replayed, or the
			// certificate accepted by the checker) before it is returned
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			v, err := verify.Decide(ctx, &verify.Question{Model: m, Property: prop, Policy: pd, Executable: p, Engine: "polic3"})
			cancel()
			switch {
			case err != nil:
				if bfsErr == nil || !strings.Contains(err.Error(), "range error") {
					t.Fatalf("seed %d (%s): verify polic3: %v (BFS: %v)\n%s", seed, desc, err, bfsErr, review13Model(seed))
				}
			case v.Answer == explicit.Safe && (bfsErr != nil || want.Verdict != explicit.Safe),
				v.Answer == explicit.UnsafeVerdict && bfsErr == nil && want.Verdict != explicit.UnsafeVerdict:
				t.Fatalf("seed %d (%s): verify polic3 %v, BFS %v (%v)\n%s", seed, desc, v.Answer, want, bfsErr, review13Model(seed))
			case v.Answer == explicit.Safe && v.Invariant == nil:
				t.Fatalf("seed %d (%s): verify polic3 safe without a checked certificate", seed, desc)
			default:
				count["verify "+v.Answer.String()]++
			}
		}
		for _, noDiffer := range []bool{false, true} {
			what := fmt.Sprintf("seed %d (%s, differ %v)\n%s", seed, desc, !noDiffer, review13Model(seed))
			lp, err := ic3.Certifier(p)
			if err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			res, err := ic3.Check(ctx, m, prop, pd, ic3.Options{Generalize: seed%3 != 0, Learned: lp, NoDiffer: noDiffer})
			cancel()
			if err != nil {
				// a range error of the policy's choice: BFS's too
				if bfsErr != nil && strings.Contains(err.Error(), "range error") && strings.Contains(bfsErr.Error(), "range error") {
					count["range error"]++
					continue
				}
				t.Fatalf("%s: PolIC3: %v (BFS: %v)", what, err, bfsErr)
			}
			if *review13Verbose {
				t.Logf("verdict seed %d differ %v: %v", seed, !noDiffer, res.Verdict)
			}
			switch res.Verdict {
			case ic3.Unknown:
				count["unknown"]++
				if strings.Contains(res.Reason, "leaves a variable's range") {
					count["unknown: unchosen range error"]++
				}
				if *review13Verbose {
					t.Logf("%s: unknown: %s", what, res.Reason)
				}
				continue
			case ic3.Unsafe:
				if bfsErr == nil && want.Verdict != explicit.UnsafeVerdict {
					t.Fatalf("%s: PolIC3 unsafe, BFS %v", what, want.Verdict)
				}
				count["unsafe"]++
				continue
			}
			if bfsErr != nil || want.Verdict != explicit.Safe {
				t.Fatalf("%s: PolIC3 safe, BFS %v (%v)", what, want, bfsErr)
			}
			count["safe"]++
			if len(res.Differ) > 0 {
				count["safe within D"]++
			}
			if err := checkInvariantPolicy(m, prop, p, res.Invariant, res.Differ...); err != nil {
				t.Fatalf("%s: invariant (enumeration): %v", what, err)
			}
			c := certificate(m, prop, pd, res.Invariant)
			c.Facts = certFacts(m, res.Facts)
			c.Differ = differNames(m, res.Differ)
			for _, f := range res.Facts {
				if f.Differ {
					differFacts++
				}
			}
			if err := cert.CheckWith(context.Background(), roundTrip(t, seed, c, m, prop, pd), m, prop, pd, p); err != nil {
				t.Fatalf("%s: the certificate is rejected: %v", what, err)
			}
			if z3 != "" && seed%4 == 0 {
				// z3 on the file: its own definitions (the facts' regions
				// taken as given) must hold
				var buf bytes.Buffer
				if err := c.Write(&buf, m, prop, pd); err != nil {
					t.Fatal(err)
				}
				file := filepath.Join(dir, fmt.Sprintf("c%v.smt2", noDiffer))
				if err := os.WriteFile(file, buf.Bytes(), 0o644); err != nil {
					t.Fatal(err)
				}
				out, err := exec.Command(z3, file).CombinedOutput()
				if err != nil || !bytes.Contains(out, []byte("unsat")) || regexp.MustCompile(`(?m)^(sat|unknown)$|error`).Match(out) {
					t.Fatalf("%s: z3 on the certificate: %v\n%s", what, err, out)
				}
				count["z3 unsat"]++
			}
		}
	}
	t.Logf("%d models: %v, %d facts within D", n, count, differFacts)
	if count["safe within D"] == 0 {
		t.Error("no safe answer used a disequality invariant")
	}
}

// TestReview13Mutants edits the certificates of PolIC3's safe answers
// within D (review13Model, review13Policy): the invariant (a box dropped,
// a literal dropped, a bound moved by one), its facts (another label, a
// sure label dropped, the sub-box dropped, the differ mark toggled,
// another box) and its disequalities (a pair dropped). Whenever the
// checker accepts an edited certificate, its invariant (with the pairs it
// states) must be inductive and safe under the policy by enumeration: an
// accepted wrong certificate is a wrong "safe".
func TestReview13Mutants(t *testing.T) {
	n := 30
	if testing.Short() {
		n = 10
	}
	if *review13N > 0 {
		n = *review13N
	}
	accepted, rejected, certs := 0, 0, 0
	for seed := uint64(1); seed <= uint64(n); seed++ {
		m, prop, p, pd, desc := loadReview13(t, seed)
		lp, err := ic3.Certifier(p)
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		res, err := ic3.Check(ctx, m, prop, pd, ic3.Options{Generalize: true, Learned: lp})
		cancel()
		if err != nil || res.Verdict != ic3.Safe || len(res.Differ) == 0 || len(res.Facts) == 0 {
			continue
		}
		certs++
		r := rand.New(rand.NewPCG(seed, 1331))
		type mutant struct {
			what  string
			inv   [][]smt.Lit
			facts []ic3.Fact
			pairs [][2]symbolic.VarID
		}
		var ms []mutant
		for _, inv := range mutate(r, res.Invariant, 6) {
			ms = append(ms, mutant{"invariant edited", inv, res.Facts, res.Differ})
		}
		for range 6 {
			facts := slices.Clone(res.Facts)
			k := r.IntN(len(facts))
			f := facts[k]
			what := ""
			switch r.IntN(5) {
			case 0:
				f.Label = symbolic.LabelID((int(f.Label) + 1 + r.IntN(len(m.Labels)-1)) % len(m.Labels))
				what = "fact's label changed"
			case 1:
				if len(f.Sure) == 0 {
					continue
				}
				i := r.IntN(len(f.Sure))
				f.Sure = append(slices.Clone(f.Sure[:i]), f.Sure[i+1:]...)
				what = "a sure label dropped"
			case 2:
				f.Within = nil
				what = "fact's sub-box dropped"
			case 3:
				f.Differ = !f.Differ
				what = "differ mark toggled"
			default:
				f.Box = r.IntN(len(res.Invariant))
				what = "fact moved to another box"
			}
			facts[k] = f
			ms = append(ms, mutant{what, res.Invariant, facts, res.Differ})
		}
		for i := range res.Differ {
			pairs := append(slices.Clone(res.Differ[:i]), res.Differ[i+1:]...)
			ms = append(ms, mutant{"a pair dropped", res.Invariant, res.Facts, pairs})
			if i >= 2 {
				break
			}
		}
		for _, mu := range ms {
			c := certificate(m, prop, pd, mu.inv)
			c.Facts = certFacts(m, mu.facts)
			c.Differ = differNames(m, mu.pairs)
			var buf bytes.Buffer
			if err := c.Write(&buf, m, prop, pd); err != nil {
				rejected++ // refused by the writer (a fact names a box dropped)
				continue
			}
			back, err := cert.Parse(&buf, m.Name)
			if err != nil {
				t.Fatalf("seed %d, %s: reading the certificate back: %v", seed, mu.what, err)
			}
			if err := cert.CheckWith(context.Background(), back, m, prop, pd, p); err != nil {
				rejected++
				continue
			}
			accepted++
			if err := checkInvariantPolicy(m, prop, p, mu.inv, mu.pairs...); err != nil {
				t.Fatalf("seed %d (%s), %s: the checker accepts a certificate whose invariant is wrong: %v\n%s", seed, desc, mu.what, err, review13Model(seed))
			}
		}
	}
	t.Logf("%d certificates within D edited: %d edits accepted (each invariant right by enumeration), %d rejected", certs, accepted, rejected)
	if certs == 0 || rejected == 0 {
		t.Error("no certificate within D was edited, or no edit was rejected")
	}
}

// loadReview13 loads review13Model(seed) with review13Policy's policy.
func loadReview13(t *testing.T, seed uint64) (*symbolic.Model, *symbolic.Property, *nn.Policy, *symbolic.PolicyDecl, string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "m.spec")
	if err := os.WriteFile(path, []byte(review13Model(seed)), 0o644); err != nil {
		t.Fatal(err)
	}
	m, diags := lang.Load(path, lang.Options{})
	if diags.HasErrors() {
		t.Fatalf("seed %d: %s", seed, diags.Render())
	}
	p, pd, desc, err := review13Policy(m, seed)
	if err != nil {
		t.Fatal(err)
	}
	return m, m.Property(""), p, pd, desc
}
