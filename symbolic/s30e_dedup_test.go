package symbolic

import (
	"math/rand"
	"testing"
)

// TestS30eAndOrDedup: And and Or drop an argument already among theirs
// (the same node, or a small one of the same structure), on both the
// short-list and the map path, keep the others in order, and mean the
// same as the arguments with repeats on every state.
func TestS30eAndOrDedup(t *testing.T) {
	x, y := V(0), V(1)
	cmp := func(l *Expr, c CmpOp, k int) *Cond { return Compare(l, c, Lit(k)) }
	rng := rand.New(rand.NewSource(30))
	pool := []*Cond{
		cmp(x, Eq, 1), cmp(x, Eq, 1), cmp(y, Lt, 2), cmp(x, Gt, 0), cmp(y, Ge, -1),
		Not(cmp(x, Eq, 1)), cmp(&Expr{Op: OpAdd, Args: []*Expr{x, y}}, Le, 3),
		cmp(&Expr{Op: OpAdd, Args: []*Expr{x, y}}, Le, 3), {Op: CVar, Var: 1},
	}
	for i := 0; i < 12; i++ {
		pool = append(pool, cmp(x, Ne, i-6))
	}
	for trial := 0; trial < 300; trial++ {
		n := 1 + rng.Intn(30)
		args := make([]*Cond, n)
		for i := range args {
			args[i] = pool[rng.Intn(len(pool))]
		}
		for _, mk := range []struct {
			name string
			f    func(...*Cond) *Cond
			op   CondOp
		}{{"And", And, CAnd}, {"Or", Or, COr}} {
			c := mk.f(args...)
			// the expected list: first occurrences by structure
			var want []*Cond
			for _, a := range args {
				dup := false
				for _, w := range want {
					budget := maxDedupNodes
					if sameCondWithin(w, a, &budget) {
						dup = true
					}
				}
				if !dup {
					want = append(want, a)
				}
			}
			got := []*Cond{c}
			if c.Op == mk.op {
				got = c.Args
			}
			if len(got) != len(want) {
				t.Fatalf("%s of %d arguments has %d, want %d", mk.name, n, len(got), len(want))
			}
			for i := range got {
				if got[i] != want[i] {
					t.Fatalf("%s: argument %d is not the first occurrence", mk.name, i)
				}
			}
			for vx := -1; vx <= 4; vx++ {
				for vy := -3; vy <= 3; vy++ {
					s := State{vx, vy}
					all := mk.op == CAnd
					for _, a := range args {
						if a.Holds(s) != (mk.op == CAnd) {
							all = !all
							break
						}
					}
					if c.Holds(s) != all {
						t.Fatalf("%s differs from its arguments at %v", mk.name, s)
					}
				}
			}
		}
	}
	// a large node of the same structure is kept (compared by identity
	// only), the same node dropped
	big := func() *Cond {
		e := Expr(*x)
		var s *Expr = &e
		for i := 0; i < 40; i++ {
			s = &Expr{Op: OpAdd, Args: []*Expr{s, y}}
		}
		return cmp(s, Lt, 1)
	}
	b1, b2 := big(), big()
	if c := And(b1, b2, b1); c.Op != CAnd || len(c.Args) != 2 || c.Args[0] != b1 || c.Args[1] != b2 {
		t.Errorf("And of two large copies and a repeat: %+v", c)
	}
}

// TestS30eTreeSizer: a chain of conditions that each use the one before
// twice is counted once per node, 2^K as a tree, saturating rather than
// overflowing; a tree without shared nodes is Nodes.
func TestS30eTreeSizer(t *testing.T) {
	c := Compare(V(0), Eq, Lit(1)) // 3 nodes
	var want int64 = 3
	for k := 1; k <= 80; k++ {
		c = &Cond{Op: COr, Args: []*Cond{c, c}}
		want = min(2*want+1, sizeCap)
	}
	ts := NewTreeSizer()
	if got := ts.Cond(c); got != want || got != sizeCap {
		t.Errorf("80 levels: %d nodes, want %d", got, want)
	}
	if n := ts.Nodes(); n != 80+1+2 {
		t.Errorf("80 levels: %d distinct nodes, want 83", n)
	}
	if n := DistinctNodes(c, nil); n != 83 {
		t.Errorf("DistinctNodes: %d", n)
	}
	tree := And(Compare(V(0), Eq, Lit(1)), Compare(&Expr{Op: OpAdd, Args: []*Expr{V(0), V(1)}}, Lt, Lit(2)))
	ts = NewTreeSizer()
	if got := ts.Cond(tree); got != 9 || ts.Nodes() != 9 {
		t.Errorf("a tree of 9 nodes: %d, %d distinct", got, ts.Nodes())
	}
}
