package trees

import (
	"os"
	"strings"
	"testing"
)

// TestXGBoostBaseScoreForms: base_score absent is XGBoost's default 0.5;
// null, an empty string or a number (not a string) is refused, as
// XGBoost's loader refuses it, instead of being read as 0.5.
func TestXGBoostBaseScoreForms(t *testing.T) {
	data, err := os.ReadFile("testdata/xgb_logistic.json")
	if err != nil {
		t.Fatal(err)
	}
	doc := string(data)
	const key = `"base_score":"`
	i := strings.Index(doc, key)
	if i < 0 {
		t.Fatal("fixture has no base_score")
	}
	j := i + len(key) + strings.Index(doc[i+len(key):], `"`) + 1
	field := doc[i:j]
	half := strings.Replace(doc, field, `"base_score":"5E-1"`, 1)
	absent := strings.Replace(doc, field+",", "", 1)
	if absent == doc {
		absent = strings.Replace(doc, ","+field, "", 1)
	}
	want, err := ParseXGBoost([]byte(half))
	if err != nil {
		t.Fatal(err)
	}
	got, err := ParseXGBoost([]byte(absent))
	if err != nil {
		t.Fatalf("absent base_score: %v", err)
	}
	if got.Base[0] != want.Base[0] {
		t.Errorf("absent base_score: margin offset %v, want XGBoost's default 0.5 (%v)", got.Base[0], want.Base[0])
	}
	for _, bad := range []string{`"base_score":null`, `"base_score":""`, `"base_score":0.5`, `"base_score":" "`} {
		_, err := ParseXGBoost([]byte(strings.Replace(doc, field, bad, 1)))
		if err == nil || !strings.Contains(err.Error(), "base_score") {
			t.Errorf("%s: err %v, want a refusal naming base_score", bad, err)
		}
	}
}
