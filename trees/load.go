package trees

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
)

// Load reads a tree ensemble from path. The format is recognised from the
// content: XGBoost save_model JSON (an object with "learner"), Veritas JSON
// (an object with "trees" and "base_scores"), or LightGBM's text model
// (lines "key=value" with "Tree=N" sections).
func Load(path string) (*Ensemble, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("trees: %w", err)
	}
	e, err := Parse(data)
	if err != nil {
		return nil, fmt.Errorf("%w (in %s)", err, path)
	}
	return e, nil
}

// Parse reads a tree ensemble from its file content (see Load).
func Parse(data []byte) (*Ensemble, error) {
	t := bytes.TrimSpace(data)
	if len(t) == 0 {
		return nil, fmt.Errorf("trees: the model file is empty")
	}
	if t[0] != '{' {
		return ParseLightGBM(data)
	}
	var probe map[string]json.RawMessage
	if err := json.Unmarshal(t, &probe); err != nil {
		return nil, fmt.Errorf("trees: the model is not valid JSON: %v", err)
	}
	if _, ok := probe["learner"]; ok {
		return ParseXGBoost(data)
	}
	if _, ok := probe["trees"]; ok {
		return ParseVeritas(data)
	}
	return nil, fmt.Errorf("trees: unknown JSON model: want XGBoost save_model JSON (with \"learner\") or Veritas JSON (with \"trees\"); for XGBoost use Booster.save_model(\"model.json\"), not dump_model")
}
