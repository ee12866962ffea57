package trees

import (
	"bytes"
	"encoding/json"
	"fmt"

	"vigil/internal/inputfile"
	"vigil/internal/jsonerr"
)

// Load reads a tree ensemble from path. The format is recognised from the
// content: XGBoost save_model JSON (an object with "learner") or UBJSON
// (the same document in binary, ubjson.go), Veritas JSON
// (an object with "trees" and "base_scores"), or LightGBM's text model
// (lines "key=value" with "Tree=N" sections).
func Load(path string) (*Ensemble, error) {
	data, err := inputfile.ReadFile(path)
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
	if bytes.HasPrefix(t, []byte("binf")) {
		return nil, fmt.Errorf("trees: the model is in XGBoost's old binary format; vigil reads XGBoost JSON: load it in XGBoost and save it with Booster.save_model(\"model.json\")")
	}
	if bytes.HasPrefix(t, []byte("booster[")) || (t[0] == '[' && bytes.Contains(t[:min(len(t), 200)], []byte(`"nodeid"`))) {
		// Booster.dump_model / get_dump, as text or JSON: the trees
		// without the base score and objective, which the scores need.
		return nil, fmt.Errorf("trees: the model is an XGBoost dump (Booster.dump_model or get_dump), which leaves out the base score and the objective; vigil reads XGBoost's save_model JSON: save it with Booster.save_model(\"model.json\")")
	}
	if t[0] != '{' {
		return ParseLightGBM(data)
	}
	if len(t) > 1 && bytes.IndexByte([]byte("iUIlL"), t[1]) >= 0 && bytes.Contains(t, []byte("learner")) {
		// UBJSON, XGBoost's binary JSON (save_model("model.ubj")): an
		// object whose keys start with their length's type marker (i,
		// U, I, l or L), where text JSON has a quote, a brace or space
		// (ubjson.go).
		js, err := ubjsonToJSON(bytes.TrimLeft(data, " \t\r\n"))
		if err != nil {
			return nil, err
		}
		e, err := ParseXGBoost(js)
		if err != nil {
			return nil, fmt.Errorf("%w (the model was decoded from UBJSON)", err)
		}
		return e, nil
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
