package smt

// Real arithmetic, for exact encodings of ReLU networks: real constants,
// rational literals (a finite float64 is a dyadic rational, so a network's
// weights are encoded as exactly the numbers the network holds), the
// conversion of integer terms to reals, linear combinations with rational
// coefficients, and exact rational values in models.
//
// Add, Sub, Neg, Eq, Le, Lt, Ge, Gt and Ite are Z3's sort-polymorphic
// arithmetic and apply to real terms unchanged; both arguments of one
// operation must have the same sort (an integer term becomes a real with
// ToReal), and a mismatch is an error like any other. Add of no terms is
// the integer 0: use Real(new(big.Rat)) for a real zero.
//
// The C helpers follow z3.go's rules (null error handler, error code
// checked before a result is used, one reference taken on every returned
// AST); they are static to this file's preamble, so the few that z3.go
// also has are repeated here under a vgr_ prefix.

/*
#cgo LDFLAGS: -lz3
#include <z3.h>
#include <stdlib.h>
#include <string.h>

static Z3_ast vgr_keep(Z3_context c, Z3_ast a) {
	if (a == NULL || Z3_get_error_code(c) != Z3_OK) return NULL;
	Z3_inc_ref(c, a);
	if (Z3_get_error_code(c) != Z3_OK) return NULL;
	return a;
}

// vgr_sort returns the real sort with a reference taken (drop it with
// vgr_drop_sort), or NULL on error.
static Z3_sort vgr_sort(Z3_context c) {
	Z3_sort s = Z3_mk_real_sort(c);
	if (s == NULL || Z3_get_error_code(c) != Z3_OK) return NULL;
	Z3_inc_ref(c, Z3_sort_to_ast(c, s));
	return s;
}

static void vgr_drop_sort(Z3_context c, Z3_sort s) { Z3_dec_ref(c, Z3_sort_to_ast(c, s)); }

static Z3_ast vgr_const(Z3_context c, const char *name) {
	Z3_sort s = vgr_sort(c);
	if (s == NULL) return NULL;
	Z3_ast r = NULL;
	Z3_symbol sym = Z3_mk_string_symbol(c, name);
	if (Z3_get_error_code(c) == Z3_OK) r = vgr_keep(c, Z3_mk_const(c, sym, s));
	vgr_drop_sort(c, s);
	return r;
}

// vgr_num_in makes the real numeral num ("p/q", "-p/q" or "p") in sort s.
static Z3_ast vgr_num_in(Z3_context c, Z3_sort s, const char *num) {
	if (num[0] != '-') return vgr_keep(c, Z3_mk_numeral(c, num, s));
	Z3_ast p = vgr_keep(c, Z3_mk_numeral(c, num + 1, s));
	if (p == NULL) return NULL;
	Z3_ast r = vgr_keep(c, Z3_mk_unary_minus(c, p));
	Z3_dec_ref(c, p);
	return r;
}

static Z3_ast vgr_num(Z3_context c, const char *num) {
	Z3_sort s = vgr_sort(c);
	if (s == NULL) return NULL;
	Z3_ast r = vgr_num_in(c, s, num);
	vgr_drop_sort(c, s);
	return r;
}

static Z3_ast vgr_to_real(Z3_context c, Z3_ast a) { return vgr_keep(c, Z3_mk_int2real(c, a)); }

// vgr_is_real reports whether a has the real sort (0 on error).
static int vgr_is_real(Z3_context c, Z3_ast a) {
	Z3_sort s = Z3_get_sort(c, a);
	if (s == NULL || Z3_get_error_code(c) != Z3_OK) return 0;
	return Z3_get_sort_kind(c, s) == Z3_REAL_SORT;
}

// vgr_linear builds k + sum_i num_i * t_i. nums holds the n coefficients
// as NUL-terminated strings back to back, k the constant ("0": none). Every
// intermediate term is referenced while it is in use and released before
// returning, so only the result is left owned.
static Z3_ast vgr_linear(Z3_context c, const char *k, unsigned n, const char *nums, Z3_ast *t) {
	Z3_sort s = vgr_sort(c);
	if (s == NULL) return NULL;
	Z3_ast *args = malloc((n + 1) * sizeof(Z3_ast));
	if (args == NULL) {
		vgr_drop_sort(c, s);
		return NULL;
	}
	unsigned m = 0;
	int ok = 1;
	if (strcmp(k, "0") != 0 || n == 0) {
		args[m] = vgr_num_in(c, s, k);
		ok = args[m] != NULL;
		if (ok) m++;
	}
	for (unsigned i = 0; i < n && ok; i++) {
		if (!vgr_is_real(c, t[i])) {
			ok = 0;
			break;
		}
		Z3_ast q = vgr_num_in(c, s, nums);
		nums += strlen(nums) + 1;
		if (q == NULL) {
			ok = 0;
			break;
		}
		Z3_ast f[2] = {q, t[i]};
		args[m] = vgr_keep(c, Z3_mk_mul(c, 2, f));
		Z3_dec_ref(c, q);
		if (args[m] == NULL) {
			ok = 0;
			break;
		}
		m++;
	}
	Z3_ast r = NULL;
	if (ok) {
		if (m == 1) {
			r = vgr_keep(c, args[0]);
		} else {
			r = vgr_keep(c, Z3_mk_add(c, m, args));
		}
	}
	for (unsigned i = 0; i < m; i++) Z3_dec_ref(c, args[i]);
	free(args);
	vgr_drop_sort(c, s);
	return r;
}

// vgr_eval evaluates n arithmetic terms in the solver's model (with model
// completion) into out[i]: a malloc'd copy of the value as a numeral
// string ("p/q" or "p"), which the caller frees. It returns 0, an error
// code (> 0), or -1 when a value is not a numeral (entries already written
// must still be freed; the rest are NULL).
static int vgr_eval(Z3_context c, Z3_solver s, unsigned n, Z3_ast *t, char **out) {
	for (unsigned i = 0; i < n; i++) out[i] = NULL;
	Z3_model m = Z3_solver_get_model(c, s);
	if (m == NULL || Z3_get_error_code(c) != Z3_OK) {
		int code = (int)Z3_get_error_code(c);
		return code == Z3_OK ? Z3_INVALID_USAGE : code;
	}
	Z3_model_inc_ref(c, m);
	int rc = 0;
	for (unsigned i = 0; i < n && rc == 0; i++) {
		Z3_ast v = NULL;
		if (!Z3_model_eval(c, m, t[i], 1, &v) || v == NULL || Z3_get_error_code(c) != Z3_OK) {
			rc = Z3_get_error_code(c) != Z3_OK ? (int)Z3_get_error_code(c) : -1;
			break;
		}
		Z3_inc_ref(c, v);
		if (!Z3_is_numeral_ast(c, v) || Z3_get_error_code(c) != Z3_OK) {
			rc = -1;
		} else {
			Z3_string str = Z3_get_numeral_string(c, v);
			if (str == NULL || Z3_get_error_code(c) != Z3_OK) {
				rc = Z3_get_error_code(c) != Z3_OK ? (int)Z3_get_error_code(c) : -1;
			} else {
				out[i] = strdup(str);
				if (out[i] == NULL) rc = -1;
			}
		}
		Z3_dec_ref(c, v);
	}
	Z3_model_dec_ref(c, m);
	return rc;
}
*/
import "C"

