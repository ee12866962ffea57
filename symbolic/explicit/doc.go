// Package explicit is vigil's explicit-state engine: packed states, a
// pointer-free state store, successor generation, start-state enumeration,
// cached policy decisions and breadth-first exploration and verification
// (BRFS, paper 004's baseline). It is the ground truth every symbolic engine
// is tested against.
//
// Design notes:
//   - A state is packed into W uint64 words. Variable i takes
//     ceil(log2(hi-lo+1)) bits holding value-lo; a variable never straddles
//     two words (Fast Downward's int packer), so reading one is a shift and a
//     mask.
//   - All states live in one []uint64 arena; state id k occupies
//     arena[k*W : (k+1)*W]. Ids are dense uint32s in discovery order, so
//     per-state data (cached policy label, parent, depth) lives in slices
//     indexed by id and BFS needs no queue: the frontier is an id range.
//   - The hash table is open addressing over a power-of-two slice of uint64
//     slots, each holding a 32-bit copy of the hash beside id+1, so a probe
//     that meets a different hash never touches the arena; states of at
//     most 32 bits are kept in the slot itself (store.go).
//   - Conditions and expressions are compiled once into closures over the
//     unpacked state (compile.go); rules policies are compiled the same way,
//     other policy kinds go through symbolic.Instantiate and symbolic.Decide.
//     Integers are exact (symbolic/arith.go): a closure computes in plain
//     int64 only where interval analysis over the variables' ranges proves
//     that no value leaves int64; other expressions go through symbolic's
//     checked, exact evaluation.
//   - Guards go through an index (guards.go): a decision tree over the
//     variables guards pin to constants, so a state evaluates only the
//     guards its values can satisfy, not every command's.
//   - Range violations are errors (RangeError), never transitions: an
//     assignment out of a variable's range, and a state-dependent
//     probability outside [0, 1] or dividing by zero (RangeError.Prob).
//   - Options.Workers > 1 runs a level-synchronous parallel search over a
//     store sharded by hash (par.go): the same layers, counts and verdicts.
//
// Files: layout.go (packing), store.go (arena and tables), succ.go
// (successor generation, terminal states), guards.go (the guard index),
// start.go (start states), policy.go (deciders and the per-state cache),
// bfs.go (Search), par.go (the parallel search), sim.go (Simulate, for vigil run), runfile.go (the run-file format),
// state.go (ParseState), validate.go (IR checks).
package explicit
