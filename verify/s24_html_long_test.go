package verify_test

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"strings"
	"testing"

	"vigil/verify"
)

// TestS24LongCounterexamplePage: a 20,000-step counterexample's page drew
// a dot and two line points per step and variable (6.9 MB for three
// variables). Its plots are now drawn per half-pixel column (first,
// least, greatest and last value), with no dots: the page is one
// well-formed document of at most 400 KB, and each plot still reaches
// the least and the greatest value its variable takes.
func TestS24LongCounterexamplePage(t *testing.T) {
	const src = `model long
var x : 0 .. 30000 = 0
var y : 0 .. 7 = 0
action a when x < 30000 -> x' = x + 1, y' = (y + 1) - 8 * ((y + 1) / 8)
property p { start x == 0 && y == 0 unsafe x == 20000 }
`
	q, v := decide(t, src, "", "bfs")
	var page bytes.Buffer
	if err := verify.NewReport(q, v).WriteHTML(&page, nil); err != nil {
		t.Fatal(err)
	}
	if page.Len() > 400_000 {
		t.Errorf("the page has %d bytes", page.Len())
	}
	dec := xml.NewDecoder(bytes.NewReader(page.Bytes()))
	dec.Strict, dec.AutoClose, dec.Entity = true, nil, xml.HTMLEntity
	circles, ys := 0, map[string]map[string]bool{}
	plot := ""
	for {
		tok, err := dec.Token()
		if err != nil {
			if err.Error() != "EOF" {
				t.Fatalf("the page is not well-formed: %v", err)
			}
			break
		}
		el, ok := tok.(xml.StartElement)
		if !ok {
			continue
		}
		attr := map[string]string{}
		for _, a := range el.Attr {
			attr[a.Name.Local] = a.Value
		}
		switch el.Name.Local {
		case "svg":
			plot = attr["id"]
			ys[plot] = map[string]bool{}
		case "circle":
			circles++
		case "polyline":
			pts := strings.Fields(attr["points"])
			if len(pts) > 4*520 {
				t.Errorf("%s: %d points", plot, len(pts))
			}
			for _, p := range pts {
				ys[plot][p[strings.IndexByte(p, ',')+1:]] = true
			}
		}
	}
	if circles != 0 {
		t.Errorf("%d dots on the plots of a 20,000-step run", circles)
	}
	// y runs from 110 (the least value) to 0 (the greatest).
	for _, id := range []string{"plot-x", "plot-y"} {
		if !ys[id]["110.0"] || !ys[id]["0.0"] {
			t.Errorf("%s does not reach both ends: %v", id, keys(ys[id]))
		}
	}
}

func keys(m map[string]bool) string {
	var b strings.Builder
	for k := range m {
		fmt.Fprintf(&b, "%s ", k)
	}
	return b.String()
}
