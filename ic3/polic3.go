package ic3

// PolIC3 (paper 004, sections 4 and 5): IC3 where the policy is a neural
// network or a tree ensemble. The policy is never encoded in SMT.
//
//   - successor (the paper's selectSuccessorState) enumerates the commands
//     of the label the policy chooses in the concrete obligation state
//     (explicit semantics).
//   - generalizeLearned and propagate (the paper's generalizeReason and
//     propagateClauses) use the approximate policy frame transition
//     APFT(r, F), apft: for each label a, SMT decides whether a
//     can lead from box r into F at all; if it can, the labels surely
//     applicable throughout r (A̲) are computed by SMT, and the policy's
//     certifier is asked whether a is ever chosen in r given A̲. Only a
//     proved exclusion removes the transition; a refutation or an unknown
//     keeps it, which is sound (the reason just stays larger).
//   - Certification results are cached per label with subsumption: a
//     proved exclusion holds on every sub-box (with at least the same sure
//     labels).
//   - On a box of few states the questions are answered by evaluating
//     the policy and the model on each state (concrete.go): whether the
//     box meets the bad region, its surely applicable labels, APFT itself
//     (exact, where SMT with the certifier over-approximates), and the
//     invariant's policy facts (certified per label on the box, on the
//     bounding box of the states that need them, or per state). SMT and
//     the certifier answer for larger boxes, and for the point query
//     whose unsat core starts generalization.
//
// A range error is the policy's: an outcome of the label it chooses
// leaves a variable's range. SMT does not know the policy, so the solver's
// bad region counts a label's range errors wherever no certified fact
// excludes the label, and PolIC3 certifies such facts where SMT finds a
// state whose erring labels the policy does not choose (rangeerr.go);
// on concrete states the bad region is evaluated exactly (exactBad). A
// range error of the chosen label on a reachable state is an error in the
// model, as in the explicit engine; a state the certifier cannot clear
// ends the run with unknown.

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"vigil/internal/vigilerr"
	"vigil/smt"
	"vigil/symbolic"
	"vigil/symbolic/explicit"
)

// Exclusion is a certifier's answer (symbolic.Certifiable.Exclude).
//
// Deprecated: use symbolic.Exclusion.
type Exclusion = symbolic.Exclusion

// The certifier's answers.
//
// Deprecated: use symbolic.Undecided, symbolic.Excluded and
// symbolic.Possible.
const (
	Undecided = symbolic.Undecided
	Excluded  = symbolic.Excluded
	Possible  = symbolic.Possible
)

// Learned is a learned policy as PolIC3 uses it: exact scores on states,
// and the decision query over boxes of states.
//
// Deprecated: use symbolic.Certifiable.
type Learned = symbolic.Certifiable

// IsLearned reports whether a policy declaration needs PolIC3.
func IsLearned(d *symbolic.PolicyDecl) bool {
	return d != nil && (d.Kind == symbolic.KindNN || d.Kind == symbolic.KindTrees)
}

// NewLearned instantiates a network or ensemble policy declaration with
// its certifier (nn: CROWN with input splitting; trees: box search).
func NewLearned(m *symbolic.Model, d *symbolic.PolicyDecl) (symbolic.Certifiable, error) {
	p, err := symbolic.Instantiate(m, d)
	if err != nil {
		return nil, err
	}
	return Certifier(p)
}

// Certifier returns p as a symbolic.Certifiable: the policy with its
// certifier, which every nn, trees, rules and table policy has.
func Certifier(p symbolic.Policy) (symbolic.Certifiable, error) {
	if c, ok := p.(symbolic.Certifiable); ok {
		return c, nil
	}
	return nil, fmt.Errorf("ic3: a %T policy has no certifier", p)
}

// Fact is a policy fact of a safe PolIC3 answer: in every state of
// Invariant[Box] (within its sub-region Within, when not nil: bounds and
// linear atoms) the policy never chooses Label, given Sure are applicable
// throughout (which SMT proved). The certificate checker re-checks each
// fact independently, over its box and atoms.
type Fact struct {
	Box    int
	Label  symbolic.LabelID
	Sure   []symbolic.LabelID
	Within []smt.Lit
	// Differ: the fact holds only in the states of its region that
	// satisfy the disequality invariant D (Result.Differ), proved by
	// enumerating them (differ.go).
	Differ bool
}

// learned is the PolIC3 state of a run.
type learned struct {
	pol    symbolic.Certifiable
	g      *explicit.Generator
	dec    explicit.Decider
	x      explicit.Expansion
	proved [][]certEntry // per label
	failed [][]certEntry
	sure   map[string][]symbolic.LabelID
	// excl[boxKey(b)]: the labels proved never chosen in the whole box b
	// (given its sure labels): APFT on b assumes them away before its
	// first query, since a box comes back (propagation asks each clause's
	// box again at every level) and the proof does not depend on the frame.
	// Part of the certification cache (off with --cert-cache=false).
	excl map[string][]symbolic.LabelID
	// drops[v]: attempts and successes at dropping variable v from a
	// learned clause (see dropWorth).
	drops []throttle
	// subs: APFT calls that searched sub-boxes, and those that ended with
	// no transition (see apft).
	subs throttle
	// bad caches meetsBad's answers per box (boxKey): they do not depend
	// on the frames.
	bad map[string]badEntry
	// splits remembers the regions whose label was certified by
	// bisection (split.go), keyed by splitKey, with their parts; part of
	// the certification cache. splitTries throttles the splits that APFT
	// tries while no facts are collected (see search).
	splits     map[string][]splitPart
	splitTries throttle
	// reads marks the variables the policy's inputs read (nil: all);
	// a split cuts these first (split.go, halves).
	reads []bool
	// choices remembers the policy's decision per state (choice): in
	// packed the states that pack (run.pack), in choices the others,
	// keyed by key's encoding of the state.
	packed  map[uint64]symbolic.LabelID
	choices map[string]symbolic.LabelID
	key     []byte
}

