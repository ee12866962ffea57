package load

import (
	"bufio"
	"maps"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// s31xJSON writes a random JSON value of depth at most d to b, with
// strings full of brackets, quotes, backslashes, escapes (\u0022 is a
// quote) and multi-byte runes, and random JSON white space between
// tokens.
func s31xJSON(r *rand.Rand, b *strings.Builder, d int) {
	ws := func() {
		for range r.IntN(3) {
			b.WriteByte(" \t\n\r"[r.IntN(4)])
		}
	}
	ws()
	k := r.IntN(7)
	if d == 0 {
		k = r.IntN(3)
	}
	switch k {
	case 0:
		b.WriteString([]string{"0", "-1.5e-3", "true", "false", "null", "12345678901234567890", "1E+2"}[r.IntN(7)])
	case 1, 2:
		s31xString(r, b)
	case 3, 4:
		b.WriteByte('[')
		for i := range r.IntN(4) {
			if i > 0 {
				ws()
				b.WriteByte(',')
			}
			s31xJSON(r, b, d-1)
		}
		ws()
		b.WriteByte(']')
	default:
		s31xObject(r, b, d-1)
	}
	ws()
}

func s31xString(r *rand.Rand, b *strings.Builder) {
	parts := []string{"a", "layers", "trees", "learner", "{", "}", "[", "]", ":", ",", `\"`, `\\`, `\/`, `\u0022`, `\u007b`, `\u005c`, `\n`, "é", "\u2028", `\ud83d\ude00`, " ", `\\\"`}
	b.WriteByte('"')
	for range r.IntN(6) {
		b.WriteString(parts[r.IntN(len(parts))])
	}
	b.WriteByte('"')
}

func s31xObject(r *rand.Rand, b *strings.Builder, d int) {
	b.WriteByte('{')
	for i := range r.IntN(5) {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString([]string{"", " ", "\n\t"}[r.IntN(3)])
		s31xString(r, b)
		b.WriteString([]string{":", " :", ": ", "\r\n:\t"}[r.IntN(4)])
		s31xJSON(r, b, d)
	}
	b.WriteByte('}')
}

// TestS31xTopLevelKeysRandom: on random valid JSON objects the byte scan
// finds the members the JSON decoder finds (referenceKeys), and on every
// prefix of one that is cut inside it (a truncated file) it reports an
// error, never a set of keys.
func TestS31xTopLevelKeysRandom(t *testing.T) {
	for trial := range 1000 {
		r := rand.New(rand.NewPCG(uint64(trial), 31))
		var b strings.Builder
		s31xObject(r, &b, 1+r.IntN(3))
		text := b.String()
		want, err := referenceKeys(text)
		if err != nil {
			t.Fatalf("trial %d: the generator wrote %s: %v", trial, strconv.Quote(text), err)
		}
		got, err := scanTopLevelKeys(bufio.NewReader(strings.NewReader(text)))
		if err != nil || !maps.Equal(got, want) {
			t.Errorf("trial %d: %s: keys %q, %v; want %q", trial, strconv.Quote(text), slices.Sorted(maps.Keys(got)), err, slices.Sorted(maps.Keys(want)))
		}
		for cut := 1; cut < len(text); cut++ {
			if got, err := scanTopLevelKeys(bufio.NewReader(strings.NewReader(text[:cut]))); err == nil {
				t.Errorf("trial %d: cut at %d of %s: keys %q, no error", trial, cut, strconv.Quote(text), slices.Sorted(maps.Keys(got)))
				break
			}
		}
	}
}
