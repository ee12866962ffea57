package verify

import (
	"context"
	"sort"
	"sync"
)

// Engine decides prepared questions. Decide returns the engine's answer
// unchecked: package verify checks it before a caller sees it. An unsafe
// answer must carry a counterexample (Verdict.Trace) that replays in the
// explicit semantics; a safe one an invariant (Verdict.Invariant) that
// ic3/cert accepts. Only vigil's exhaustive engines (bfs, bdd) and ppa,
// which certifies its own answers, say safe without one.
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
// vigil's own in between in their usual order, then any others by name.
func Names() []string {
	regMu.RLock()
	defer regMu.RUnlock()
	// vigil's engines rank 1..n in engineOrder; others n+1; auto last.
	n := len(engineOrder)
	rank := func(name string) int {
		if name == "auto" {
			return n + 2
		}
		for i, e := range engineOrder {
			if e == name {
				return i + 1
			}
		}
		return n + 1
	}
	var ns []string
	for name := range registry {
		ns = append(ns, name)
	}
	sort.Slice(ns, func(i, j int) bool {
		if ri, rj := rank(ns[i]), rank(ns[j]); ri != rj {
			return ri < rj
		}
		return ns[i] < ns[j]
	})
	return ns
}

// engineOrder is the order Names lists vigil's own engines in.
var engineOrder = []string{"bfs", "ic3", "ic3-nog", "polic3", "polic3-nog", "bdd", "ppa"}

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