// throttle counts attempts and successes of an optional step, so that a
// step that almost never pays is tried less often (see worth).
type throttle [2]int

// worth tells whether to attempt the step: always while fewer than 16
// attempts are counted or at least one in 16 succeeded; otherwise only
// every 16th time, and the counts then decay so that the step can come
// back.
func (d *throttle) worth() bool {
	if d[0] < 16 || d[1]*16 >= d[0] {
		return true
	}
	d[0]++ // a skipped attempt counts as a failure: every 16th is tried
	if d[0]%16 == 0 {
		d[0], d[1] = d[0]/2, d[1]/2
		return true
	}
	return false
}

func (d *throttle) record(ok bool) {
	d[0]++
	if ok {
		d[1]++
	}
}

// dropWorth tells whether dropping variable v is worth an APFT call. A
// learned policy's choices vary across the states a wider box adds, so
// on some models almost no drop succeeds and generalization costs twenty
// times the SMT calls of blocking the state alone for no fewer clauses
// (bl8 of the PolIC3 suite). A variable whose drops failed at least 15 of
// 16 times over its last attempts is tried only every 16th time (see
// throttle). This changes which clauses are learned, never whether they
// are valid.
func (l *learned) dropWorth(v int) bool { return l.drops[v].worth() }

func (l *learned) dropped(v int, ok bool) { l.drops[v].record(ok) }

type certEntry struct {
	lo, hi []int           // the region's bounding box
	atoms  []symbolic.Atom // its linear atoms (none: the whole box)
	sure   []symbolic.LabelID
	w      symbolic.State // failed: a state of the box where the label wins, if the certifier gave one
	// differ: proved only within the disequality invariant D, by
	// enumeration (differ.go); a fact that rests on it says so.
	differ bool
}

// cacheScan is how many of the newest cache entries of a label a lookup
// reads: a miss costs one certifier call, usually less than reading tens
// of thousands of entries (the sub-box search of excludeAround makes
// that many on rover), and the newest entries are the likeliest to hit.
const cacheScan = 1024

// inside reports whether the box lo..hi lies in the box LO..HI.
func inside(lo, hi, LO, HI []int) bool {
	for i := range lo {
		if lo[i] < LO[i] || hi[i] > HI[i] {
			return false
		}
	}
	return true
}

func newLearned(m *symbolic.Model, prop *symbolic.Property, pol symbolic.Certifiable) (*learned, error) {
	g, err := explicit.New(m, prop)
	if err != nil {
		return nil, err
	}
	dec, err := explicit.PolicyDecider(m, pol)
	if err != nil {
		return nil, err
	}
	return &learned{pol: pol, g: g, dec: dec,
		proved: make([][]certEntry, len(m.Labels)), failed: make([][]certEntry, len(m.Labels)),
		sure: map[string][]symbolic.LabelID{}, excl: map[string][]symbolic.LabelID{}, bad: map[string]badEntry{},
		splits: map[string][]splitPart{},
		drops:  make([]throttle, len(m.Vars))}, nil
}

// successor is the paper's selectSuccessorState for a learned policy: a
// successor of s, other than s, under the label the policy chooses, in
// F_j (the bad region for j = 0). found is false when there is none.
func (r *run) successor(s symbolic.State, j int) (to symbolic.State, cmd, out int, found bool, err error) {
	l := r.learned
	g, m := l.g, r.m
	if g.Status(s) != explicit.Open {
		return nil, 0, 0, false, nil
	}
	a, err := r.choice(s)
	if err != nil || a == symbolic.NoLabel {
		return nil, 0, 0, false, err
	}
	for c := range m.Commands {
		if m.Commands[c].Label != a || !g.Guard(s, c) {
			continue
		}
		for o := range m.Commands[c].Outcomes {
			t, err := g.Apply(s, c, o)
			if err != nil {
				return nil, 0, 0, false, fmt.Errorf("ic3: a reachable state's outcome leaves a variable's range: %w", err)
			}
			if slices.Equal(t, s) {
				continue // relative induction: s itself does not count
			}
			if j == 0 && r.concreteBad(t) || j > 0 && !r.blockedAt(t, j) {
				return t, c, o, true, nil
			}
		}
	}
	return nil, 0, 0, false, nil
}

// concreteBad is the bad region on a concrete state (exactBad): unsafe,
// or not terminal with an outcome of the policy's label leaving a range;
// a state that cannot be evaluated counts as bad (the counterexample
// that ends there is checked again).
func (r *run) concreteBad(t symbolic.State) bool {
	bad, known := r.exactBad(t)
	return bad || !known
}

