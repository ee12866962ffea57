package symbolic

import (
	"encoding/binary"
)

// Repeated arguments of And and Or. A conjunction or disjunction of the
// same condition twice has the value of one: the IR's conditions are pure
// (an array access's range error is Outcome.Accesses, not a part of the
// condition), so dropping a later copy of an argument changes no value,
// and keeping the first copy where it was keeps the order. Copies are the
// same node (a predicate used twice), or small nodes of the same
// structure (x == 1 && x == 1, written twice); a larger node is compared
// by identity only, so that comparing costs no more than building.

// maxDedupNodes is the most nodes an argument may have to be compared by
// structure.
const maxDedupNodes = 32

// condArgs collects the arguments of one And or Or, without repeats.
type condArgs struct {
	list []*Cond
	// once the list is long, the nodes and the structural keys of the
	// small ones that it holds
	nodes map[*Cond]bool
	keys  map[string]bool
}

// dedupScan is the list length up to which a new argument is compared
// with each one before it, rather than looked up.
const dedupScan = 8

func (a *condArgs) add(c *Cond) {
	if len(a.list) < dedupScan {
		for _, x := range a.list {
			if x == c {
				return
			}
			budget := maxDedupNodes
			if sameCondWithin(x, c, &budget) {
				return
			}
		}
		a.list = append(a.list, c)
		return
	}
	if a.nodes == nil {
		a.nodes, a.keys = map[*Cond]bool{}, map[string]bool{}
		for _, x := range a.list {
			a.nodes[x] = true
			if k, ok := condKey(x); ok {
				a.keys[k] = true
			}
		}
	}
	if a.nodes[c] {
		return
	}
	k, small := condKey(c)
	if small && a.keys[k] {
		return
	}
	a.nodes[c] = true
	if small {
		a.keys[k] = true
	}
	a.list = append(a.list, c)
}

// sameCondWithin reports whether x and y have the same structure (all
// but positions), comparing at most *budget nodes: false when they
// differ or are larger.
func sameCondWithin(x, y *Cond, budget *int) bool {
	if x == y {
		return true
	}
	if x == nil || y == nil {
		return false
	}
	if *budget--; *budget < 0 {
		return false
	}
	if x.Op != y.Op || x.Var != y.Var || x.Cmp != y.Cmp || len(x.Args) != len(y.Args) {
		return false
	}
	if !sameExprWithin(x.L, y.L, budget) || !sameExprWithin(x.R, y.R, budget) {
		return false
	}
	for i := range x.Args {
		if !sameCondWithin(x.Args[i], y.Args[i], budget) {
			return false
		}
	}
	return true
}

func sameExprWithin(x, y *Expr, budget *int) bool {
	if x == y {
		return true
	}
	if x == nil || y == nil {
		return false
	}
	if *budget--; *budget < 0 {
		return false
	}
	if x.Op != y.Op || x.K != y.K || x.Var != y.Var || len(x.Args) != len(y.Args) {
		return false
	}
	for i := range x.Args {
		if !sameExprWithin(x.Args[i], y.Args[i], budget) {
			return false
		}
	}
	return sameCondWithin(x.Cond, y.Cond, budget)
}

// condKey is a key of c's structure (all but positions) when c has at
// most maxDedupNodes nodes: two such conditions have the same key exactly
// when sameCondWithin holds of them.
func condKey(c *Cond) (string, bool) {
	var b []byte
	budget := maxDedupNodes
	b, ok := appendCondKey(b, c, &budget)
	return string(b), ok
}

// The key is a prefix code: a tag per node (nil has its own), then the
// node's fields, then its children, with their counts.
func appendCondKey(b []byte, c *Cond, budget *int) ([]byte, bool) {
	if c == nil {
		return append(b, 0), true
	}
	if *budget--; *budget < 0 {
		return b, false
	}
	b = append(b, 1, byte(c.Op), byte(c.Cmp))
	b = binary.AppendVarint(b, int64(c.Var))
	b = binary.AppendUvarint(b, uint64(len(c.Args)))
	ok := true
	if b, ok = appendExprKey(b, c.L, budget); !ok {
		return b, false
	}
	if b, ok = appendExprKey(b, c.R, budget); !ok {
		return b, false
	}
	for _, a := range c.Args {
		if b, ok = appendCondKey(b, a, budget); !ok {
			return b, false
		}
	}
	return b, true
}

func appendExprKey(b []byte, e *Expr, budget *int) ([]byte, bool) {
	if e == nil {
		return append(b, 0), true
	}
	if *budget--; *budget < 0 {
		return b, false
	}
	b = append(b, 2, byte(e.Op))
	b = binary.AppendVarint(b, int64(e.K))
	b = binary.AppendVarint(b, int64(e.Var))
	b = binary.AppendUvarint(b, uint64(len(e.Args)))
	ok := true
	for _, a := range e.Args {
		if b, ok = appendExprKey(b, a, budget); !ok {
			return b, false
		}
	}
	return appendCondKey(b, e.Cond, budget)
}
