package ic3_test

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"vigil/ic3"
	"vigil/ic3/cert"
	"vigil/nn"
	"vigil/smt"
	"vigil/smt/smtlib"
	"vigil/symbolic"
	"vigil/symbolic/explicit"
	"vigil/symbolic/explicit/conformance"
	"vigil/symbolic/gen"
	"vigil/trees"
	"vigil/verify"
)

var (
	s33yN     = flag.Int("s33y.n", 0, "models per kind of TestS33yLostAnywhere (0: the default)")
	s33yP     = flag.Float64("s33y.p", 0, "the rate of limited checks of TestS33yLostAnywhere (0: the default, 0.1)")
	s33yRange = flag.Int("s33y.range", 0, "the generator's MaxRange for TestS33yLostAnywhere (0: the default per kind)")
	s33yFirst = flag.Uint64("s33y.first", 0, "added to the first seed of each kind of TestS33yLostAnywhere")
	s33yCTG   = flag.Bool("s33y.ctg", false, "TestS33yLostAnywhere: IC3 with counterexamples to generalization")
	s33yLimit = flag.Uint("s33y.rlimit", 0, "TestS33yLostAnywhere: no hooks, every query (and the certificate's check) under this --rlimit instead")
)

// s33yInjector makes seeded checks of IC3's solvers run out of a resource
// limit of 1 (Z3 gives up at once, and the solver is lost: smt.Solver.Lost),
// at random points of the run: any query of the main loop, of
// generalization, propagation, APFT, the surely applicable labels, the
// bad region or the range errors. It counts the checks it limited and
// how many of them left their solver lost.
type s33yInjector struct {
	mu       sync.Mutex
	rng      *rand.Rand
	p        float64
	limited  *smt.Solver
	injected int
	lost     int
}

func (in *s33yInjector) hook(s *smt.Solver) {
	in.mu.Lock()
	defer in.mu.Unlock()
	if in.limited != nil && in.limited.Lost() != "" {
		in.lost++
	}
	in.limited = nil
	l := smt.Limits{}
	if in.rng != nil && in.rng.Float64() < in.p {
		l.Rlimit = 1
		in.limited = s
		in.injected++
	}
	if err := s.SetLimits(l); err != nil {
		panic(err)
	}
}