// bounds returns the per-variable bounds of b's bounding box: its bound
// literals, within the variables' ranges. A linear atom (a relational
// lemma's) bounds no single variable and is left out, so the box is a
// superset of the region; region returns the atoms as well, and a
// certifier without regions certifies over the box alone, which is sound
// for b.
func (r *run) bounds(b box) (lo, hi []int) {
	lo, hi = make([]int, len(r.m.Vars)), make([]int, len(r.m.Vars))
	for i := range r.m.Vars {
		lo[i], hi[i] = r.m.Vars[i].Lo, r.m.Vars[i].Hi
	}
	for _, l := range b {
		if l.Form != nil {
			continue
		}
		if l.Upper {
			hi[l.Var] = min(hi[l.Var], l.K)
		} else {
			lo[l.Var] = max(lo[l.Var], l.K)
		}
	}
	return lo, hi
}

func boxKey(b box) string {
	var sb strings.Builder
	for _, l := range b {
		if l.Form != nil {
			sb.WriteString(l.Form.Key())
		}
		fmt.Fprintf(&sb, "%d%t%d,", l.Var, l.Upper, l.K)
	}
	return sb.String()
}

// sureLabels returns A̲(b): the labels applicable in every state of b.
func (r *run) sureLabels(b box) ([]symbolic.LabelID, error) {
	k := boxKey(b)
	if s, ok := r.learned.sure[k]; ok {
		return s, nil
	}
	if sure, ok := r.sureConcrete(b); ok {
		r.learned.sure[k] = sure
		r.stats.Evaluated++
		return sure, nil
	}
	// Candidates are dropped in batches: one query asks for a state of b
	// where some candidate is not applicable, and every label not
	// applicable there is dropped.
	sv, l := r.sv, r.learned
	cand := make([]bool, len(r.m.Labels))
	n := 0
	for i := range cand {
		cand[i] = true
		n++
	}
	// (No flushRetired here: APFT holds terms across this call, and a
	// rebuild would free them.)
	if err := sv.ready(); err != nil {
		return nil, err
	}
	for n > 0 {
		var ors []smt.Term
		for i, c := range cand {
			if c {
				ors = append(ors, sv.notApp[i])
			}
		}
		res, w, err := sv.checkCur(b, sv.x.Or(ors...))
		if err != nil {
			return nil, err
		}
		if res == smt.Unknown {
			return nil, nil // sound: no label is known to be sure
		}
		if res == smt.Unsat {
			break
		}
		l.g.Applicable(w, &l.x)
		dropped := false
		for i := range cand {
			if cand[i] && !l.x.App[i] {
				cand[i] = false
				n--
				dropped = true
			}
		}
		if !dropped {
			return nil, vigilerr.Internalf("ic3", "SMT and the explicit engine disagree on the applicable labels of %s", r.m.FormatState(w))
		}
	}
	var sure []symbolic.LabelID
	for i, c := range cand {
		if c {
			sure = append(sure, symbolic.LabelID(i))
		}
	}
	r.learned.sure[k] = sure
	return sure, nil
}

func subset(a, b []symbolic.LabelID) bool {
	for _, x := range a {
		if !slices.Contains(b, x) {
			return false
		}
	}
	return true
}

// excluded asks the certifier, through the cache, whether label a is
// never chosen in b's region (its bounding box and linear atoms, see
// region.go) given sure; if not, w may be a state where a beats the
// labels of sure. Where the run has a disequality invariant D, the
// region's states within D are enumerated first (differ.go), and the
// certifier is asked only when they are too many; r.lastDiffer then
// tells that a "true" holds within D only.
func (r *run) excluded(b box, a symbolic.LabelID, sure []symbolic.LabelID) (ok bool, w symbolic.State, err error) {
	l := r.learned
	lo, hi, atoms := r.region(b)
	if !r.opts.NoCertCache {
		proved, failed := l.proved[a], l.failed[a]
		for i := len(proved) - 1; i >= max(0, len(proved)-cacheScan); i-- {
			if e := proved[i]; regionInside(lo, hi, atoms, e.lo, e.hi, e.atoms) && subset(e.sure, sure) {
				r.stats.CertHits++
				r.lastDiffer = e.differ
				return true, nil, nil
			}
		}
		for i := len(failed) - 1; i >= max(0, len(failed)-cacheScan); i-- {
			if e := failed[i]; regionInside(e.lo, e.hi, e.atoms, lo, hi, atoms) && subset(sure, e.sure) {
				r.stats.CertHits++
				return false, e.w, nil
			}
		}
	}
	if r.differ != nil {
		// Within D, by enumeration (differ.go) first: over the whole
		// region, atoms included, exact within D, and cheaper than the
		// certifier where the region holds few enough states of D to
		// enumerate (np3x3 with 64x64 networks: CROWN took 1.2 ms on
		// each of 502 calls that failed, after which the enumeration
		// ran anyway, and 96 ms on each of 8 that succeeded, against a
		// few µs a state). The certifier answers beyond the budget.
		t0 := time.Now()
		ok, dw, err := l.excludedWithin(r.differ, lo, hi, atoms, a, sure)
		r.stats.CertTime += time.Since(t0)
		if err != nil {
			return false, nil, err
		}
		if ok || dw != nil {
			r.stats.CertCalls++
			e := certEntry{lo: lo, hi: hi, atoms: atoms, sure: sure, w: dw, differ: ok}
			if ok {
				r.stats.DifferFacts++
				l.proved[a] = append(l.proved[a], e)
				r.lastDiffer = true
				return true, nil, nil
			}
			l.failed[a] = append(l.failed[a], e)
			return false, dw, nil
		}
	}
	t0 := time.Now()
	v, w, used, err := l.certify(lo, hi, atoms, a, sure)
	r.stats.CertTime += time.Since(t0)
	r.stats.CertCalls++
	if err != nil {
		return false, nil, err
	}
	if len(used) > 0 {
		r.stats.RegionCalls++
	}
	e := certEntry{lo: lo, hi: hi, atoms: used, sure: sure, w: w}
	switch v {
	case symbolic.Excluded:
		l.proved[a] = append(l.proved[a], e)
		r.lastDiffer = e.differ
		return true, nil, nil
	case symbolic.Undecided:
		r.stats.CertUnknown++
	}
	l.failed[a] = append(l.failed[a], e)
	return false, w, nil
}

