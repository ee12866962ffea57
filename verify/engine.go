package verify

import (
	"context"
	"sort"
	"sync"
)

// Engine decides prepared questions. Decide returns the engine's answer
// unchecked: package verify checks it (a counterexample replays; an IC3
// invariant goes through ic3/cert) before a caller sees it. An engine that
// reports a safe answer with an invariant sets Verdict.IC3 and
// Verdict.Invariant; one that decides by exhaustive reachability (bfs,
// bdd) sets neither.
type Engine interface {
	// Name is the name Question.Engine selects it by.
	Name() string
	// Decide answers q. A limit or the end of ctx is an Unknown verdict,
	// not an error.
	Decide(ctx context.Context, q *Prepared) (*Verdict, error)
}

var (
	regMu    sync.RWMutex
	registry = map[string]Engine{}
)

// Register adds e to the engines Decide knows; a later engine of the same
// name replaces an earlier one.
func Register(e Engine) {
	regMu.Lock()
	defer regMu.Unlock()
	registry[e.Name()] = e
}

// Lookup returns the engine registered under name.
func Lookup(name string) (Engine, bool) {
	regMu.RLock()
	defer regMu.RUnlock()
	e, ok := registry[name]
	return e, ok
}

// Names lists the registered engines: bfs first (the default), auto last,
// the others in the order of Order, then by name.
func Names() []string {
	regMu.RLock()
	defer regMu.RUnlock()
	rank := map[string]int{}
	for i, n := range Order {
		rank[n] = i + 1
	}
	var ns []string
	for n := range registry {
		ns = append(ns, n)
	}
	sort.Slice(ns, func(i, j int) bool {
		ri, rj := rank[ns[i]], rank[ns[j]]
		if ri == 0 {
			ri = len(Order)
		}
		if rj == 0 {
			rj = len(Order)
		}
		if ri != rj {
			return ri < rj
		}
		return ns[i] < ns[j]
	})
	return ns
}

// Order is the order Names lists vigil's own engines in.
var Order = []string{"bfs", "ic3", "ic3-nog", "polic3", "polic3-nog", "bdd", "ppa", "auto"}

// engineFunc is an Engine made of a name and a function.
type engineFunc struct {
	name   string
	decide func(ctx context.Context, q *Prepared) (*Verdict, error)
}

func (e engineFunc) Name() string { return e.name }
func (e engineFunc) Decide(ctx context.Context, q *Prepared) (*Verdict, error) {
	return e.decide(ctx, q)
}

func init() {
	Register(engineFunc{"bfs", decideBFS})
	for _, n := range []string{"ic3", "ic3-nog", "polic3", "polic3-nog"} {
		gen := n == "ic3" || n == "polic3"
		Register(engineFunc{n, func(ctx context.Context, q *Prepared) (*Verdict, error) { return decideIC3(ctx, q, gen) }})
	}
	Register(engineFunc{"bdd", decideBDD})
	Register(engineFunc{"ppa", decidePPA})
	Register(engineFunc{"auto", decideAuto})
}
