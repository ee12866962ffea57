package cert

import (
	"bytes"
	"errors"
	"testing"
)

// TestS26tEncoder: an Encoder writes Write's bytes entry by entry; it
// refuses an entry Read would reject (writing nothing of it), and a
// header Read would reject; after Close it refuses more.
func TestS26tEncoder(t *testing.T) {
	c := &Certificate{Format: FormatName, Version: Version, Kind: Unsafe, Spec: "m.spec", Model: "m", Property: "p",
		Policy: "pi", Radius: 2, Vars: []string{"x"}, State: []int{0},
		Entries: []Entry{{S: []int{0}, B: 2, Rank: 2}, {S: []int{1}, B: 1, Rank: 1}}}
	var want bytes.Buffer
	if err := Write(&want, c); err != nil {
		t.Fatal(err)
	}
	var got bytes.Buffer
	enc, err := NewEncoder(&got, c)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range c.Entries {
		if err := enc.Add(e); err != nil {
			t.Fatal(err)
		}
	}
	var ce *Error
	if err := enc.Add(Entry{S: []int{2}, B: 3, Rank: 1}); !errors.As(err, &ce) {
		t.Fatalf("budget above the radius: %v, want a *cert.Error", err)
	}
	if err := enc.Add(Entry{S: []int{2}, B: 0, Label: "a"}); !errors.As(err, &ce) {
		t.Fatalf("a label in an unsafe certificate: %v, want a *cert.Error", err)
	}
	if err := enc.Close(); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got.Bytes(), want.Bytes()) {
		t.Fatalf("encoded:\n%s\nwant (Write):\n%s", got.Bytes(), want.Bytes())
	}
	if enc.Add(c.Entries[0]) == nil || enc.Close() == nil {
		t.Fatal("an Encoder used after Close writes on")
	}
	bad := *c
	bad.Radius = -5
	if _, err := NewEncoder(&got, &bad); !errors.As(err, &ce) {
		t.Fatalf("negative radius: %v, want a *cert.Error", err)
	}
	if _, err := Read(bytes.NewReader(want.Bytes())); err != nil {
		t.Fatalf("Read refuses Write's bytes: %v", err)
	}
}
