// Package jsonerr turns encoding/json's errors into messages for the person
// who wrote the file: the line and column, the field as a path in the
// document, and what kind of value was expected, without Go type names
// ("cannot unmarshal string into Go struct field xgbFile.learner...").
package jsonerr

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"strings"
)

// Describe explains err, returned by decoding data, in the words of the
// JSON document. Errors that are not encoding/json's are returned as text.
func Describe(data []byte, err error) string {
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case err == io.EOF:
		return "the file is empty; want a JSON document"
	case errors.Is(err, io.ErrUnexpectedEOF) || err != nil && strings.Contains(err.Error(), "unexpected end of JSON input"):
		return "the JSON ends early (is the file cut short?)"
	case errors.As(err, &syn):
		line, col := lineCol(data, syn.Offset)
		msg := strings.TrimPrefix(syn.Error(), "invalid character ")
		if msg != syn.Error() {
			msg = "unexpected character " + msg
		}
		return fmt.Sprintf("invalid JSON at line %d, column %d: %s", line, col, msg)
	case errors.As(err, &typ):
		field := typ.Field
		if field == "" {
			field = "the top-level value"
		} else {
			field = "field " + field
		}
		s := fmt.Sprintf("%s: got %s, want %s", field, article(typ.Value), Want(typ.Type))
		if typ.Offset > 0 && len(data) > 0 {
			line, col := lineCol(data, typ.Offset)
			s = fmt.Sprintf("line %d, column %d: %s", line, col, s)
		}
		return s
	case err == nil:
		return ""
	}
	msg := strings.TrimPrefix(err.Error(), "json: ")
	if strings.HasPrefix(msg, "unknown field ") {
		msg = "unknown " + strings.TrimPrefix(msg, "unknown ") + "; check its spelling"
	}
	return msg
}

// Want names the JSON value that decodes into t.
func Want(t reflect.Type) string {
	one, _ := nouns(t)
	return one
}

// nouns names the JSON values that decode into t, one ("an array of
// numbers") and several ("arrays of numbers").
func nouns(t reflect.Type) (one, many string) {
	switch t.Kind() {
	case reflect.Pointer:
		return nouns(t.Elem())
	case reflect.String:
		return "a string", "strings"
	case reflect.Bool:
		return "true or false", "Booleans (true or false)"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return "an integer", "integers"
	case reflect.Float32, reflect.Float64:
		return "a number", "numbers"
	case reflect.Slice, reflect.Array:
		_, elems := nouns(t.Elem())
		return "an array of " + elems, "arrays of " + elems
	case reflect.Struct, reflect.Map:
		return "an object", "objects"
	}
	return "a value of another kind", "values"
}

// article turns json's value description ("string", "number 1.5") into a
// phrase.
func article(v string) string {
	switch {
	case v == "":
		return "a value of another kind"
	case strings.HasPrefix(v, "array") || strings.HasPrefix(v, "object"):
		return "an " + v
	case strings.HasPrefix(v, "number "):
		return "the number " + strings.TrimPrefix(v, "number ")
	case v == "number" || v == "string" || v == "bool":
		if v == "bool" {
			v = "true or false"
			return v
		}
		return "a " + v
	}
	return v
}

func lineCol(data []byte, off int64) (int, int) {
	if off > int64(len(data)) {
		off = int64(len(data))
	}
	line, col := 1, 1
	for _, b := range data[:off] {
		if b == '\n' {
			line, col = line+1, 1
		} else {
			col++
		}
	}
	return line, col
}
