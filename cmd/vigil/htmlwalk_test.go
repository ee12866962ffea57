package main

import (
	"encoding/xml"
	"io"
	"os"
	"strings"
	"testing"
)

// goalLineSpec is the goal-mode model the HTML tests draw: pi loops
// between x=0 and x=1 (left at x=1), where right reaches the goal x=5.
const goalLineSpec = `model line
var x : 0 .. 9 = 0
action right when x < 9 -> x' = x + 1
action left  when x > 0 -> x' = x - 1
policy rules pi {
    when x == 1 -> left
    otherwise -> right
}
property p {
    start x <= 2
    unsafe false
    goal x == 5
}
`

// walkPage reads the page at path as strict XML and calls start with
// each element and its attributes; when start returns a pointer, the
// element's first text is stored there. A page that is not well-formed
// fails the test.
func walkPage(t *testing.T, path string, start func(el xml.StartElement, attr map[string]string) *string) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	d := xml.NewDecoder(strings.NewReader(string(data)))
	d.Strict = true
	var text *string
	for {
		tok, err := d.Token()
		if err == io.EOF {
			return
		}
		if err != nil {
			t.Fatalf("the page is not well-formed: %v", err)
		}
		switch el := tok.(type) {
		case xml.StartElement:
			attr := map[string]string{}
			for _, a := range el.Attr {
				attr[a.Name.Local] = a.Value
			}
			if p := start(el, attr); p != nil {
				text = p
			}
		case xml.CharData:
			if text != nil {
				*text, text = string(el), nil
			}
		}
	}
}
