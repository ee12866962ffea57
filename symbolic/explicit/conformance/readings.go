package conformance

import (
	"context"

	"vigil/symbolic/explicit"
	"vigil/symbolic/gen"
)

// Readings answers, for the questions Verify asks with opt (opt.Policy
// must give learned policies, whose declaration the policy follows), the
// question with BFS under both readings of the arg-max (`argmax
// applicable` and `argmax all`), and returns how many questions it asked
// and on how many the verdicts differ. A suite that runs an engine on
// policies read `argmax all` shows with it that the reading matters on
// its models: where the verdicts differ, an engine that ignored the
// reading would disagree with BFS.
func Readings(opt Options) (questions, differ int, err error) {
	if opt.Models <= 0 {
		opt.Models = 200
	}
	if opt.FirstSeed == 0 {
		opt.FirstSeed = 1
	}
	opt.Gen.RangeErrors = false
	for seed := opt.FirstSeed; seed < opt.FirstSeed+uint64(opt.Models); seed++ {
		m := gen.Model(seed, opt.Gen)
		g, err := explicit.New(m, m.Properties[0])
		if err != nil {
			return questions, differ, err
		}
		exec, pd, err := opt.Policy(m, seed)
		if err != nil {
			return questions, differ, err
		}
		all := pd.ArgMaxAll
		var verdicts [2]explicit.Verdict
		ok := true
		for i, r := range []bool{false, true} {
			pd.ArgMaxAll = r
			dec, err := explicit.PolicyDecider(m, exec)
			if err != nil {
				return questions, differ, err
			}
			res, err := explicit.Search(context.Background(), g, explicit.Options{Policy: dec, StopAtUnsafe: true})
			if err != nil {
				ok = false // no start state
				break
			}
			verdicts[i] = res.Verdict
		}
		pd.ArgMaxAll = all
		if !ok {
			continue
		}
		questions++
		if verdicts[0] != verdicts[1] {
			differ++
		}
	}
	return questions, differ, nil
}
