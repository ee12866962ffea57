package explicit

// Enabled returns the commands (indices into Model.Commands) whose guards
// hold in the state last passed to Applicable, in model order: one choice
// each for the probabilistic engine (package prob), which keeps each
// command's outcome distribution apart where Successors merges a label's.
// The slice is valid until the next call that fills x.
func (x *Expansion) Enabled() []int32 { return x.on }