// Limits of the sub-box refinement of APFT (see excludeAround).
const (
	subBoxesPerAPFT = 4    // sub-boxes certified in one APFT call
	subBoxesFinal   = 4096 // the same when the invariant's facts are collected, once
	cutsPerSubBox   = 40   // certifier calls in the search for one sub-box
)

// excludeAround looks for a sub-box of b that holds w, a state where the
// policy does not choose a, and where the certifier proves that a is never
// chosen: it cuts b between w and the state v where a was shown to win, on
// the variable where they lie furthest apart relative to its range (so
// that the cut leaves v out), at most cutsPerSubBox times. It gives up
// when the certifier gives no such state: an undecided call spent the
// certifier's whole budget, and more of them would cost more than the
// sub-box saves (on npuzzle 3x4 with networks, 55 of 60 seconds).
// APFT needs no more: only the states of b with an a-step into the frame
// need the exclusion, and these are often a thin slice of b (the states
// next to the unsafe region), while the label wins elsewhere in b.
//
// The sub-box's sure labels (subSure) are its own where it is small
// enough to evaluate (concrete.go), else b's: a smaller box often has
// more labels applicable throughout, which the certifier needs to show
// that a loses to one of them. With a region certifier the sub-region
// keeps b's linear atoms, and cuts may be atoms on the model's axes
// (separatingAxis): the first try cuts b at w along the axis that
// separates w from v best; without v (an undecided certifier), the
// slices of b through w along those axes. When the cuts find nothing, the
// last try is w
// alone, with the labels applicable in w: the bounding box of a region
// with linear atoms may hold states outside the region where a wins (v),
// which no cut of the bounding box leaves out otherwise.
func (r *run) excludeAround(b box, w symbolic.State, a symbolic.LabelID, sure []symbolic.LabelID, v symbolic.State) (sub box, subSure []symbolic.LabelID, ok bool, err error) {
	lo, hi := r.bounds(b)
	_, region := r.learned.pol.(symbolic.RegionCertifiable)
	var cuts box // atoms on the model's axes that cut v away (region certifiers)
	// try certifies the region c with its own sure labels where it is
	// small, b's otherwise; u is a state of c where a wins, if known.
	try := func(c box) (cs []symbolic.LabelID, ok bool, u symbolic.State, err error) {
		cs = sure
		if s, small := r.sureConcrete(c); small {
			cs = s
		}
		ok, u, err = r.excluded(c, a, cs)
		return cs, ok, u, err
	}
	// cut is b within lo..hi and the cuts.
	cut := func() box {
		c := r.subRegion(b, lo, hi)
		for _, l := range cuts {
			c = withAtom(c, l)
		}
		return c.sorted()
	}
	if region && v == nil {
		// No state where a wins (the certifier was undecided on b, or on
		// a region of b the cache remembers): the slice of b through w
		// along each axis of several variables, the form fixed at w's
		// value (braking_net: the diagonal through w).
		for _, x := range r.axes {
			if x.form == nil {
				continue
			}
			fw := x.form.Eval(w)
			c := withAtom(withAtom(b, smt.FormLit(x.form, false, fw)), smt.FormLit(x.form, true, fw)).sorted()
			if cs, ok, _, err := try(c); err != nil || ok {
				return c, cs, ok, err
			}
		}
	}
	if region && v != nil {
		// First the half of b on w's side of the axis that separates w
		// from v best, cut at w itself: on braking_net the diagonal
		// d - v <= 0 of the cell d - v >= 0, which holds every state whose
		// up-step leaves the cell, and where up never wins.
		if x, _, ok := r.separatingAxis(w, v); ok {
			fw := x.form.Eval(w)
			cuts = withAtom(cuts, smt.FormLit(x.form, x.form.Eval(v) > fw, fw))
			c := cut()
			cs, ok, u, err := try(c)
			if err != nil || ok {
				return c, cs, ok, err
			}
			v = u
		}
	}
	for range cutsPerSubBox {
		if v == nil {
			break
		}
		best, score := -1, 0.0
		for i := range lo {
			width := float64(r.m.Vars[i].Hi - r.m.Vars[i].Lo + 1)
			if d := float64(max(v[i]-w[i], w[i]-v[i])); d/width > score {
				best, score = i, d/width
			}
		}
		// An axis of several variables (relational.go) may separate w
		// from v better than any variable: d - v on braking_net, where
		// the label wins below the diagonal and w lies on it. Only a
		// region certifier can use such a cut (over a bounding box it
		// cuts nothing).
		var ax *axis
		if region {
			if x, d, ok := r.separatingAxis(w, v); ok && d > score {
				best, ax = -1, x
			}
		}
		switch {
		case ax != nil:
			fv, fw := ax.form.Eval(v), ax.form.Eval(w)
			if fv < fw {
				cuts = withAtom(cuts, smt.FormLit(ax.form, false, fv+(fw-fv+1)/2))
			} else {
				cuts = withAtom(cuts, smt.FormLit(ax.form, true, fv-(fv-fw+1)/2))
			}
		case best < 0:
			v = nil // v is w: a beats the sure labels there, not w's own
			continue
		case v[best] < w[best]:
			lo[best] = v[best] + (w[best]-v[best]+1)/2
		default:
			hi[best] = v[best] - (v[best]-w[best]+1)/2
		}
		c := cut()
		cs, ok, u, err := try(c)
		if err != nil || ok {
			return c, cs, ok, err
		}
		v = u
	}
	p := point(r.m, w)
	ps, _ := r.sureConcrete(p)
	ok, _, err = r.excluded(p, a, ps)
	if err != nil || !ok {
		return nil, nil, false, err
	}
	return p, ps, true, nil
}