import (
	"errors"
	"fmt"
	"math"
	"math/big"
	"strings"
	"unsafe"
)

// RealConst returns the real constant called name.
func (x *Context) RealConst(name string) Term {
	if !x.ok() {
		return Term{}
	}
	cs := C.CString(name)
	a := C.vgr_const(x.c, cs)
	C.free(unsafe.Pointer(cs))
	return x.keep(a, "real constant "+name)
}

// Real returns the rational literal r, exactly.
func (x *Context) Real(r *big.Rat) Term {
	if !x.ok() {
		return Term{}
	}
	if r == nil {
		x.err = errors.New("smt: real literal: nil rational")
		return Term{}
	}
	cs := C.CString(r.String())
	a := C.vgr_num(x.c, cs)
	C.free(unsafe.Pointer(cs))
	return x.keep(a, "real literal "+r.String())
}

// RealFloat returns the exact value of the finite float64 f as a real
// literal. Every finite float64 is a dyadic rational, so RealFloat(0.1) is
// 3602879701896397/36028797018963968, not 1/10: the literal is the number
// the float64 holds, not the decimal it was written as. NaN and the
// infinities are not real numbers and are errors.
func (x *Context) RealFloat(f float64) Term {
	if !x.ok() {
		return Term{}
	}
	r, err := exactRat(f)
	if err != nil {
		x.err = err
		return Term{}
	}
	return x.Real(r)
}

