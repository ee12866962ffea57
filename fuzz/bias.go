package fuzz

// Fuzzing biases for goal-reaching testing: paper 001's policy-quality
// bias and novelty filter, paper 003's loopiness, detour and surface biases.
// A bias maps a successor state, through the partial policy run from it,
// to a number; higher numbers make the random walk more likely to go there.
// Paper 003's biases use state distances h(s_i, s_j) and goal distances
// h(s); we use the interval relaxation of goal_relax.go (its h_add-style
// estimate) where the paper uses h^FF.

import (
	"fmt"
	"math"
	"strings"

	"vigil/symbolic"
)

// Bias names.
const (
	BiasPolicyQuality = "polqual" // paper 001: prefer long policy runs; failing runs go straight to the pool
	BiasNovelty       = "novelty" // paper 001: admit only states with a new fact or fact pair
	BiasLoop          = "loop"    // paper 003: the run nearly loops back on itself
	BiasDetour        = "detour"  // paper 003: a segment of the run is a detour
	BiasSurface       = "surface" // paper 003: the goal distance does not decline smoothly
)

// BiasNames lists the valid bias names.
var BiasNames = []string{BiasPolicyQuality, BiasNovelty, BiasLoop, BiasDetour, BiasSurface}

// biasSet is the set of biases switched on.
type goalBiasSet struct {
	polqual, poolNovelty, loop, detour, surface bool
}

// parseBiases reads bias names; "none" or an empty list is the uniform
// random walk of paper 003's baseline B^0.
func parseGoalBiases(names []string) (goalBiasSet, error) {
	var b goalBiasSet
	seen := map[string]bool{}
	for _, n := range names {
		// "none,loop" ran the loop bias alone and reported "biases: none,
		// loop"; "loop,loop" reported a bias twice
		t := strings.TrimSpace(n)
		if seen[t] && t != "" {
			return b, fmt.Errorf("fuzz: bias %q given twice", t)
		}
		seen[t] = true
		if seen["none"] && len(seen) > 1 && !(len(seen) == 2 && seen[""]) {
			return b, fmt.Errorf("fuzz: bias none (uniform walks) is one of its own; it cannot be combined with other biases")
		}
		switch t {
		case BiasPolicyQuality:
			b.polqual = true
		case BiasNovelty:
			b.poolNovelty = true
		case BiasLoop:
			b.loop = true
		case BiasDetour:
			b.detour = true
		case BiasSurface:
			b.surface = true
		case "none", "":
		default:
			return b, fmt.Errorf("fuzz: unknown bias %q%s; valid biases: %s (or none)", n, symbolic.Suggest(n, BiasNames), strings.Join(BiasNames, ", "))
		}
	}
	return b, nil
}

// shape reports whether a trace-shape bias of paper 003 is on.
func (b goalBiasSet) shape() bool { return b.loop || b.detour || b.surface }

// needsRun reports whether the bias needs the policy's partial run.
func (b goalBiasSet) needsRun() bool { return b.polqual || b.shape() }

// biasValue is the sum of the switched-on step biases on a partial run
// s_0 .. s_n of the policy (n >= 1) that did not fail. It returns -Inf
// for the surface bias on a state the relaxation proves unsolvable.
func (b goalBiasSet) value(r *goalRelax, run []symbolic.State) float64 {
	n := len(run) - 1
	v := 0.0
	if b.polqual {
		v += float64(n)
	}
	if !b.shape() || n < 1 {
		return v
	}
	var hist []*goalHistory
	if b.loop || b.detour {
		hist = make([]*goalHistory, len(run))
		for i := range run {
			hist[i] = r.history(run[i], 16)
		}
	}
	if b.loop || b.detour {
		bestLoop, bestDetour := math.Inf(-1), math.Inf(-1)
		for i := 0; i < n; i++ {
			for j := i + 1; j <= n; j++ {
				if b.loop {
					bestLoop = math.Max(bestLoop, float64(j-i)-goalFloat(hist[j].dist(run[i])))
				}
				if b.detour {
					bestDetour = math.Max(bestDetour, float64(j-i)-goalFloat(hist[i].dist(run[j])))
				}
			}
		}
		if b.loop {
			v += bestLoop
		}
		if b.detour {
			v += bestDetour
		}
	}
	if b.surface {
		h := make([]float64, len(run))
		for i, s := range run {
			_, ha := r.goalDist(s)
			h[i] = goalFloat(ha)
		}
		if math.IsInf(h[0], 1) {
			return math.Inf(-1)
		}
		best := math.Inf(-1)
		for i := 0; i < n; i++ {
			for j := i + 1; j <= n; j++ {
				best = math.Max(best, float64(j-i)-(h[i]-h[j]))
			}
		}
		v += best
	}
	return v
}

func goalFloat(d int) float64 {
	if d >= goalInf {
		return math.Inf(1)
	}
	return float64(d)
}

// novelty tracks the facts (variable = value) and fact pairs seen in the
// pool, for paper 001's novelty filter with D = 2.
type poolNovelty struct {
	facts map[[2]int]bool
	pairs map[[4]int]bool
}

func newPoolNovelty() *poolNovelty {
	return &poolNovelty{facts: map[[2]int]bool{}, pairs: map[[4]int]bool{}}
}

// novel reports whether s has a fact or a fact pair not seen yet
// (novelty(s, P) <= 2).
func (nv *poolNovelty) novel(s symbolic.State) bool {
	for i, x := range s {
		if !nv.facts[[2]int{i, x}] {
			return true
		}
		for j := i + 1; j < len(s); j++ {
			if !nv.pairs[[4]int{i, x, j, s[j]}] {
				return true
			}
		}
	}
	return false
}

func (nv *poolNovelty) add(s symbolic.State) {
	for i, x := range s {
		nv.facts[[2]int{i, x}] = true
		for j := i + 1; j < len(s); j++ {
			nv.pairs[[4]int{i, x, j, s[j]}] = true
		}
	}
}

// CheckBiases reports the first unknown name among names, with the list of
// valid ones, so that a command can refuse it before any work.
func CheckBiases(names []string) error {
	_, err := parseGoalBiases(names)
	return err
}

// BiasesRunPolicy reports whether the biases named (valid names, as
// CheckBiases accepts them) run the policy from a walk's candidate
// states, which PoolOptions.BState and BExpansion budget: polqual and the
// shape biases loop, detour and surface do; novelty and none do not.
func BiasesRunPolicy(names []string) bool {
	b, err := parseGoalBiases(names)
	return err == nil && b.needsRun()
}
