// Package jani imports JANI models (https://jani-spec.org) and the PlaJA
// property and policy-interface files that come with them, lowering both
// into the symbolic IR that .spec files lower into; Export writes a model
// of the IR back as JANI (export.go: vigil export --jani).
//
// # What is imported
//
// Model types lts, mdp and dtmc; ctmc, ma, pta, sta and the other
// continuous-time or hybrid types are rejected. Variables of type bool and
// bounded int (global and automaton-local), constants (open constants are
// set with -D), automata with locations, flat parallel composition through
// system.elements and system.syncs, guards, destinations with probabilities
// and assignments with JANI's assignment "index" levels, and the
// derived-operators feature (⇒ < > min max abs sgn trc ite floor ceil, / and %
// where the result is linear). Transient Boolean variables set by the
// locations' transient-values (JANI labels) become predicates (labels.go);
// a transient numeric variable that every edge sets to its cost, as
// Export writes costs, becomes the commands' costs (cost.go); other
// transient variables and rewards are ignored with a note. The
// properties section becomes properties of the model (properties.go):
// reachability as goal, safety as unsafe; other shapes get a note naming the
// property. The model's restrict-initial, when not true, conjoined with the
// initial values of the variables that have one (as Storm reads it), is
// the start condition of every property (a model without properties gets one,
// "initial", with no unsafe states); an automaton's is refused. Arrays of
// bool and bounded int become one variable per element (array.go), with
// indices that provably stay in range; functions, nondet-selection, real
// and clock variables, other arrays and indices that may leave their
// range are reported as "unsupported feature: ..." errors that name the
// feature.
//
// # Naming
//
//   - Global variables and actions keep their JANI names, converted to .spec
//     identifiers (characters outside [A-Za-z0-9_-] become '_'; .spec
//     keywords get a trailing '_').
//   - An automaton-local variable keeps its name when no other variable of
//     the model has it, else it becomes <automaton>_<name>.
//   - The location of an automaton with more than one location is the
//     bounded variable loc_<automaton> (LocationVar) whose value is the
//     index of the location in the automaton's "locations" list; a predicate
//     at_<automaton>_<location> (LocationPred) names each location. An
//     automaton with a single location gets no variable.
//   - Silent transitions (edges without an action, and synchronisation
//     vectors without a result) get the label "tau" (SilentLabel).
//
// PlaJA's non-deterministic assignment {"ref": x, "lower-bound": lb,
// "upper-bound": ub} (x takes any value in lb..ub) becomes one outcome per
// value v of x's range, assigning max(lb, min(ub, v)); v also takes the
// value just below (above) the range where lb (ub) may lie beyond it, so
// that a value of lb..ub outside x's range is a range error, as any
// assignment out of range; an empty lb..ub (lb > ub) is a range error too
// (its outcomes assign the value above the range). Each v has an equal
// share of the destination's probability; the v that give the same value
// in every state are one outcome with their shares summed, and an edge
// whose choice bounds read variables is split by their values (one edge
// per value, its guard the edge's and those values), so that in each
// state each value of lb..ub is one outcome; not an edge with an action in
// a model of several automata, whose pieces the composition would
// multiply (there the v merge only where equal in every state). Where no destination states a
// probability, Outcome.Weight is then the number of v an outcome stands for.
// Where an edge is not split (a synchronising edge, more than 64 pieces,
// an assignment with an index), two outcomes may lead to the same state
// in some states (max(x, 1) and max(x, 2) where x is 2): a cost only,
// since breadth-first search counts distinct successors and vigil prob
// sums the probabilities of equal ones, as Storm does
// (TestS32jDuplicateOutcomesOnlyCost). The note that an empty lb..ub is a
// range error is given where some state within the ranges satisfies the
// edge's guard and lb > ub, "may" where there are too many to enumerate
// (more than 2^16 combinations for the choice, or past 2^27 over the
// model counted as combinations times the nodes of the guard and lb > ub
// evaluated in each: a large guard made the walk slow); where the guard
// rules it out, no range error is lowered. vigil export --jani writes
// the pieces of a split edge as one edge again (mergeChoiceSplits; x + d
// only where it does not wrap in 64 bits, else an if-then-else).
//
// # Probabilities
//
// Each destination becomes an outcome. When every probability is a rational
// constant, Outcome.Weight holds it exactly and Outcome.Prob is it
// normalised. A state-dependent probability (a quotient of linear
// expressions, such as x/(N-c)) is kept as Outcome.ProbFactors (one factor
// per synchronising edge whose destination's probability reads the state,
// one for the product of the constant ones), and the command is split so
// that the outcome is absent in the states where the product is 0, as
// Storm drops it, unless some factor lies outside [0, 1] or divides by
// zero there (a probability error; prob.go). Verification never reads
// weights: every outcome present is possible. Destinations of constant
// probability 0 are dropped.
//
// # Positions and errors
//
// Every IR node and every error carries a position whose File is
// "FILE#JSONPATH", for example
// "beb.jani#automata[1].edges[12].guard.exp.left", with the line and column
// of that JSON value in FILE. Errors are *Error values (or an ErrorList of
// them) whose text starts with "jani: ".
//
// # PlaJA files
//
// LoadCondition reads {"op": "state-condition", "exp": E, "locations": [...]}
// and {"op": "states-values", ...} files; AddProperty builds a property from
// a start and an unsafe file; LoadPolicyFile reads a .jani2nnet interface
// (or a PlaJA "PA" property file naming one) into an nn policy declaration.
package jani
