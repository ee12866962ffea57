package symbolic

// The raw parameters of learned policies (Learned.Params): what a checker
// needs to evaluate, encode or enumerate a network or an ensemble by its
// own code, without calling the package that loaded it. The types hold
// numbers only; their meaning is lang/spec.md's (section Policies), and
// the loaders (nn, trees) normalise every file format to them.

// Network is the parameters of a feed-forward network: an optional input
// transform (clip to [InMin, InMax], then (x - InMean) / InRange, per
// input), dense layers each followed by an activation, an optional output
// transform y*OutRange + OutMean, and an optional final function Out of
// all the outputs together. Nil slices mean "no transform".
//
// nn.Network is defined as this struct (nn converts one to the other
// without copying the weights).
type Network struct {
	Layers            []Layer
	InMin, InMax      []float64
	InMean, InRange   []float64
	OutMean, OutRange []float64
	Out               OutAct
}

// Inputs is the number of network inputs.
func (n *Network) Inputs() int { return n.Layers[0].In }

// Outputs is the number of network outputs.
func (n *Network) Outputs() int { return n.Layers[len(n.Layers)-1].Out }

// Layer is y = act(W x + B), W row-major Out x In.
type Layer struct {
	In, Out int
	W       []float64
	B       []float64
	Act     Activation
	// Slope is LeakyReLU's slope for negative inputs, in [0, 1].
	Slope float64
	// Lo and Hi are Clip's bounds, Lo <= Hi, either possibly infinite
	// (no bound on that side).
	Lo, Hi float64
}

// Activation is the function a layer applies to each of its sums, in
// float64 as lang/spec.md (section Policies) defines it.
type Activation uint8

const (
	ActLinear    Activation = iota // the identity
	ActReLU                        // s < 0 becomes 0
	ActTanh                        // math.Tanh(s)
	ActSigmoid                     // 1 / (1 + math.Exp(-s)), each operation rounded
	ActLeakyReLU                   // s < 0 becomes Slope*s, rounded
	ActClip                        // s < Lo becomes Lo, s > Hi becomes Hi (exact)
)

func (a Activation) String() string {
	switch a {
	case ActReLU:
		return "relu"
	case ActTanh:
		return "tanh"
	case ActSigmoid:
		return "sigmoid"
	case ActLeakyReLU:
		return "leaky_relu"
	case ActClip:
		return "clip"
	}
	return "linear"
}

// OutAct is a final function of all the outputs of a network together.
type OutAct uint8

const (
	OutNone       OutAct = iota
	OutSoftmax           // y_i = e^(z_i - m) / sum_j e^(z_j - m), m = max_j z_j
	OutLogSoftmax        // y_i = (z_i - m) - log(sum_j e^(z_j - m))
)

func (o OutAct) String() string {
	switch o {
	case OutSoftmax:
		return "softmax"
	case OutLogSoftmax:
		return "log_softmax"
	}
	return "none"
}

// Ensemble is the parameters of a tree ensemble: class c's score is
// Base[c] plus, tree by tree in order, the value the tree's leaf for the
// input gives class c, every sum rounded to float64, or to float32 when
// Float32 is set (XGBoost sums in float32, and its base and leaf values
// are float32 values).
type Ensemble struct {
	NumFeatures int // the inputs a split may read: 0..NumFeatures-1
	NumClasses  int
	Base        []float64 // one per class
	Trees       []Tree
	Float32     bool
}

// Tree is one tree of an ensemble; node 0 is the root.
type Tree struct {
	// Class is the class every leaf contributes to, or -1 when each leaf
	// holds one value per class.
	Class int
	Nodes []TreeNode
	// Values holds the leaf values: one per leaf when Class >= 0, else
	// NumClasses per leaf (leaf l's value for class c at l*NumClasses+c).
	Values []float64
}

// TreeNode is a split (Feature >= 0: go to Left iff input Feature <
// Threshold, compared in float64; the loaders normalise every format's
// split to this form) or a leaf (Feature < 0, Leaf indexes the leaf
// values).
type TreeNode struct {
	Feature     int
	Threshold   float64
	Left, Right int
	Leaf        int
}