// separatingAxis returns the axis of several variables on which w and v
// lie furthest apart relative to its range, and that distance, if they
// differ on one.
func (r *run) separatingAxis(w, v symbolic.State) (*axis, float64, bool) {
	var best *axis
	score := 0.0
	for _, x := range r.axes {
		if x.form == nil {
			continue
		}
		flo, fhi := x.form.Range(r.m)
		fv, fw := x.form.Eval(v), x.form.Eval(w)
		if d := float64(max(fv-fw, fw-fv)) / float64(fhi-flo+1); d > score {
			best, score = x, d
		}
	}
	return best, score, best != nil
}

// withAtom returns b with the atom l, which replaces b's atom on the same
// form and side when l is at least as tight (else b is returned as is).
func withAtom(b box, l smt.Lit) box {
	for i, k := range b {
		if k.Form == l.Form && k.Upper == l.Upper {
			if l.Upper && l.K < k.K || !l.Upper && l.K > k.K {
				b = slices.Clone(b)
				b[i] = l
			}
			return b
		}
	}
	return append(slices.Clone(b), l)
}

// boxOf is the box of the bounds lo..hi (no literal where a bound is the
// variable's own).
func (r *run) boxOf(lo, hi []int) box {
	var b box
	for i, v := range r.m.Vars {
		if lo[i] > v.Lo {
			b = append(b, smt.Lit{Var: symbolic.VarID(i), K: lo[i]})
		}
		if hi[i] < v.Hi {
			b = append(b, smt.Lit{Var: symbolic.VarID(i), Upper: true, K: hi[i]})
		}
	}
	return b
}

// apft is the approximate policy frame transition APFT(b, F_j): false
// only if no policy transition leads from b into F_j (∧ ¬b when rel).
// facts, when not nil, collects the labels excluded by the policy.
//
// hint names labels worth certifying as excluded on b before the first
// query (those proved excluded on a box that b grows from): each one the
// certifier excludes saves the SMT call, and the model, of finding its
// steps first.
func (r *run) apft(b box, j int, rel bool, facts *[]Fact, boxIndex int, hint []symbolic.LabelID) (bool, error) {
	sv := r.sv
	r.lastWitness = nil
	r.lastCoreFree = false
	if facts == nil && !r.wantCore {
		if possible, ok := r.apftConcrete(b, j, rel); ok {
			r.stats.Evaluated++
			return possible, nil
		}
	}
	if err := r.flushRetired(); err != nil {
		return true, err
	}
	if err := sv.ready(); err != nil {
		return true, err
	}
	c := &apftCall{r: r, b: b, j: j, key: boxKey(b), facts: facts, boxIndex: boxIndex}
	defer c.retire()
	c.acts = sv.frame([]smt.Term{sv.trans}, j, r.N)
	if rel && j > 0 {
		c.rel = true
		tmp := sv.st.Activation()
		if err := sv.st.Block(tmp, b, true); err != nil {
			return true, err
		}
		c.acts = append(c.acts, tmp)
		c.tmps = append(c.tmps, tmp)
	}
	if !r.opts.NoCertCache {
		if err := c.recall(hint); err != nil {
			return true, err
		}
	}
	possible, searched, err := c.search()
	// The sub-box search costs certifier calls; where it seldom turns an
	// APFT call into "no transition" (npuzzle 3x4 with networks: most of
	// the run's time) it is throttled (see search).
	if searched {
		r.learned.subs.record(!possible && err == nil)
	}
	// So do splits of undecided certifications (split.go) where they
	// seldom let APFT answer "no transition": on a box that generalization
	// widens, a split may certify the label and the query still find a
	// step by another label.
	if len(c.split) > 0 && facts == nil {
		r.learned.splitTries.record(!possible && err == nil)
	}
	return possible, err
}

