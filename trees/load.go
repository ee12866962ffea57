package trees

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"

	"vigil/internal/jsonerr"
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
	// Tell the formats apart by their keys without decoding the file twice;
	// each parser reports what is wrong with the JSON itself.
	if bytes.Contains(t, []byte(`"learner"`)) {
		return ParseXGBoost(data)
	}
	if bytes.Contains(t, []byte(`"trees"`)) {
		return ParseVeritas(data)
	}
	if !json.Valid(t) {
		var v any
		return nil, fmt.Errorf("trees: the model is not valid JSON: %s", jsonerr.Describe(t, json.Unmarshal(t, &v)))
	}
	return nil, fmt.Errorf("trees: unknown JSON model: want XGBoost save_model JSON (with \"learner\") or Veritas JSON (with \"trees\"); for XGBoost use Booster.save_model(\"model.json\"), not dump_model")
}
