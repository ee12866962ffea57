package trees

import (
	"encoding/binary"
	"strings"
	"testing"
)

// TestUBJSONCategoricalNaN: a NaN split condition, which XGBoost writes for
// a categorical split, is refused as the JSON reader refuses it (naming
// categorical splits), not as a bare "a number is NaN".
func TestUBJSONCategoricalNaN(t *testing.T) {
	b := editUBJ(t, "split_conditions", func(b []byte, at int) []byte {
		// '[' '$' 'd' '#' 'L' and the 8-byte count, then the elements
		binary.BigEndian.PutUint32(b[at+13:], 0x7fc00000)
		return b
	})
	_, err := Parse(b)
	if err == nil || !strings.Contains(err.Error(), `in "split_conditions": a NaN condition; XGBoost writes NaN as the condition of a categorical split`) {
		t.Errorf("err %v, want the categorical split named", err)
	}
}