// apftCall is the state of one APFT call on box b: the query's
// assumptions, which grow as labels are excluded, and the sure labels of
// b, computed when the first label is certified.
type apftCall struct {
	r        *run
	b        box
	j        int    // the frame F_j asked about
	rel      bool   // the query is relative: steps into F_j outside b
	key      string // boxKey(b)
	acts     []smt.Term
	sure     []symbolic.LabelID
	sureDone bool
	facts    *[]Fact // nil unless the invariant's facts are collected
	boxIndex int
	// tmps are the temporary literals of the call, retired (in reverse
	// order) when it returns.
	tmps []smt.Term
	// policy are the assumptions that rest on the certifier: the
	// excluded labels' literals and the sub-box exclusions.
	policy []smt.Term
	// split are the labels whose certification over b was split
	// (split.go) in this call.
	split []symbolic.LabelID
}

// retire hands the call's temporary literals to flushRetired, the newest
// first.
func (c *apftCall) retire() {
	for i := len(c.tmps) - 1; i >= 0; i-- {
		c.r.pending = append(c.r.pending, c.tmps[i])
	}
}

// needSure computes A̲(b), the labels surely applicable in b, once.
func (c *apftCall) needSure() error {
	if c.sureDone {
		return nil
	}
	sure, err := c.r.sureLabels(c.b)
	if err != nil {
		return err
	}
	c.sure, c.sureDone = sure, true
	return nil
}

// exclude leaves label a (proved never chosen in b; within D only, when
// differ) out of the query, remembers it for b, and records it as a fact
// when they are collected.
func (c *apftCall) exclude(a symbolic.LabelID, differ bool) {
	l := c.r.learned
	c.acts = append(c.acts, c.r.sv.notLabel[a])
	c.policy = append(c.policy, c.r.sv.notLabel[a])
	if !slices.Contains(l.excl[c.key], a) {
		l.excl[c.key] = append(l.excl[c.key], a)
	}
	if c.facts != nil {
		*c.facts = append(*c.facts, Fact{Box: c.boxIndex, Label: a, Sure: c.sure, Differ: differ})
	}
}

// certify asks the certifier whether a is never chosen in b and, if so,
// excludes it; v is a state where a wins when it is not.
func (c *apftCall) certify(a symbolic.LabelID) (ok bool, v symbolic.State, err error) {
	if err := c.needSure(); err != nil {
		return false, nil, err
	}
	if ok, v, err = c.r.excluded(c.b, a, c.sure); ok && err == nil {
		c.exclude(a, c.r.lastDiffer)
	}
	return ok, v, err
}

// recall excludes, before the first query, the labels already proved
// never chosen in b, and certifies those of hint.
func (c *apftCall) recall(hint []symbolic.LabelID) error {
	l := c.r.learned
	for _, a := range slices.Clone(l.excl[c.key]) {
		if err := c.needSure(); err != nil {
			return err
		}
		if c.facts != nil && c.r.differ != nil {
			// the fact must say whether it holds within D only: ask
			// the cache, which remembers
			if _, _, err := c.certify(a); err != nil {
				return err
			}
			continue
		}
		c.r.stats.CertHits++
		c.exclude(a, false)
	}
	for _, a := range hint {
		if slices.Contains(l.excl[c.key], a) {
			continue
		}
		if _, _, err := c.certify(a); err != nil {
			return err
		}
	}
	return nil
}

// search asks SMT for a step from b into the frame by a label not yet
// excluded, one query for all of them: a witness names the label to
// certify next, so the SMT calls are one plus the labels the policy has
// to exclude, not one per label. A label that wins somewhere in b is
// excluded from a sub-box around the witness when the certifier proves
// that (excludeSubBox). searched reports that the sub-box search ran.
func (c *apftCall) search() (possible, searched bool, err error) {
	r, sv, l := c.r, c.r.sv, c.r.learned
	subBoxes, refines := 0, 0
	for {
		res, err := sv.check(c.b, c.acts)
		if err != nil {
			return true, searched, err
		}
		switch res {
		case smt.Unsat:
			r.lastCore, err = sv.core()
			r.lastCoreFree = err == nil && !slices.ContainsFunc(sv.coreActs, func(t smt.Term) bool {
				return slices.Contains(c.policy, t)
			})
			return false, searched, err
		case smt.Unknown:
			return true, searched, nil
		}
		w, a, err := sv.st.WitnessLabel()
		if err != nil {
			return true, searched, err
		}
		// A witness where the policy really chooses a: a concrete
		// transition, no certification needed; into the bad region
		// (j = 0) it must end in a state that is bad for the policy,
		// else the range error there is certified away first
		// (rangeerr.go) and SMT asked again.
		if ch, err := r.choice(w); err != nil || ch == a {
			if err == nil && c.j == 0 && refines < maxRangeRefines {
				_, t, _, _, err := sv.st.Witness()
				if err != nil {
					return true, searched, err
				}
				ok, err := r.rangeRefine(r.hull(c.b, t), t)
				if err != nil {
					return true, searched, err
				}
				if ok {
					refines++
					continue
				}
			}
			if err == nil {
				r.lastWitness = slices.Clone(w)
			}
			return true, searched, err
		}
		ok, v, err := c.certify(a)
		if err != nil {
			return true, searched, err
		}
		if ok {
			continue
		}
		// Undecided (no state where a wins): certify a over the halves
		// of b, and theirs, as far as needed (split.go), once per label
		// and call. Where that covers b, a is excluded from b; the parts
		// certified otherwise block a's steps from them.
		if v == nil && !slices.Contains(c.split, a) && (c.facts != nil || l.splitTries.worth()) {
			c.split = append(c.split, a)
			parts, _, err := r.splitExclude(c.b, a, c.sure)
			if err != nil {
				return true, searched, err
			}
			if err := c.blockParts(a, parts); err != nil {
				return true, searched, err
			}
			if len(parts) > 0 {
				continue
			}
		}
		// The label wins somewhere in b, but maybe not where its steps
		// lead into the frame: exclude it from a sub-box around w and ask
		// again without the steps from there. Never throttled when the
		// facts are collected.
		if subBoxes == subBoxesPerAPFT && c.facts == nil || subBoxes == subBoxesFinal {
			return true, searched, nil
		}
		if !searched && c.facts == nil && !l.subs.worth() {
			return true, searched, nil
		}
		searched = true
		// A state of b (w, or v where a wins) whose step under the
		// policy's own label leads into the frame (outside b when the
		// query is relative) is a real transition: no certifier can
		// exclude it, so the search would end in "possible" after more
		// SMT calls; say so now.
		if c.facts == nil {
			for _, t := range [...]symbolic.State{w, v} {
				if c.realStep(t) {
					r.stats.Refuted++
					r.lastWitness = slices.Clone(t)
					return true, searched, nil
				}
			}
		}
		ok, err = c.excludeSubBox(w, a, v)
		if err != nil || !ok {
			return true, searched, err
		}
		subBoxes++
	}
}