// TestS33yLostAnywhere is the review of session 33's restore of lost
// solvers (ic3/ic3.go restore): on generated models, with no policy, a
// rules policy, random networks and random tree ensembles, IC3 and PolIC3
// run through verify.Decide (which replays every counterexample and
// checks every invariant with the independent checker, under no limit)
// while seeded checks of both solvers run out of a resource limit of 1.
// Every verdict must be BFS's; every safe answer's invariant is checked
// once more by enumeration (no policy or rules) and its certificate by the
// stock z3 binary. Some runs must decide after a lost check (restore at
// work), else the test tests nothing.
func TestS33yLostAnywhere(t *testing.T) {
	n := 150
	if testing.Short() {
		n = 40
	}
	if *s33yN > 0 {
		n = *s33yN
	}
	defer ic3.S33yCheckHooks(nil, nil)
	for _, kind := range []struct {
		name  string
		first uint64
		gen   gen.Options
		mk    func(m *symbolic.Model, outs []symbolic.LabelID, seed uint64) (symbolic.Policy, *symbolic.PolicyDecl, error)
	}{
		{"symbolic", 33001, gen.Options{}, nil},
		{"networks", 33101, gen.Options{MaxVars: 3, MaxRange: 60}, func(m *symbolic.Model, outs []symbolic.LabelID, seed uint64) (symbolic.Policy, *symbolic.PolicyDecl, error) {
			return nn.Random(m, outs, seed, []int{8})
		}},
		{"ensembles", 33201, gen.Options{MaxVars: 3, MaxRange: 60}, func(m *symbolic.Model, outs []symbolic.LabelID, seed uint64) (symbolic.Policy, *symbolic.PolicyDecl, error) {
			return trees.Random(m, outs, seed, 4, 3)
		}},
	} {
		t.Run(kind.name, func(t *testing.T) {
			pols := map[*symbolic.PolicyDecl]symbolic.Policy{}
			in := &s33yInjector{p: 0.1}
			if *s33yP > 0 {
				in.p = *s33yP
			}
			if *s33yRange > 0 {
				kind.gen.MaxRange = *s33yRange
			}
			kind.first += *s33yFirst
			if *s33yLimit == 0 {
				ic3.S33yCheckHooks(in.hook, in.hook)
			}
			var certs []string
			var runs, decidedAfterLoss, safe, unknown int
			seq := uint64(0)
			v := func(ctx context.Context, m *symbolic.Model, prop *symbolic.Property, pd *symbolic.PolicyDecl) (conformance.Answer, error) {
				seq++
				in.mu.Lock()
				in.rng, in.limited = rand.New(rand.NewPCG(kind.first, seq)), nil
				lost0 := in.lost
				in.mu.Unlock()
				ctx, cancel := context.WithTimeout(ctx, 20*time.Second)
				defer cancel()
				if *s33yLimit > 0 {
					ctx = smt.WithRlimit(ctx, uint32(*s33yLimit))
				}
				q := &verify.Question{Model: m, Property: prop, Policy: pd, Engine: "ic3", Header: cert.Header{Model: m.Name}, IC3: verify.IC3Options{CTG: *s33yCTG}}
				if p := pols[pd]; p != nil {
					q.Executable, q.Engine = p, "polic3"
				}
				vd, err := verify.Decide(ctx, q)
				in.mu.Lock()
				if in.limited != nil && in.limited.Lost() != "" {
					in.lost++
				}
				in.limited, in.rng = nil, nil
				lostHere := in.lost > lost0
				in.mu.Unlock()
				runs++
				if err != nil {
					return conformance.Answer{}, err
				}
				if lostHere && vd.Answer != explicit.Unknown {
					decidedAfterLoss++
				}
				switch vd.Answer {
				case explicit.UnsafeVerdict:
					return conformance.Answer{Verdict: explicit.UnsafeVerdict, Trace: vd.Trace}, nil
				case explicit.Safe:
				default:
					unknown++
					return conformance.Answer{Verdict: explicit.Unknown}, nil
				}
				safe++
				if pols[pd] == nil {
					if err := checkInvariantDiffer(m, prop, pd, vd.Invariant.Inv, nil); err != nil {
						return conformance.Answer{}, fmt.Errorf("invariant (enumeration): %v", err)
					}
				}
				var buf bytes.Buffer
				if err := vd.Invariant.Write(&buf, m, prop, pd); err != nil {
					return conformance.Answer{}, err
				}
				certs = append(certs, buf.String())
				return conformance.Answer{Verdict: explicit.Safe}, nil
			}
			opt := conformance.Options{Models: n, FirstSeed: kind.first, MinDecided: 1, Gen: kind.gen}
			if kind.mk == nil {
				opt.NoPolicy = true
			} else {
				opt.Policy = func(m *symbolic.Model, seed uint64) (symbolic.Policy, *symbolic.PolicyDecl, error) {
					outs := make([]symbolic.LabelID, len(m.Labels))
					for i := range outs {
						outs[i] = symbolic.LabelID(i)
					}
					p, d, err := kind.mk(m, outs, seed)
					if err == nil {
						pols[d] = p
					}
					return p, d, err
				}
			}
			conformance.Verify(t, v, opt)
			s33yZ3(t, certs)
			t.Logf("%d runs: %d checks limited, %d of them lost; %d runs decided after a lost check; %d safe (certificates checked), %d unknown", runs, in.injected, in.lost, decidedAfterLoss, safe, unknown)
			if decidedAfterLoss == 0 && *s33yLimit == 0 {
				t.Errorf("no run decided after a lost check: the restores were not exercised")
			}
		})
	}
}

// s33yZ3 runs the stock z3 binary on the certificates (separated by
// (reset)) and expects every check to answer unsat.
func s33yZ3(t *testing.T, certs []string) {
	t.Helper()
	if len(certs) == 0 {
		return
	}
	if _, err := smtlib.Z3Path(); err != nil {
		t.Skipf("the certificates are not checked by the z3 binary: %v", err)
	}
	file := filepath.Join(t.TempDir(), "certs.smt2")
	if err := os.WriteFile(file, []byte(strings.Join(certs, "\n(reset)\n")), 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := smtlib.RunZ3(context.Background(), file)
	if err != nil {
		t.Fatal(err)
	}
	unsat := 0
	for _, w := range strings.Fields(out) {
		switch w {
		case "unsat":
			unsat++
		case "sat", "unknown":
			t.Errorf("z3 on a certificate of a safe answer: %s\n%.2000s", w, out)
			return
		}
	}
	if unsat < 3*len(certs) {
		t.Errorf("z3 answered unsat %d times for %d certificates: %.300s", unsat, len(certs), out)
	}
}