// exactRat returns the rational value of the finite float64 f.
func exactRat(f float64) (*big.Rat, error) {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return nil, fmt.Errorf("smt: real literal: %v is not a finite number", f)
	}
	return new(big.Rat).SetFloat64(f), nil // exact for finite values
}

// ToReal returns the integer term a as a real (SMT-LIB's to_real).
func (x *Context) ToReal(a Term) Term {
	if !x.ok(a) {
		return Term{}
	}
	return x.keep(C.vgr_to_real(x.c, a.a), "to_real")
}

// MulRat returns r·a for the real term a, exactly.
func (x *Context) MulRat(r *big.Rat, a Term) Term {
	return x.Linear(nil, []*big.Rat{r}, []Term{a})
}

// Linear returns k + Σ cs[i]·ts[i] over real terms, with exact rational
// coefficients (nil k means 0). Terms whose coefficient is zero are left
// out, so the result may be the literal k. Every ts[i] must be real; an
// integer term is an error (convert it with ToReal). The whole sum is
// built in one call into Z3.
func (x *Context) Linear(k *big.Rat, cs []*big.Rat, ts []Term) Term {
	if !x.ok(ts...) {
		return Term{}
	}
	if len(cs) != len(ts) {
		x.err = fmt.Errorf("smt: linear: %d coefficients for %d terms", len(cs), len(ts))
		return Term{}
	}
	ks := "0"
	if k != nil {
		ks = k.String()
	}
	var nums strings.Builder
	x.buf = x.buf[:0]
	for i, c := range cs {
		if c == nil {
			x.err = errors.New("smt: linear: nil coefficient")
			return Term{}
		}
		if c.Sign() == 0 {
			continue
		}
		nums.WriteString(c.String())
		nums.WriteByte(0)
		x.buf = append(x.buf, ts[i].a)
	}
	var p *C.Z3_ast
	if len(x.buf) > 0 {
		p = &x.buf[0]
	}
	ck := C.CString(ks)
	cn := C.CString(nums.String()) // NULs inside are the separators; CString adds the last
	a := C.vgr_linear(x.c, ck, C.uint(len(x.buf)), cn, p)
	C.free(unsafe.Pointer(ck))
	C.free(unsafe.Pointer(cn))
	if a == nil && x.err == nil && C.Z3_get_error_code(x.c) == C.Z3_OK {
		x.err = errors.New("smt: linear: a term is not real; convert integer terms with ToReal")
		return Term{}
	}
	return x.keep(a, "linear")
}

// EvalReal returns the values of the arithmetic terms ts (real or
// integer) in the model of the last (Sat) check, as exact rationals. Terms
// the model leaves open get a default (model completion).
func (s *Solver) EvalReal(ts []Term) ([]*big.Rat, error) {
	if err := s.usable(); err != nil {
		return nil, err
	}
	if s.res != Sat {
		return nil, errors.New("smt: model requested after a check that was not sat")
	}
	if len(ts) == 0 {
		return nil, nil
	}
	x := s.x
	x.buf = x.buf[:0]
	for _, t := range ts {
		if t.a == nil {
			return nil, errors.New("smt: eval: invalid (zero) term")
		}
		x.buf = append(x.buf, t.a)
	}
	strs := (**C.char)(C.calloc(C.size_t(len(ts)), C.size_t(unsafe.Sizeof((*C.char)(nil)))))
	if strs == nil {
		return nil, errors.New("smt: eval: out of memory")
	}
	defer C.free(unsafe.Pointer(strs))
	out := unsafe.Slice(strs, len(ts))
	rc := C.vgr_eval(x.c, s.s, C.uint(len(ts)), &x.buf[0], strs)
	vals := make([]*big.Rat, len(ts))
	var err error
	for i, p := range out {
		if p == nil {
			continue
		}
		str := C.GoString(p)
		C.free(unsafe.Pointer(p))
		if err != nil {
			continue
		}
		r, ok := new(big.Rat).SetString(str)
		if !ok {
			err = fmt.Errorf("smt: eval: value %q is not a rational", str)
			continue
		}
		vals[i] = r
	}
	switch {
	case rc == -1:
		return nil, errors.New("smt: eval: a value is not a rational numeral")
	case rc != 0:
		return nil, s.code(rc, "eval")
	case err != nil:
		return nil, err
	}
	return vals, nil
}