// realStep reports whether state t (nil: no) lies in the call's box and
// has, under the label the policy chooses there, a successor in F_j (bad
// for j = 0) outside the box when the query is relative (policyStep).
func (c *apftCall) realStep(t symbolic.State) bool {
	if t == nil || !c.b.holds(t) || !c.r.inD(t) {
		return false
	}
	var out box
	if c.rel {
		out = c.b
	}
	return c.r.policyStep(t, out, c.j) != nil
}

// excludeSubBox looks for a sub-box of b around w where the certifier
// proves a never chosen (excludeAround; v is a state where a wins) and
// blocks a's steps from it in the query.
func (c *apftCall) excludeSubBox(w symbolic.State, a symbolic.LabelID, v symbolic.State) (bool, error) {
	r, sv := c.r, c.r.sv
	cb, cs, ok, err := r.excludeAround(c.b, w, a, c.sure, v)
	if err != nil || !ok {
		return false, err
	}
	differ := r.lastDiffer // of the certification that succeeded, the last
	r.stats.SubBoxes++
	tmp := sv.st.Activation()
	c.tmps = append(c.tmps, tmp)
	if err := sv.st.BlockLabel(tmp, a, cb); err != nil {
		return false, err
	}
	c.acts = append(c.acts, tmp)
	c.policy = append(c.policy, tmp)
	if c.facts != nil {
		*c.facts = append(*c.facts, Fact{Box: c.boxIndex, Label: a, Sure: cs, Within: cb, Differ: differ})
	}
	return true, nil
}

// generalizeLearned is the paper's generalizeReason with APFT: start from
// the state, drop whole variables, then widen bounds, each step confirmed
// by APFT.
func (r *run) generalizeLearned(s symbolic.State, j int) (box, error) {
	b := point(r.m, s)
	// try returns c, or the smaller box of a policy-free core of its
	// query (freeCore), when c qualifies, else nil.
	try := func(c box) (box, error) {
		c = c.sorted()
		if r.refuted(c, s, j) {
			r.stats.Refuted++
			return nil, nil
		}
		hit, _, err := r.meetsBad(c)
		if err != nil || hit {
			return nil, err
		}
		possible, err := r.apft(c, j, true, nil, 0, r.learned.excl[boxKey(b)])
		if err != nil || possible {
			return nil, err
		}
		if nb, err := r.freeCore(c); err != nil || nb != nil {
			return nb, err
		}
		return c, nil
	}
	if !r.opts.Generalize {
		return b, nil
	}
	// First candidate: the box literals that the last unsat query of
	// APFT(point) needed (its core); the policy exclusions it relied on are
	// certified again on that larger box by try, unless it relied on none.
	r.wantCore = true // SMT's core, not the point itself
	possible, err := r.apft(b, j, true, nil, 0, nil)
	r.wantCore = false
	if err != nil {
		return nil, err
	}
	if !possible && len(r.lastCore) < len(b) {
		nb, err := r.freeCore(b)
		if err == nil && nb == nil {
			nb, err = try(append(box{}, r.lastCore...))
		}
		if err != nil {
			return nil, err
		}
		if nb != nil {
			b = nb.sorted()
		}
	}
	// Drop variables (both bounds at once), in the chosen order.
	for _, l := range r.order(b) {
		if l.Upper || !slices.Contains(b, l) {
			continue
		}
		if !r.learned.dropWorth(int(l.Var)) {
			continue
		}
		c := box{}
		for _, k := range b {
			if k.Var != l.Var {
				c = append(c, k)
			}
		}
		nb, err := try(c)
		if err != nil {
			return nil, err
		}
		r.learned.dropped(int(l.Var), nb != nil)
		if nb != nil {
			b = nb
		}
	}
	b, err = r.widenBounds(b, try)
	if err != nil {
		return nil, err
	}
	return b.sorted(), nil
}

