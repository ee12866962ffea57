package nn_test

import (
	"strings"
	"testing"

	"vigil/nn"
)

// TestS31xJSONOneObject: a vigil JSON network file holds one object. The
// decoder stopped after the first value, so a second network appended to
// the file (or any text after it) was ignored; and a UTF-8 byte order
// mark is named as such, not as an unexpected character.
func TestS31xJSONOneObject(t *testing.T) {
	const net = `{"format": "vigil-nn", "version": 1, "layers": [{"weights": [[1], [-1]], "bias": [0, 0]}]}`
	for _, ok := range []string{net, net + "\n", " \t\r\n" + net + " \n\t\r"} {
		if _, err := nn.ParseJSON([]byte(ok)); err != nil {
			t.Errorf("%q: %v", ok, err)
		}
	}
	for _, c := range []struct{ text, want string }{
		{net + net, "text after the network's JSON object, at byte 91"},
		{net + "\n" + strings.Replace(net, "[1]", "[7]", 1), "at byte 92"},
		{net + " x", "at byte 92 (\"x\")"},
		{net + "\f", "text after"},
		{"\xef\xbb\xbf" + net, "byte order mark"},
	} {
		_, err := nn.ParseJSON([]byte(c.text))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: %v; want an error with %q", c.text, err, c.want)
		}
	}
}