// freeCore returns, after APFT(c, F_j) (∧ ¬c) answered "no transition"
// with a policy-free core (lastCoreFree), the box of the core's literals
// with literals of c added back until it is disjoint from the bad region
// (repair), when that is smaller than c; nil otherwise (then c stands, or
// the core must be certified again as a candidate of its own).
//
// Sound without a certifier call: the unsat query assumed the core's
// literals, the frame, and ¬c' (relative induction), but no exclusion of
// a label, so no transition under any label leads from the core's states
// into F_j ∧ ¬c'. A box r whose literals lie between the core's and c's
// has fewer states than the core's box and more than c, so ¬r' ⊆ ¬c':
// no transition leads from r into F_j ∧ ¬r' either (generalize's argument
// for symbolic policies). Only a core that needs an exclusion must have
// it certified again on the larger box (dropLearned, try).
func (r *run) freeCore(c box) (box, error) {
	if !r.opts.FreeCores || !r.lastCoreFree || len(r.lastCore) >= len(c) {
		return nil, nil
	}
	b, err := r.repair(r.lastCore, c)
	if err != nil || b == nil || len(b) >= len(c) {
		return nil, err
	}
	r.stats.FreeCores++
	return b, nil
}

// refuted reports whether a concrete state of the candidate box c (which
// holds s) shows that c cannot be blocked at level j: the state is bad, or
// the label the policy chooses there leads into F_j outside c. Then
// meetsBad or APFT(c, F_j) would say so too (a real transition is never
// excluded by a sound certifier), so the answer is the same at the cost of
// a few policy evaluations instead of SMT calls; a candidate it does not
// refute still goes to SMT. The states tried vary one variable of s at a
// time over up to nine values of its range in c, ends included: a drop or
// a widening that fails usually fails on one variable's other values.
// (States of c's bounding box outside a region with linear atoms are
// skipped, and so are states outside the disequality invariant, where
// the value is swapped with the variable that holds it.)
func (r *run) refuted(c box, s symbolic.State, j int) bool {
	lo, hi := r.bounds(c)
	t := slices.Clone(s)
	for v := range lo {
		if lo[v] == hi[v] {
			continue
		}
		step := max(1, (hi[v]-lo[v])/8)
		for k := lo[v]; ; k += step {
			if k > hi[v] {
				k = hi[v]
			}
			if k != s[v] {
				t[v] = k
				// Within a disequality invariant, the variable that held
				// k takes v's value: a swap keeps the state in D where
				// changing one variable would leave it (npuzzle: two
				// tiles on one cell).
				u := -1
				if r.differ != nil {
					u = slices.Index(s, k)
					if u >= 0 {
						t[u] = s[v]
					}
				}
				if c.holds(t) && r.inD(t) && r.concreteStep(t, c, j) {
					return true
				}
				if u >= 0 {
					t[u] = s[u]
				}
			}
			if k == hi[v] {
				break
			}
		}
		t[v] = s[v]
	}
	return false
}

// concreteStep reports whether state t (in the box c) is bad, or has a
// successor under the policy's label in F_j (bad for j = 0) outside c
// (anywhere for c = nil: the query is not relative).
func (r *run) concreteStep(t symbolic.State, c box, j int) bool {
	return r.concreteBad(t) || r.policyStep(t, c, j) != nil
}

// policyStep returns a successor of t under the label the policy chooses
// there that lies in F_j (bad for j = 0) outside c (anywhere for c =
// nil), or nil when there is none.
func (r *run) policyStep(t symbolic.State, c box, j int) symbolic.State {
	l := r.learned
	g, m := l.g, r.m
	if g.Status(t) != explicit.Open {
		return nil
	}
	a, err := r.choice(t)
	if err != nil || a == symbolic.NoLabel {
		return nil
	}
	for cmd := range m.Commands {
		if m.Commands[cmd].Label != a || !g.Guard(t, cmd) {
			continue
		}
		for o := range m.Commands[cmd].Outcomes {
			u, err := g.Apply(t, cmd, o)
			if err != nil || c != nil && c.holds(u) {
				continue
			}
			if j == 0 && r.concreteBad(u) || j > 0 && !r.blockedAt(u, j) {
				return u
			}
		}
	}
	return nil
}

// certifyInvariant computes the policy facts of the invariant inv (the
// boxes of levels ≥ k): for each box and label whose transitions SMT
// cannot rule out, or that has a range error somewhere in the box
// (rangeFacts), the certified exclusion. ok is false if some pair is
// neither (cannot happen for clauses IC3 validated; reported as unknown).
func (r *run) certifyInvariant(inv []box, k int) ([]Fact, bool, error) {
	var facts []Fact
	for i, b := range inv {
		if fs, ok, done, err := r.factsConcrete(b, i, k); err != nil || done {
			if err != nil || !ok {
				return nil, false, err
			}
			r.stats.Evaluated++
			facts = append(facts, fs...)
			continue
		}
		possible, err := r.apft(b, k, false, &facts, i, nil)
		if err != nil {
			return nil, false, err
		}
		if possible {
			return nil, false, nil
		}
		// the range errors of labels the policy does not choose in b
		if ok, err := r.rangeFacts(b, i, &facts); err != nil || !ok {
			return nil, false, err
		}
	}
	return facts, true, nil
}
