package smt

// This file is the only one that talks to C. Every Z3 call goes through a
// small C helper that (1) runs with a null error handler, so a Z3 error sets
// an error code instead of unwinding through cgo frames or exiting, (2)
// checks the error code before touching the result, and (3) takes a
// reference on every AST it returns (the context is reference counted), so
// that Go never holds an AST that Z3 may reclaim. One helper call per term
// keeps the cgo overhead at a single crossing per constructed term.

/*
#cgo LDFLAGS: -lz3
#if defined(__has_include)
#if !__has_include(<z3.h>)
#error "package vigil/smt needs the Z3 C library: install libz3-dev (Debian/Ubuntu: apt-get install -y libz3-dev; Fedora: z3-devel; macOS: brew install z3)"
#endif
#endif
#include <z3.h>
#include <stdlib.h>
#include <stdint.h>
#include <string.h>

enum {
	VG_NOT, VG_AND, VG_OR, VG_IMPLIES, VG_ITE,
	VG_ADD, VG_SUB, VG_NEG, VG_EQ, VG_LE, VG_LT, VG_GE, VG_GT
};

static Z3_context vg_new_context(void) {
	Z3_config cfg = Z3_mk_config();
	if (cfg == NULL) return NULL;
	Z3_set_param_value(cfg, "model", "true");
	Z3_context c = Z3_mk_context_rc(cfg);
	Z3_del_config(cfg);
	if (c != NULL) Z3_set_error_handler(c, NULL);
	return c;
}

static int vg_err(Z3_context c) { return (int)Z3_get_error_code(c); }

// vg_keep takes a reference on a fresh result, or returns NULL on error.
static Z3_ast vg_keep(Z3_context c, Z3_ast a) {
	if (a == NULL || Z3_get_error_code(c) != Z3_OK) return NULL;
	Z3_inc_ref(c, a);
	if (Z3_get_error_code(c) != Z3_OK) return NULL;
	return a;
}

static Z3_sort vg_sort(Z3_context c, int isbool) {
	Z3_sort s = isbool ? Z3_mk_bool_sort(c) : Z3_mk_int_sort(c);
	if (s == NULL || Z3_get_error_code(c) != Z3_OK) return NULL;
	Z3_inc_ref(c, Z3_sort_to_ast(c, s));
	return s;
}

static void vg_dec_sort(Z3_context c, Z3_sort s) { Z3_dec_ref(c, Z3_sort_to_ast(c, s)); }

static Z3_ast vg_const(Z3_context c, const char *name, Z3_sort s) {
	Z3_symbol sym = Z3_mk_string_symbol(c, name);
	if (Z3_get_error_code(c) != Z3_OK) return NULL;
	return vg_keep(c, Z3_mk_const(c, sym, s));
}

static Z3_ast vg_int(Z3_context c, int64_t v, Z3_sort s) { return vg_keep(c, Z3_mk_int64(c, v, s)); }

static Z3_ast vg_bool(Z3_context c, int v) { return vg_keep(c, v ? Z3_mk_true(c) : Z3_mk_false(c)); }

static Z3_ast vg_mk(Z3_context c, int op, unsigned n, Z3_ast *a) {
	Z3_ast r = NULL;
	switch (op) {
	case VG_NOT:     r = Z3_mk_not(c, a[0]); break;
	case VG_AND:     r = Z3_mk_and(c, n, a); break;
	case VG_OR:      r = Z3_mk_or(c, n, a); break;
	case VG_IMPLIES: r = Z3_mk_implies(c, a[0], a[1]); break;
	case VG_ITE:     r = Z3_mk_ite(c, a[0], a[1], a[2]); break;
	case VG_ADD:     r = Z3_mk_add(c, n, a); break;
	case VG_SUB:     r = Z3_mk_sub(c, n, a); break;
	case VG_NEG:     r = Z3_mk_unary_minus(c, a[0]); break;
	case VG_EQ:      r = Z3_mk_eq(c, a[0], a[1]); break;
	case VG_LE:      r = Z3_mk_le(c, a[0], a[1]); break;
	case VG_LT:      r = Z3_mk_lt(c, a[0], a[1]); break;
	case VG_GE:      r = Z3_mk_ge(c, a[0], a[1]); break;
	case VG_GT:      r = Z3_mk_gt(c, a[0], a[1]); break;
	}
	return vg_keep(c, r);
}

// vg_mulk and vg_divk build k*a and a div k; the numeral k is referenced
// while the application is built so that it is never left unowned.
static Z3_ast vg_mulk(Z3_context c, Z3_sort s, int64_t k, Z3_ast a, int div) {
	Z3_ast kk = vg_int(c, k, s);
	if (kk == NULL) return NULL;
	Z3_ast r;
	if (div) {
		r = Z3_mk_div(c, a, kk);
	} else {
		Z3_ast args[2] = {kk, a};
		r = Z3_mk_mul(c, 2, args);
	}
	r = vg_keep(c, r);
	Z3_dec_ref(c, kk);
	return r;
}

// vg_no_ctrl_c takes a reference to the new solver s and sets
// ctrl_c=false on it (see vg_solver); it returns s.
static Z3_solver vg_no_ctrl_c(Z3_context c, Z3_solver s) {
	Z3_solver_inc_ref(c, s);
	Z3_params p = Z3_mk_params(c);
	if (p == NULL || Z3_get_error_code(c) != Z3_OK) return s;
	Z3_params_inc_ref(c, p);
	Z3_params_set_bool(c, p, Z3_mk_string_symbol(c, "ctrl_c"), false);
	if (Z3_get_error_code(c) == Z3_OK) Z3_solver_set_params(c, s, p);
	Z3_params_dec_ref(c, p);
	return s;
}

// vg_solver makes a solver with ctrl_c=false: by default Z3 installs its
// own SIGINT handler for the length of every check, so a Ctrl-C during a
// check only interrupted that check and never reached the Go program's
// signal handling (the command went on running).
static Z3_solver vg_solver(Z3_context c) {
	Z3_solver s = Z3_mk_simple_solver(c);
	if (s == NULL || Z3_get_error_code(c) != Z3_OK) return NULL;
	return vg_no_ctrl_c(c, s);
}

// vg_smt_solver makes a solver from Z3's "smt" tactic, with ctrl_c=false
// as vg_solver: not incremental (each check solves the assertions anew),
// for a single check at scope 0.
static Z3_solver vg_smt_solver(Z3_context c) {
	Z3_tactic t = Z3_mk_tactic(c, "smt");
	if (t == NULL || Z3_get_error_code(c) != Z3_OK) return NULL;
	Z3_tactic_inc_ref(c, t);
	Z3_solver s = Z3_mk_solver_from_tactic(c, t);
	Z3_tactic_dec_ref(c, t);
	if (s == NULL || Z3_get_error_code(c) != Z3_OK) return NULL;
	return vg_no_ctrl_c(c, s);
}

// vg_param adds name = value to p: a Boolean for "true"/"false", an
// unsigned integer for a decimal, a symbol otherwise.
static int vg_param(Z3_context c, Z3_params p, const char *name, const char *value) {
	Z3_symbol k = Z3_mk_string_symbol(c, name);
	if (Z3_get_error_code(c) != Z3_OK) return vg_err(c);
	if (strcmp(value, "true") == 0 || strcmp(value, "false") == 0) {
		Z3_params_set_bool(c, p, k, value[0] == 't');
		return vg_err(c);
	}
	char *end;
	unsigned long u = strtoul(value, &end, 10);
	if (*value != 0 && *end == 0 && u <= 4294967295ul) {
		Z3_params_set_uint(c, p, k, (unsigned)u);
		return vg_err(c);
	}
	Z3_symbol v = Z3_mk_string_symbol(c, value);
	if (Z3_get_error_code(c) != Z3_OK) return vg_err(c);
	Z3_params_set_symbol(c, p, k, v);
	return vg_err(c);
}

// vg_probe_param sets name = value on a fresh solver of the kind
// (oneshot: Z3's "smt" tactic, else the simple solver) and sets that
// solver up (Z3_solver_get_num_scopes), which is when Z3 4.8.12
// validates the parameters of a solver that has not been set up yet:
// Z3_solver_set_params checks them only on a solver already set up, so
// an unknown name surfaced at the first assertion, which it dropped. It
// returns Z3's error code, with a copy of its message in *msg (for the
// caller to free) on error; the context's error code is cleared.
static int vg_probe_param(Z3_context c, int oneshot, const char *name, const char *value, char **msg) {
	*msg = NULL;
	Z3_params p = Z3_mk_params(c);
	if (p == NULL || Z3_get_error_code(c) != Z3_OK) return vg_err(c) != Z3_OK ? vg_err(c) : Z3_INVALID_USAGE;
	Z3_params_inc_ref(c, p);
	int code = vg_param(c, p, name, value);
	Z3_solver t = NULL;
	if (code == Z3_OK) {
		t = oneshot ? vg_smt_solver(c) : vg_solver(c);
		if (t == NULL) code = vg_err(c) != Z3_OK ? vg_err(c) : Z3_INVALID_USAGE;
	}
	if (code == Z3_OK) {
		Z3_solver_set_params(c, t, p);
		code = vg_err(c);
		if (code == Z3_OK) {
			Z3_solver_get_num_scopes(c, t);
			code = vg_err(c);
		}
	}
	if (code != Z3_OK) {
		Z3_string m = Z3_get_error_msg(c, (Z3_error_code)code);
		if (m != NULL) *msg = strdup(m);
	}
	if (t != NULL) Z3_solver_dec_ref(c, t);
	Z3_params_dec_ref(c, p);
	Z3_set_error(c, Z3_OK);
	return code;
}

// vg_set_params applies p (NULL: nothing) to s.
static int vg_set_params(Z3_context c, Z3_solver s, Z3_params p) {
	if (p != NULL) Z3_solver_set_params(c, s, p);
	return vg_err(c);
}

// vg_setup sets the solver s up (Z3_solver_get_num_scopes), which is
// when Z3 4.8.12 checks the parameters of a solver not yet set up. With
// lenient set, Z3's "unknown parameter 'compact'" is cleared: the SMT
// core reads the model module's compact from the solver's own parameters
// when it is built, just before that check, though the simple solver
// does not declare it (see Solver.SetParams). Any other error is
// returned.
static int vg_setup(Z3_context c, Z3_solver s, int lenient) {
	Z3_solver_get_num_scopes(c, s);
	int code = vg_err(c);
	if (code != Z3_OK && lenient) {
		static const char want[] = "unknown parameter 'compact'";
		Z3_string m = Z3_get_error_msg(c, (Z3_error_code)code);
		if (m != NULL && strncmp(m, want, sizeof want - 1) == 0) {
			Z3_set_error(c, Z3_OK);
			code = Z3_OK;
		}
	}
	return code;
}

// vg_recycle makes a fresh solver holding the assertions of s (at scope
// 0), with the parameters p (NULL: none) set before any assertion, and
// releases s; it returns NULL on error, leaving s alive.
static Z3_solver vg_recycle(Z3_context c, Z3_solver s, Z3_params p, int lenient) {
	Z3_ast_vector v = Z3_solver_get_assertions(c, s);
	if (v == NULL || Z3_get_error_code(c) != Z3_OK) return NULL;
	Z3_ast_vector_inc_ref(c, v);
	Z3_solver t = vg_solver(c);
	if (t != NULL && (vg_set_params(c, t, p) != Z3_OK || (p != NULL && vg_setup(c, t, lenient) != Z3_OK))) {
		Z3_solver_dec_ref(c, t);
		t = NULL;
	}
	if (t != NULL) {
		unsigned n = Z3_ast_vector_size(c, v);
		for (unsigned i = 0; i < n && Z3_get_error_code(c) == Z3_OK; i++)
			Z3_solver_assert(c, t, Z3_ast_vector_get(c, v, i));
		if (Z3_get_error_code(c) != Z3_OK) {
			Z3_solver_dec_ref(c, t);
			t = NULL;
		}
	}
	Z3_ast_vector_dec_ref(c, v);
	if (t != NULL) Z3_solver_dec_ref(c, s);
	return t;
}

static int vg_assert(Z3_context c, Z3_solver s, Z3_ast a) { Z3_solver_assert(c, s, a); return vg_err(c); }
static int vg_push(Z3_context c, Z3_solver s) { Z3_solver_push(c, s); return vg_err(c); }
static int vg_pop(Z3_context c, Z3_solver s, unsigned n) { Z3_solver_pop(c, s, n); return vg_err(c); }
static int vg_reset(Z3_context c, Z3_solver s) { Z3_solver_reset(c, s); return vg_err(c); }

// vg_eval_smtlib runs SMT-LIB2 commands in the context's command interpreter and
// returns what they printed (NULL on error, the message in *code's place
// being Z3_get_error_msg).
static const char *vg_eval_smtlib(Z3_context c, const char *text, int *code) {
	Z3_set_error(c, Z3_OK); // the code of an earlier script's error is sticky
	Z3_string r = Z3_eval_smtlib2_string(c, text);
	*code = (int)Z3_get_error_code(c);
	return r;
}

// vg_parse parses SMT-LIB2 declarations, definitions and assertions
// (Z3_parse_smtlib2_string, a command interpreter of its own that is
// thrown away after the call) and returns the assertions, referenced, or
// NULL on error.
static Z3_ast_vector vg_parse(Z3_context c, const char *text) {
	Z3_set_error(c, Z3_OK);
	Z3_ast_vector v = Z3_parse_smtlib2_string(c, text, 0, NULL, NULL, 0, NULL, NULL);
	if (v == NULL || Z3_get_error_code(c) != Z3_OK) return NULL;
	Z3_ast_vector_inc_ref(c, v);
	return v;
}

// vg_vector_get returns element i of v, referenced.
static Z3_ast vg_vector_get(Z3_context c, Z3_ast_vector v, unsigned i) {
	return vg_keep(c, Z3_ast_vector_get(c, v, i));
}

// vg_flush clears the cancel flag that a Z3_interrupt landing after a
// check's end leaves set on the context's manager (Z3 4.8.12 resets it
// only when a check starts or ends, and smt::context::assert_expr
// silently drops an assertion while it is set): it runs a check of *fs,
// an empty solver it makes on first use, whose start and end reset the
// flag. The context's error code is left as it was.
static void vg_flush(Z3_context c, Z3_solver *fs) {
	Z3_error_code e = Z3_get_error_code(c);
	if (*fs == NULL) *fs = vg_solver(c);
	if (*fs != NULL) Z3_solver_check(c, *fs);
	Z3_set_error(c, e);
}

static int vg_check(Z3_context c, Z3_solver s, unsigned n, Z3_ast *a, int *code) {
	Z3_lbool r = n == 0 ? Z3_solver_check(c, s) : Z3_solver_check_assumptions(c, s, n, a);
	*code = vg_err(c);
	return (int)r;
}

// vg_rlimit_count returns Z3's resource counter ("rlimit count" of the
// solver's statistics: the work counted against rlimit by the context
// so far), or -1 when the statistics do not have it.
static long long vg_rlimit_count(Z3_context c, Z3_solver s) {
	Z3_stats st = Z3_solver_get_statistics(c, s);
	if (st == NULL || Z3_get_error_code(c) != Z3_OK) { vg_err(c); return -1; }
	Z3_stats_inc_ref(c, st);
	long long v = -1;
	unsigned n = Z3_stats_size(c, st);
	for (unsigned i = 0; i < n; i++) {
		Z3_string k = Z3_stats_get_key(c, st, i);
		if (k == NULL || strcmp(k, "rlimit count") != 0) continue;
		if (Z3_stats_is_uint(c, st, i)) v = (long long)Z3_stats_get_uint_value(c, st, i);
		else v = (long long)Z3_stats_get_double_value(c, st, i);
		break;
	}
	Z3_stats_dec_ref(c, st);
	vg_err(c);
	return v;
}

// vg_limits sets the solver's timeout (ms) and resource limit (0: none).
static int vg_limits(Z3_context c, Z3_solver s, unsigned timeout, unsigned rlimit) {
	Z3_params p = Z3_mk_params(c);
	if (p == NULL || Z3_get_error_code(c) != Z3_OK) return vg_err(c);
	Z3_params_inc_ref(c, p);
	Z3_params_set_uint(c, p, Z3_mk_string_symbol(c, "timeout"), timeout == 0 ? 4294967295u : timeout);
	Z3_params_set_uint(c, p, Z3_mk_string_symbol(c, "rlimit"), rlimit);
	if (Z3_get_error_code(c) == Z3_OK) Z3_solver_set_params(c, s, p);
	int code = vg_err(c);
	Z3_params_dec_ref(c, p);
	return code;
}

// vg_core copies the unsat core (a subset of the assumptions, which the
// caller keeps alive) into out, which has room for cap entries. It returns
// the core's size or -1 on error.
static int vg_core(Z3_context c, Z3_solver s, Z3_ast *out, unsigned cap) {
	Z3_ast_vector v = Z3_solver_get_unsat_core(c, s);
	if (v == NULL || Z3_get_error_code(c) != Z3_OK) return -1;
	Z3_ast_vector_inc_ref(c, v);
	unsigned n = Z3_ast_vector_size(c, v);
	if (n > cap) n = cap;
	for (unsigned i = 0; i < n; i++) out[i] = Z3_ast_vector_get(c, v, i);
	int code = vg_err(c);
	Z3_ast_vector_dec_ref(c, v);
	return code == Z3_OK ? (int)n : -1;
}

// vg_eval evaluates n terms in the solver's current model (with model
// completion) into out: integers as their value, Booleans as 0/1. It
// returns 0, an error code (> 0), or -1 when a value is not an int64.
static int vg_eval(Z3_context c, Z3_solver s, unsigned n, Z3_ast *t, int64_t *out) {
	Z3_model m = Z3_solver_get_model(c, s);
	if (m == NULL || Z3_get_error_code(c) != Z3_OK) return m == NULL && vg_err(c) == Z3_OK ? Z3_INVALID_USAGE : vg_err(c);
	Z3_model_inc_ref(c, m);
	int rc = 0;
	for (unsigned i = 0; i < n && rc == 0; i++) {
		Z3_ast v = NULL;
		if (!Z3_model_eval(c, m, t[i], 1, &v) || v == NULL || Z3_get_error_code(c) != Z3_OK) {
			rc = vg_err(c) != Z3_OK ? vg_err(c) : -1;
			break;
		}
		Z3_inc_ref(c, v);
		Z3_lbool b = Z3_get_bool_value(c, v);
		if (b == Z3_L_TRUE) {
			out[i] = 1;
		} else if (b == Z3_L_FALSE) {
			out[i] = 0;
		} else {
			int64_t x;
			if (Z3_get_numeral_int64(c, v, &x)) out[i] = x; else rc = -1;
		}
		Z3_dec_ref(c, v);
	}
	Z3_model_dec_ref(c, m);
	return rc;
}
*/
import "C"

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unsafe"
)

// Operation codes shared with vg_mk.
const (
	opNot = C.VG_NOT
	opAnd = C.VG_AND
	opOr  = C.VG_OR
	opImp = C.VG_IMPLIES
	opIte = C.VG_ITE
	opAdd = C.VG_ADD
	opSub = C.VG_SUB
	opNeg = C.VG_NEG
	opEq  = C.VG_EQ
	opLe  = C.VG_LE
	opLt  = C.VG_LT
	opGe  = C.VG_GE
	opGt  = C.VG_GT
)

// Context owns a Z3 context and every term and solver made from it.
// It is not safe for concurrent use, except for Interrupt.
type Context struct {
	c                 C.Z3_context
	intSort, boolSort C.Z3_sort
	refs              []C.Z3_ast     // every term handed out, in order (the arena)
	kept              []C.Z3_ast     // terms pinned by Keep until Close
	ints              map[int64]Term // pinned small literals
	tru, fls          Term           // pinned Boolean literals
	solvers           map[*Solver]struct{}
	err               error // first error of a term constructor (sticky)
	buf               []C.Z3_ast

	mu     sync.Mutex // guards c against Interrupt racing Close
	closed bool
	// running is set (under mu) while a check or an EvalSMTLIB runs in
	// Z3; Interrupt calls Z3_interrupt only then, and sets interrupted.
	// Z3_interrupt raises the cancel flag of the context's manager even
	// when nothing runs, and Z3 4.8.12 clears it only when a check starts
	// or ends; while it is up, Z3_solver_assert silently drops the
	// assertion (smt::context::assert_expr_core), so the next check
	// answered without it: a wrong sat (TestS31iIdleInterruptKeepsAssertions,
	// TestS29rStaleInterrupt). An interrupt can still land between the
	// check's end in Z3 and running's reset: settle then clears the flag
	// with a check of flusher, an empty solver.
	running, interrupted bool
	flusher              C.Z3_solver
	// parsing is set while a parse that ParseSMTLIBContext gave up on
	// still runs in Z3 (Z3's SMT-LIB2 parser does not heed
	// Z3_interrupt); Close then leaves the context to be deleted when it
	// ends (closeLater).
	parsing    bool
	closeLater bool
	// orphan is set (under mu) while a check that CheckContext gave up
	// on still runs in Z3 (abandon); gone is set, by the owner only,
	// from then on: the context is never used again (every call fails
	// with err or does nothing), and Close leaves its deletion to the
	// goroutine of that check (deleteLocked). deleted is set (under mu)
	// once the Z3 context is deleted.
	orphan, deleted bool
	gone            bool
	handedOff       bool // counted in pendingDeletes (under mu)
	// stop (StopWhen) is polled by the term constructors every
	// stopEvery constructions (polls counts them); stopCtx is its
	// context, whose error the constructors then report.
	stop    <-chan struct{}
	stopCtx context.Context
	polls   uint
}

// stopEvery is how many term constructions StopWhen's poll covers: a
// constructor is a cgo call of about a microsecond, so a stopped
// encoding ends within milliseconds.
const stopEvery = 64

// ErrStopped is wrapped by the error of a term constructor that found
// the context given to StopWhen done.
var ErrStopped = errors.New("smt: encoding stopped")

// StopWhen makes the term constructors of x poll ctx: once ctx is done,
// the next constructor fails with an error that wraps ErrStopped and
// ctx's error, and every later one returns the zero Term at once (the
// context's error is sticky, see Err). Z3's interrupt (CheckContext)
// reaches checks only; an encoding of a large model takes seconds of
// constructor calls, which a timeout or a signal now cuts short. A nil
// ctx stops polling.
func (x *Context) StopWhen(ctx context.Context) {
	x.stopCtx, x.stop = ctx, nil
	if ctx != nil {
		x.stop = ctx.Done()
	}
}

// Term is a Z3 term (integer or Boolean). The zero Term is invalid; it is
// what constructors return after an error. Z3 shares structurally equal
// terms, so == on Terms of one context is structural equality.
type Term struct {
	a C.Z3_ast
}

// IsZero reports whether t is the invalid zero Term.
func (t Term) IsZero() bool { return t.a == nil }

// Mark is a position in a Context's arena (see Context.Release).
type Mark int

// liveContexts and liveSolvers count the Z3 contexts made and not yet
// deleted, and the Z3 solvers made and not yet released (LiveContexts).
var liveContexts, liveSolvers atomic.Int64

// LiveContexts returns the number of Z3 contexts of the process that are
// not yet deleted and of Z3 solvers not yet released. Each context costs
// some 16 MB of resident memory however small its terms (two tables Z3
// makes per context, see malloc.go), so a long-lived process (or a test
// over thousands of models) that does not Close its contexts grows by that
// much per context: TestS29sEdgeTransitions and TestS29mContextRSS check that
// the count returns to where it was.
func LiveContexts() (contexts, solvers int) {
	return int(liveContexts.Load()), int(liveSolvers.Load())
}

// NewContext creates a reference-counted Z3 context.
func NewContext() (*Context, error) {
	prepareHeap()
	c := C.vg_new_context()
	if c == nil {
		return nil, errors.New("smt: cannot create a Z3 context")
	}
	ctx := &Context{c: c, solvers: map[*Solver]struct{}{}}
	ctx.intSort = C.vg_sort(c, 0)
	ctx.boolSort = C.vg_sort(c, 1)
	if ctx.intSort == nil || ctx.boolSort == nil {
		err := ctx.z3err("creating sorts")
		C.Z3_del_context(c)
		return nil, err
	}
	liveContexts.Add(1)
	return ctx, nil
}

// Version returns the version of the linked Z3 library, e.g. "4.8.12".
func Version() string {
	var a, b, c, d C.uint
	C.Z3_get_version(&a, &b, &c, &d)
	return fmt.Sprintf("%d.%d.%d", a, b, c)
}

// SetGlobalParam sets a Z3 global parameter (Z3_global_param_set) for
// contexts and solvers made afterwards, e.g. SetGlobalParam("smt.arith.solver", "2").
// Z3 ignores unknown names with a warning on stderr.
func SetGlobalParam(name, value string) {
	cn, cv := C.CString(name), C.CString(value)
	C.Z3_global_param_set(cn, cv)
	C.free(unsafe.Pointer(cn))
	C.free(unsafe.Pointer(cv))
}

// Close frees the context, its solvers and all its terms. Terms and solvers
// of a closed context must not be used (solvers report an error). Close is
// idempotent.
func (x *Context) Close() {
	x.mu.Lock()
	defer x.mu.Unlock()
	if x.closed {
		return
	}
	if x.parsing { // an abandoned parse still uses the context
		x.closeLater = true
		x.handOff()
		return
	}
	if x.orphan { // an abandoned check still runs in the context
		x.closeLater, x.closed = true, true
		x.handOff()
		return
	}
	if x.gone { // its abandoned check has ended meanwhile
		x.closed = true
		x.deleteLocked()
		return
	}
	if len(x.refs)+len(x.kept) >= closeAsync {
		// a large context takes a second or more to delete (1.3 s for
		// the 14,400-command model of ic3/FIGURES.md under load), which
		// a stopped run spent after its stop: delete it in the
		// background; nothing uses it meanwhile (gone)
		x.gone, x.closed = true, true
		x.handOff()
		go func() {
			x.mu.Lock()
			defer x.mu.Unlock()
			x.deleteLocked()
		}()
		return
	}
	x.closeLocked()
}

// pendingDeletes counts the contexts whose owner has closed them and
// whose deletion another goroutine has still to do (an abandoned check
// or parse, or Close's background deletion), for the tests: a count of
// live contexts taken meanwhile drops when it is done.
var pendingDeletes atomic.Int64

// handOff records that x's deletion is left to another goroutine; x.mu
// is held.
func (x *Context) handOff() {
	if !x.handedOff {
		x.handedOff = true
		pendingDeletes.Add(1)
	}
}

// handedBack ends handOff when x is deleted; x.mu is held.
func (x *Context) handedBack() {
	if x.handedOff {
		x.handedOff = false
		pendingDeletes.Add(-1)
	}
}

// closeAsync is the number of live terms from which Close deletes the
// Z3 context on a goroutine of its own.
var closeAsync = 50000

// deleteLocked deletes the Z3 context of a context given up (gone), on
// whichever goroutine ends last, its owner's Close or its abandoned
// check; x.mu is held. It writes no field the owner reads without mu.
func (x *Context) deleteLocked() {
	if x.deleted {
		return
	}
	for s := range x.solvers {
		if s.s != nil {
			C.Z3_solver_dec_ref(x.c, s.s)
			liveSolvers.Add(-1)
		}
		if s.params != nil {
			C.Z3_params_dec_ref(x.c, s.params)
		}
	}
	if x.flusher != nil {
		C.Z3_solver_dec_ref(x.c, x.flusher)
	}
	for _, a := range x.refs {
		C.Z3_dec_ref(x.c, a)
	}
	for _, a := range x.kept {
		C.Z3_dec_ref(x.c, a)
	}
	C.vg_dec_sort(x.c, x.intSort)
	C.vg_dec_sort(x.c, x.boolSort)
	C.Z3_del_context(x.c)
	liveContexts.Add(-1)
	x.deleted = true
	x.handedBack()
}

// closeLocked deletes the context; x.mu is held.
func (x *Context) closeLocked() {
	for s := range x.solvers {
		s.release()
	}
	if x.flusher != nil {
		C.Z3_solver_dec_ref(x.c, x.flusher)
		x.flusher = nil
	}
	x.Release(0)
	for _, a := range x.kept {
		C.Z3_dec_ref(x.c, a)
	}
	x.kept, x.ints, x.tru, x.fls = nil, nil, Term{}, Term{}
	C.vg_dec_sort(x.c, x.intSort)
	C.vg_dec_sort(x.c, x.boolSort)
	C.Z3_del_context(x.c)
	liveContexts.Add(-1)
	x.closed, x.deleted = true, true
	x.c, x.solvers, x.refs = nil, nil, nil
	x.handedBack()
}

// Interrupt asks a running check of this context to stop; the check then
// returns Unknown. It is the one method that is safe to call from another
// goroutine. An interrupt that arrives while no check runs has no effect:
// it is not passed to Z3 (see Context.running), and one that reaches Z3
// as a check ends is cleared before the check returns
// (TestS31iIdleInterruptKeepsAssertions, TestS31iInterruptRace).
func (x *Context) Interrupt() {
	x.mu.Lock()
	defer x.mu.Unlock()
	if !x.deleted && x.running {
		C.Z3_interrupt(x.c)
		x.interrupted = true
	}
}

// flushes counts settle's clearings of the cancel flag (for the tests).
var flushes atomic.Int64

// begin marks a call into Z3 that Interrupt may stop (a check).
func (x *Context) begin() {
	x.mu.Lock()
	x.running, x.interrupted = true, false
	x.mu.Unlock()
}

// settle ends what begin started and reports whether an interrupt was
// sent meanwhile; if one was, it may have landed after Z3's check ended,
// leaving the manager's cancel flag up, so settle clears it (vg_flush)
// before any other call can see it. Interrupt waits on mu meanwhile.
func (x *Context) settle() bool {
	x.mu.Lock()
	defer x.mu.Unlock()
	return x.settleLocked()
}

// settleLocked is settle with x.mu held.
func (x *Context) settleLocked() bool {
	x.running = false
	hit := x.interrupted
	if hit {
		x.interrupted = false
		C.vg_flush(x.c, &x.flusher)
		flushes.Add(1)
	}
	return hit
}

// Err returns the first error a term constructor met, or nil. After an
// error every constructor returns the zero Term and asserting it fails.
func (x *Context) Err() error { return x.err }

// Mark returns the current arena position.
func (x *Context) Mark() Mark { return Mark(len(x.refs)) }

// Release drops the references of every term made since m; those terms
// must not be used afterwards (terms made before m stay valid even when
// Z3 shares structure with the released ones).
func (x *Context) Release(m Mark) {
	if x.c == nil || x.gone || int(m) >= len(x.refs) {
		return
	}
	for i := len(x.refs) - 1; i >= int(m); i-- {
		C.Z3_dec_ref(x.c, x.refs[i])
	}
	clear(x.refs[m:])
	x.refs = x.refs[:m]
}

// Keep pins t until the context is closed, beyond any Release: for terms
// that outlive the arena scope they were made in (cached literals).
func (x *Context) Keep(t Term) Term {
	if t.a == nil || x.closed || x.gone {
		return t
	}
	C.Z3_inc_ref(x.c, t.a)
	x.kept = append(x.kept, t.a)
	return t
}

// Terms returns the number of live terms in the arena.
func (x *Context) Terms() int { return len(x.refs) }

func (x *Context) z3err(what string) error {
	code := C.Z3_get_error_code(x.c)
	if code == C.Z3_OK {
		return fmt.Errorf("smt: %s: Z3 returned no result", what)
	}
	return fmt.Errorf("smt: %s: %s", what, C.GoString(C.Z3_get_error_msg(x.c, code)))
}

// keep records a fresh referenced AST, or the error when a is nil.
func (x *Context) keep(a C.Z3_ast, what string) Term {
	if a == nil {
		if x.err == nil {
			x.err = x.z3err(what)
		}
		return Term{}
	}
	x.refs = append(x.refs, a)
	return Term{a}
}

// ok reports whether constructing from ts may proceed.
func (x *Context) ok(ts ...Term) bool {
	if x.err != nil {
		return false
	}
	if x.closed {
		x.err = errors.New("smt: context is closed")
		return false
	}
	if x.stop != nil {
		if x.polls++; x.polls%stopEvery == 0 {
			select {
			case <-x.stop:
				x.err = fmt.Errorf("%w: %w", ErrStopped, x.stopCtx.Err())
				return false
			default:
			}
		}
	}
	for _, t := range ts {
		if t.a == nil {
			x.err = errors.New("smt: invalid (zero) term used as an argument")
			return false
		}
	}
	return true
}

// IntConst returns the integer constant called name.
func (x *Context) IntConst(name string) Term { return x.constant(name, x.intSort) }

// BoolConst returns the Boolean constant called name.
func (x *Context) BoolConst(name string) Term { return x.constant(name, x.boolSort) }

func (x *Context) constant(name string, s C.Z3_sort) Term {
	if !x.ok() {
		return Term{}
	}
	cs := C.CString(name)
	a := C.vg_const(x.c, cs, s)
	C.free(unsafe.Pointer(cs))
	return x.keep(a, "constant "+name)
}

// maxInts bounds the cache of pinned integer literals.
const maxInts = 4096

// Int returns the integer literal v. Literals are made once per context
// and pinned (they stay valid across Release), so the encoder's many
// constants cost no cgo call after the first.
func (x *Context) Int(v int64) Term {
	if !x.ok() {
		return Term{}
	}
	if t, ok := x.ints[v]; ok {
		return t
	}
	a := C.vg_int(x.c, C.int64_t(v), x.intSort)
	if a == nil || len(x.ints) >= maxInts {
		return x.keep(a, "integer literal")
	}
	if x.ints == nil {
		x.ints = map[int64]Term{}
	}
	x.kept = append(x.kept, a) // the reference vg_int took
	x.ints[v] = Term{a}
	return Term{a}
}

// Bool returns the Boolean literal b (pinned, like small integers).
func (x *Context) Bool(b bool) Term {
	if !x.ok() {
		return Term{}
	}
	p, v := &x.fls, C.int(0)
	if b {
		p, v = &x.tru, 1
	}
	if p.a == nil {
		a := C.vg_bool(x.c, v)
		if a == nil {
			return x.keep(a, "Boolean literal")
		}
		x.kept = append(x.kept, a)
		p.a = a
	}
	return *p
}

// True and False return the Boolean literals.
func (x *Context) True() Term  { return x.Bool(true) }
func (x *Context) False() Term { return x.Bool(false) }

func (x *Context) mk(op C.int, what string, ts ...Term) Term {
	if !x.ok(ts...) {
		return Term{}
	}
	x.buf = x.buf[:0]
	for _, t := range ts {
		x.buf = append(x.buf, t.a)
	}
	return x.keep(C.vg_mk(x.c, op, C.uint(len(ts)), &x.buf[0]), what)
}

// Not returns ¬a.
func (x *Context) Not(a Term) Term { return x.mk(opNot, "not", a) }

// And returns the conjunction of ts (true when ts is empty).
func (x *Context) And(ts ...Term) Term {
	switch len(ts) {
	case 0:
		return x.True()
	case 1:
		if x.ok(ts[0]) {
			return x.retain(ts[0])
		}
		return Term{}
	}
	return x.mk(opAnd, "and", ts...)
}

// Or returns the disjunction of ts (false when ts is empty).
func (x *Context) Or(ts ...Term) Term {
	switch len(ts) {
	case 0:
		return x.False()
	case 1:
		if x.ok(ts[0]) {
			return x.retain(ts[0])
		}
		return Term{}
	}
	return x.mk(opOr, "or", ts...)
}

// retain returns t with one more arena reference, so that it stays valid
// as long as terms made at this point do.
func (x *Context) retain(t Term) Term {
	C.Z3_inc_ref(x.c, t.a)
	x.refs = append(x.refs, t.a)
	return t
}

// Implies returns a ⇒ b.
func (x *Context) Implies(a, b Term) Term { return x.mk(opImp, "implies", a, b) }

// Iff returns a ⇔ b.
func (x *Context) Iff(a, b Term) Term { return x.mk(opEq, "iff", a, b) }

// Ite returns if c then a else b (a and b of one sort).
func (x *Context) Ite(c, a, b Term) Term { return x.mk(opIte, "ite", c, a, b) }

// Add returns the sum of ts (0 when ts is empty).
func (x *Context) Add(ts ...Term) Term {
	switch len(ts) {
	case 0:
		return x.Int(0)
	case 1:
		if x.ok(ts[0]) {
			return x.retain(ts[0])
		}
		return Term{}
	}
	return x.mk(opAdd, "add", ts...)
}

// Sub returns a - b.
func (x *Context) Sub(a, b Term) Term { return x.mk(opSub, "sub", a, b) }

// Neg returns -a.
func (x *Context) Neg(a Term) Term { return x.mk(opNeg, "neg", a) }

// MulK returns k * a.
func (x *Context) MulK(k int64, a Term) Term {
	if !x.ok(a) {
		return Term{}
	}
	return x.keep(C.vg_mulk(x.c, x.intSort, C.int64_t(k), a.a, 0), "mul")
}

// DivK returns a / k rounded toward negative infinity; k must be positive
// (for k > 0 SMT-LIB's div is exactly the floor).
func (x *Context) DivK(a Term, k int64) Term {
	if !x.ok(a) {
		return Term{}
	}
	if k <= 0 {
		x.err = fmt.Errorf("smt: division by non-positive constant %d", k)
		return Term{}
	}
	return x.keep(C.vg_mulk(x.c, x.intSort, C.int64_t(k), a.a, 1), "div")
}

// Eq, Le, Lt, Ge, Gt compare two integer terms (Eq also two Booleans).
func (x *Context) Eq(a, b Term) Term { return x.mk(opEq, "eq", a, b) }
func (x *Context) Le(a, b Term) Term { return x.mk(opLe, "le", a, b) }
func (x *Context) Lt(a, b Term) Term { return x.mk(opLt, "lt", a, b) }
func (x *Context) Ge(a, b Term) Term { return x.mk(opGe, "ge", a, b) }
func (x *Context) Gt(a, b Term) Term { return x.mk(opGt, "gt", a, b) }

// Ne returns a ≠ b.
func (x *Context) Ne(a, b Term) Term { return x.Not(x.Eq(a, b)) }

// String returns t in SMT-LIB syntax.
func (x *Context) String(t Term) string {
	if t.a == nil || x.closed || x.gone {
		return "<invalid>"
	}
	return C.GoString(C.Z3_ast_to_string(x.c, t.a))
}

// Result is the answer of a satisfiability check.
type Result int8

const (
	Unknown Result = iota // no answer: timeout, resource limit, interruption
	Sat
	Unsat
)

func (r Result) String() string {
	switch r {
	case Sat:
		return "sat"
	case Unsat:
		return "unsat"
	}
	return "unknown"
}

// Limits bound one check. Zero fields mean "no limit".
type Limits struct {
	Timeout time.Duration
	// Rlimit is Z3's deterministic resource limit (rlimit), in Z3's units.
	Rlimit uint32
}

// Solver is an incremental Z3 solver of one Context.
type Solver struct {
	x      *Context
	s      C.Z3_solver
	limits Limits
	last   []Term // assumptions of the last check
	res    Result
	reason string // set when a check was refused before reaching Z3
	core   []C.Z3_ast
	// recycle: rebuild the Z3 solver after this many checks (0: never);
	// since: checks since the last rebuild.
	recycle, since int
	// params are the solver parameters SetParams set (nil: none), kept
	// to be set again on the fresh solver of a recycle.
	params C.Z3_params
	// ctxRlimit: the resource limit in limits is the one of a
	// CheckContext's context (WithRlimit), not SetLimits'.
	ctxRlimit bool
	// oneShot: a solver of NewOneShotSolver (Z3's "smt" tactic), whose
	// parameters Z3 checks against the tactic's, not the simple
	// solver's (checkParam).
	oneShot bool
	// compact: SetParams set the model parameter compact (vg_setup).
	compact bool
	// lost is set, to the reason of its Unknown, once a check that ran
	// in Z3 gave no answer (a resource limit, a timeout; not Interrupt):
	// Z3 4.8.12 may then have dropped assertions that the check was
	// preprocessing (asserted_formulas stops half-way when its limit or
	// cancel flag is up), and later checks of the solver answered sat
	// on formulas that are unsat (TestS32yLimitLosesAssertions). Every
	// later check answers Unknown with that reason, until Reset.
	lost string
	// Checks counts the checks run, Unknowns those that gave no answer,
	// Recycles the rebuilds (SetRecycle).
	Checks, Unknowns, Recycles int
}

// NewSolver creates a solver (Z3's simple solver: incremental, with
// push/pop and assumptions).
func (x *Context) NewSolver() (*Solver, error) {
	if x.closed {
		return nil, errors.New("smt: context is closed")
	}
	if x.gone {
		return nil, x.err
	}
	s := C.vg_solver(x.c)
	if s == nil {
		return nil, x.z3err("creating a solver")
	}
	sv := &Solver{x: x, s: s, recycle: DefaultRecycle}
	x.solvers[sv] = struct{}{}
	liveSolvers.Add(1)
	return sv, nil
}

// NewOneShotSolver creates a solver for one check of assertions made at
// scope 0: Z3's SMT core run as a tactic (Z3_mk_solver_from_tactic
// "smt"), which is not incremental, so a second check solves everything
// again and Push, Pop and assumptions have no use. On the certificate
// checker's one query it decides as NewSolver's solver does, in less time
// (bench/polic3's PolIC3 certificates, the checks' disjunction: beluga
// be1 16x16 0.23 -> 0.13 s, npuzzle 2x3 0.10 -> 0.07 s, blocks 4 8 -> 5
// ms). It is never recycled.
func (x *Context) NewOneShotSolver() (*Solver, error) {
	if x.closed {
		return nil, errors.New("smt: context is closed")
	}
	if x.gone {
		return nil, x.err
	}
	s := C.vg_smt_solver(x.c)
	if s == nil {
		return nil, x.z3err("creating a solver")
	}
	sv := &Solver{x: x, s: s, oneShot: true}
	x.solvers[sv] = struct{}{}
	liveSolvers.Add(1)
	return sv, nil
}

// DefaultRecycle is the number of checks after which a solver rebuilds
// itself (see SetRecycle). Z3 4.8.12 keeps state across checks of one
// solver: on IC3-sized queries (cmd/smt-rss) a solver that answered
// 20,000 checks was about ten times slower than a fresh one and had grown
// by 40 MB, while a rebuild costs about one query.
var DefaultRecycle = 1000

// SetRecycle makes the solver rebuild itself after every n checks (0:
// never): a fresh Z3 solver gets the same assertions and limits. It
// happens only between checks at scope level 0, so scopes and the meaning
// of the solver never change; learned lemmas are dropped.
func (s *Solver) SetRecycle(n int) { s.recycle = n }

func (s *Solver) maybeRecycle() error {
	if s.recycle <= 0 || s.since < s.recycle || C.Z3_solver_get_num_scopes(s.x.c, s.s) != 0 {
		return nil
	}
	t := C.vg_recycle(s.x.c, s.s, s.params, C.int(b2i(s.compact)))
	if t == nil {
		return s.x.z3err("rebuilding the solver")
	}
	s.s, s.since = t, 0
	s.Recycles++
	if l := s.limits; l != (Limits{}) {
		s.limits = Limits{}
		return s.SetLimits(l)
	}
	return nil
}

func (s *Solver) release() {
	if s.s != nil {
		C.Z3_solver_dec_ref(s.x.c, s.s)
		s.s = nil
		liveSolvers.Add(-1)
	}
	if s.params != nil {
		C.Z3_params_dec_ref(s.x.c, s.params)
		s.params = nil
	}
}

// Param is one Z3 solver parameter: a name as Z3_solver_get_param_descrs
// lists it for the solver, unqualified ("relevancy", "arith.solver"; the
// SMT module's parameters are the solver's own), and a value: "true" or
// "false" for a Boolean, a decimal for an unsigned integer, a symbol
// otherwise.
type Param struct{ Name, Value string }

// SetParams sets parameters of this solver only (Z3_solver_set_params),
// unlike SetGlobalParam, whose settings every later context of the process
// inherits. Set them before the first assertion: some (arith.solver) take
// effect when Z3 sets the solver up. They survive Reset and recycling.
//
// A parameter Z3 does not take for the solver (an unknown name, a value
// of the wrong type) is an error here: Z3 4.8.12 checks the parameters
// of a solver only when it sets the solver up, at its first assertion
// (or Push, or Scopes), and that assertion then failed with "unknown
// parameter" and was dropped (TestS32yParamsCheckedAtSet); a solver
// rebuilt by SetRecycle failed the same way. Nothing is set then.
//
// One exception, for the simple solver: "compact" (true or false), the
// model module's parameter, which Z3's SMT core reads from the solver's
// own parameters when it builds the solver, though the solver does not
// declare it (and Z3 then reports it unknown). ic3 sets compact=false:
// without it, PolIC3 on bench/polic3's np2x3 and be1 trees policies
// took 25-50% more CPU (same search: 936 and 2,894 SMT calls). SetParams
// sets such a solver up at once and clears exactly that report, as
// SetRecycle's rebuild does; so it must come before the first assertion.
func (s *Solver) SetParams(ps ...Param) error {
	if err := s.usable(); err != nil {
		return err
	}
	compact := false
	for _, p := range ps {
		if p.Name == "compact" && !s.oneShot && (p.Value == "true" || p.Value == "false") {
			compact = true // read, not declared: see vg_setup
			continue
		}
		if err := s.x.checkParam(s.oneShot, p); err != nil {
			return err
		}
	}
	if s.params == nil {
		p := C.Z3_mk_params(s.x.c)
		if p == nil || C.vg_err(s.x.c) != C.Z3_OK {
			return s.x.z3err("making solver parameters")
		}
		C.Z3_params_inc_ref(s.x.c, p)
		s.params = p
	}
	for _, p := range ps {
		cn, cv := C.CString(p.Name), C.CString(p.Value)
		code := C.vg_param(s.x.c, s.params, cn, cv)
		C.free(unsafe.Pointer(cn))
		C.free(unsafe.Pointer(cv))
		if err := s.code(code, "setting parameter "+p.Name); err != nil {
			return err
		}
	}
	if err := s.code(C.vg_set_params(s.x.c, s.s, s.params), "setting parameters"); err != nil {
		return err
	}
	if compact || s.compact {
		// set the solver up now, while its parameters are the ones
		// checked here, so that Z3's check of compact meets no
		// assertion (vg_setup)
		s.compact = true
		return s.code(C.vg_setup(s.x.c, s.s, 1), "setting parameters")
	}
	return nil
}

// paramKey names a parameter check: the solver's kind and the parameter
// (Z3 checks the name and the type vg_param reads from the value).
type paramKey struct {
	oneShot bool
	p       Param
}

var (
	paramMu     sync.Mutex
	paramChecks = map[paramKey]error{} // Z3's verdict on each, per process
)

// checkParam reports whether Z3 takes p for a solver of the kind
// (vg_probe_param, once per parameter per process: the parameters a
// solver declares depend on the library, not on the context).
func (x *Context) checkParam(oneShot bool, p Param) error {
	k := paramKey{oneShot, p}
	paramMu.Lock()
	defer paramMu.Unlock()
	if err, ok := paramChecks[k]; ok {
		return err
	}
	cn, cv := C.CString(p.Name), C.CString(p.Value)
	var msg *C.char
	code := C.vg_probe_param(x.c, C.int(b2i(oneShot)), cn, cv, &msg)
	C.free(unsafe.Pointer(cn))
	C.free(unsafe.Pointer(cv))
	var err error
	if code != C.Z3_OK {
		why := "refused"
		if msg != nil {
			why = strings.TrimSpace(C.GoString(msg))
			C.free(unsafe.Pointer(msg))
			if i := strings.IndexByte(why, '\n'); i >= 0 {
				why = why[:i] // Z3 goes on with every parameter it knows
			}
		}
		err = fmt.Errorf("smt: solver parameter %s=%s: Z3 does not take it: %s", p.Name, p.Value, why)
	}
	paramChecks[k] = err
	return err
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// GlobalParam returns the value of a Z3 global parameter
// (Z3_global_param_get) and whether Z3 knows the name.
func GlobalParam(name string) (string, bool) {
	cn := C.CString(name)
	defer C.free(unsafe.Pointer(cn))
	var v C.Z3_string
	if !bool(C.Z3_global_param_get(cn, &v)) {
		return "", false
	}
	return C.GoString(v), true
}

// Close frees the solver. It is idempotent, and a no-op after the
// context's Close (which frees its solvers).
func (s *Solver) Close() {
	if s.x.closed || s.x.gone {
		return
	}
	s.release()
	delete(s.x.solvers, s)
}

func (s *Solver) usable() error {
	if s.x.gone && !s.x.closed {
		return s.x.err
	}
	if s.x.closed || s.s == nil {
		return errors.New("smt: solver or its context is closed")
	}
	return s.x.err
}

func (s *Solver) code(code C.int, what string) error {
	if code != C.Z3_OK {
		return fmt.Errorf("smt: %s: %s", what, C.GoString(C.Z3_get_error_msg(s.x.c, C.Z3_error_code(code))))
	}
	return nil
}

// Assert adds the Boolean term t to the solver.
func (s *Solver) Assert(t Term) error {
	if err := s.usable(); err != nil {
		return err
	}
	if t.a == nil {
		return errors.New("smt: assert: invalid (zero) term")
	}
	return s.code(C.vg_assert(s.x.c, s.s, t.a), "assert")
}

// Push opens a backtracking scope.
func (s *Solver) Push() error {
	if err := s.usable(); err != nil {
		return err
	}
	return s.code(C.vg_push(s.x.c, s.s), "push")
}

// Pop closes n scopes.
func (s *Solver) Pop(n int) error {
	if err := s.usable(); err != nil {
		return err
	}
	if n < 0 || n > int(C.Z3_solver_get_num_scopes(s.x.c, s.s)) {
		return fmt.Errorf("smt: pop %d: only %d scopes are open", n, C.Z3_solver_get_num_scopes(s.x.c, s.s))
	}
	return s.code(C.vg_pop(s.x.c, s.s, C.uint(n)), "pop")
}

// Scopes returns the number of open scopes (Push minus Pop).
func (s *Solver) Scopes() int {
	if s.usable() != nil {
		return 0
	}
	return int(C.Z3_solver_get_num_scopes(s.x.c, s.s))
}

// Reset removes every assertion and scope. Z3_solver_reset drops the
// Z3 solver's core (the next call makes a fresh one from the solver's
// factory), so nothing of an interrupted check survives it.
func (s *Solver) Reset() error {
	if err := s.usable(); err != nil {
		return err
	}
	if err := s.code(C.vg_reset(s.x.c, s.s), "reset"); err != nil {
		return err
	}
	s.lost = "" // a fresh core: nothing of a check that gave up survives
	return nil
}

// SetLimits bounds every following check.
func (s *Solver) SetLimits(l Limits) error {
	if err := s.usable(); err != nil {
		return err
	}
	s.ctxRlimit = false
	if l == s.limits {
		return nil
	}
	ms := l.Timeout.Milliseconds()
	if l.Timeout > 0 && ms == 0 {
		ms = 1
	}
	if ms > 1<<32-2 {
		ms = 0
	}
	if err := s.code(C.vg_limits(s.x.c, s.s, C.uint(ms), C.uint(l.Rlimit)), "setting limits"); err != nil {
		return err
	}
	s.limits = l
	return nil
}

// Check decides the conjunction of the assertions and the Boolean
// assumptions (none: a plain check). Timeouts, resource limits and
// interruptions give Unknown with a nil error; ReasonUnknown says why.
func (s *Solver) Check(assumptions ...Term) (Result, error) {
	return s.check(context.Background(), assumptions)
}

// check is Check, and CheckContext with a ctx that can end (Done non-nil):
// the check then runs on a goroutine of its own, which CheckContext may
// abandon (Context.checkOn).
func (s *Solver) check(ctx context.Context, assumptions []Term) (Result, error) {
	s.res, s.core, s.reason = Unknown, s.core[:0], ""
	s.last = s.last[:0]
	if err := s.usable(); err != nil {
		return Unknown, err
	}
	if s.lost != "" {
		// an earlier check gave up and may have lost assertions: no
		// answer of this solver is to be trusted, not even a recycle's
		// copy of its assertions (which Z3 takes from the same list)
		s.reason = s.lost
		s.Checks++
		s.Unknowns++
		return Unknown, nil
	}
	if err := s.maybeRecycle(); err != nil {
		return Unknown, err
	}
	s.since++
	x := s.x
	x.buf = x.buf[:0]
	for _, t := range assumptions {
		if t.a == nil {
			return Unknown, errors.New("smt: check: invalid (zero) assumption")
		}
		x.buf = append(x.buf, t.a)
	}
	s.last = append(s.last, assumptions...)
	var p *C.Z3_ast
	if len(x.buf) > 0 {
		p = &x.buf[0]
	}
	var code, r C.int
	var hit bool
	// Under a resource limit, Z3's counter before the check: a check
	// that gives up for a reason of a theory's may have run out of the
	// limit inside that theory (limitSpent).
	before := int64(-1)
	if s.limits.Rlimit > 0 {
		before = int64(C.vg_rlimit_count(x.c, s.s))
	}
	if ctx.Done() == nil { // a context that cannot end: the check runs here
		x.begin()
		r = C.vg_check(x.c, s.s, C.uint(len(x.buf)), p, &code)
		hit = x.settle()
	} else {
		var ok bool
		if r, code, hit, ok = x.checkOn(ctx, s.s, x.buf); !ok {
			// abandoned: no answer of that check is ever read
			s.reason = "canceled"
			s.Checks++
			s.Unknowns++
			return Unknown, nil
		}
	}
	if !hit && code == C.Z3_OK && r == C.Z3_L_UNDEF && s.limits.Rlimit > 0 {
		// Z3 says "max. resource limit exceeded", or "canceled" (its
		// one-shot solver), or just "unknown" (its incremental one)
		// when the resource limit runs out; on vigil's queries (linear
		// integer arithmetic, which Z3 decides) the limit is the likely
		// cause of a bare "unknown" too. A noun phrase, for "stopped by
		// the resource limit (rlimit N)" (phrase.Stopped).
		switch why := s.ReasonUnknown(); why {
		case "max. resource limit exceeded", "canceled", "unknown", "":
			s.reason = fmt.Sprintf("resource limit (rlimit %d)", s.limits.Rlimit)
		default:
			// A theory gave up: Z3's arithmetic says "(incomplete
			// (theory arithmetic))" when the limit runs out inside its
			// final check (branch and bound; verify --engine ic3
			// --rlimit 2500 on bench/ic3scaling/tank.spec, all labels).
			// It is the limit when the check spent all of it.
			if before >= 0 {
				if after := int64(C.vg_rlimit_count(x.c, s.s)); after >= 0 && after-before >= int64(s.limits.Rlimit) {
					s.reason = fmt.Sprintf("resource limit (rlimit %d)", s.limits.Rlimit)
				}
			}
		}
	}
	if hit && code == C.Z3_OK && r != C.Z3_L_UNDEF {
		// An interrupt reached Z3 while this check ran: its caller
		// asked to stop, and an answer Z3 gives when a cancellation
		// met its preprocessing half-way is not one to rest on.
		r = C.Z3_L_UNDEF
		s.reason = "canceled"
	}
	s.Checks++
	if code != C.Z3_OK {
		// Z3 reports some cancellations as errors; they are still
		// "no answer", not a failure of the caller.
		if code == C.Z3_EXCEPTION && s.ReasonUnknown() != "" {
			s.Unknowns++
			s.lose(hit)
			return Unknown, nil
		}
		err := s.code(code, "check")
		s.lose(hit)
		return Unknown, err
	}
	switch r {
	case C.Z3_L_TRUE:
		s.res = Sat
	case C.Z3_L_FALSE:
		s.res = Unsat
	default:
		s.Unknowns++
		s.lose(hit)
	}
	return s.res, nil
}

// lose marks the solver as one whose state Z3 may have damaged (lost),
// after a check that ran in Z3 and gave no answer, unless the caller
// interrupted it (hit): a caller that stops asks nothing more, and one
// that goes on after its own interrupt (the tests of session 31) keeps
// the solver as it was.
func (s *Solver) lose(hit bool) {
	if hit {
		return
	}
	why := s.ReasonUnknown()
	if why == "" {
		why = "unknown"
	}
	s.reason, s.lost = why, why
}

// Lost returns the reason of the check after which the solver is lost
// (see Check: a check that ran in Z3 and gave no answer, a resource
// limit or a timeout, not an interrupt of the caller's), "" when it is
// not. A lost solver answers Unknown, with that reason, until Reset; a
// caller that goes on asking (IC3's frames after a query ran out of
// --rlimit) rebuilds its solver, or Resets it and asserts again, rather
// than take every later answer as undecided.
func (s *Solver) Lost() string { return s.lost }

// CheckContext is Check that also stops (with Unknown) when ctx is done.
func (s *Solver) CheckContext(ctx context.Context, assumptions ...Term) (Result, error) {
	if err := ctx.Err(); err != nil {
		s.res, s.reason = Unknown, "canceled"
		s.Checks++
		s.Unknowns++
		return Unknown, nil
	}
	if n := RlimitOf(ctx); (s.limits.Rlimit == 0 || s.ctxRlimit) && s.limits.Rlimit != n {
		// the context's limit, or none after a check under one
		l := s.limits
		l.Rlimit = n
		if err := s.SetLimits(l); err != nil {
			return Unknown, err
		}
		s.ctxRlimit = n > 0
	}
	if ctx.Done() == nil {
		return s.Check(assumptions...)
	}
	return s.check(ctx, assumptions)
}

// rlimitKey is the key of WithRlimit's limit in a context.
type rlimitKey struct{}

// WithRlimit returns a copy of ctx under which every CheckContext bounds
// its check by Z3's deterministic resource limit n (rlimit, Z3's own
// units of work, counted per check; 0: none), unless the solver has a
// resource limit of its own (SetLimits). vigil verify --rlimit sets it
// on the run's context, so that the SMT engines' answers (and the check
// of the invariant they find) do not depend on the machine's speed, and
// vigil cert check --rlimit on the certificate checker's (ic3/cert's
// WithRlimit is this key): a check that reaches the limit answers Unknown,
// with a reason that says so (ReasonUnknown), never sat or unsat.
func WithRlimit(ctx context.Context, n uint32) context.Context {
	return context.WithValue(ctx, rlimitKey{}, n)
}

// RlimitOf is the limit WithRlimit put in ctx, 0 when none.
func RlimitOf(ctx context.Context) uint32 {
	n, _ := ctx.Value(rlimitKey{}).(uint32)
	return n
}

// abandonAfter is how long checkOn waits, once its context has ended
// and its interrupts are being sent, for Z3 to return before it gives
// the check up.
var abandonAfter = 300 * time.Millisecond

// checkHook, when set (by tests), runs on the check's goroutine just
// before Z3's check: a stand-in for a phase of Z3 that does not heed
// its interrupt.
var checkHook func()

// checkOn runs Z3's check of solver sv under the assumptions as on a
// goroutine of its own and interrupts it once ctx ends (interruptUntil).
// Z3 4.8.12 does not heed an interrupt in every phase of a check: on a
// large fresh formula (ic3's first check on the 14,400-command model of
// ic3/FIGURES.md) it went on for some 20 s after a stop. So when the
// check has not returned abandonAfter after ctx's end, checkOn gives it
// up (ok = false): the check goes on in Z3 until it heeds the
// interrupts, which go on, and its answer is never read; the context is
// given up with it (gone): every later call on it fails with an error
// that wraps ErrStopped, or does nothing, since nothing may enter Z3's
// context while the check runs in it, and Close leaves its deletion to
// the check's goroutine (deleteLocked).
func (x *Context) checkOn(ctx context.Context, sv C.Z3_solver, as []C.Z3_ast) (r, code C.int, hit, ok bool) {
	type result struct {
		r, code C.int
		hit     bool
	}
	as = append([]C.Z3_ast(nil), as...) // the check's own copy
	out := make(chan result, 1)
	finished, done := make(chan struct{}), make(chan struct{})
	c, hook := x.c, checkHook
	x.begin()
	go func() {
		var p *C.Z3_ast
		if len(as) > 0 {
			p = &as[0]
		}
		if hook != nil {
			hook()
		}
		var code C.int
		r := C.vg_check(c, sv, C.uint(len(as)), p, &code)
		hit := x.endCheck()
		close(finished)
		out <- result{r, code, hit}
	}()
	stop := context.AfterFunc(ctx, func() {
		x.interruptUntil(finished)
		close(done)
	})
	answer := func(o result) (C.int, C.int, bool, bool) {
		if !stop() {
			<-done // the interrupt must not land in a later check
		}
		return o.r, o.code, o.hit, true
	}
	select {
	case o := <-out:
		return answer(o)
	case <-ctx.Done():
	}
	t := time.NewTimer(abandonAfter)
	defer t.Stop()
	select {
	case o := <-out:
		return answer(o)
	case <-t.C:
	}
	x.mu.Lock()
	select {
	case o := <-out: // it ended meanwhile
		x.mu.Unlock()
		return answer(o)
	default:
	}
	x.orphan, x.gone = true, true
	x.err = fmt.Errorf("%w: %w (a check it interrupted still runs in Z3: the context is given up)", ErrStopped, ctx.Err())
	x.mu.Unlock()
	abandoned.Add(1)
	return 0, 0, false, false
}

// abandoned counts the checks checkOn gave up (for the tests).
var abandoned atomic.Int64

// endCheck is settle for checkOn's goroutine: for a check given up, it
// deletes the context if its owner has closed it meanwhile.
func (x *Context) endCheck() bool {
	x.mu.Lock()
	defer x.mu.Unlock()
	if x.orphan {
		x.running, x.interrupted, x.orphan = false, false, false
		if x.closeLater {
			x.deleteLocked()
		}
		return true
	}
	return x.settleLocked()
}

// interruptUntil interrupts x's running call, again and again (after 1
// ms, 2 ms, ... up to every 50 ms) until finished is closed. Z3 4.8.12
// loses an interrupt that arrives just before a check or as it starts:
// the check then ran to its own timeout, or for ever without one, and
// with a timeout set the interrupt could even disable it (the check's
// cancel handler was marked as fired while its cancellation was reset),
// so that a search cancelled by the portfolio, a --timeout or Ctrl-C went
// on in that check for ever (TestS29sCancelRace). Repeated interrupts
// reach the check once it runs; one that arrives after it ended has no
// effect (TestInterrupt).
func (x *Context) interruptUntil(finished <-chan struct{}) {
	wait := time.Millisecond
	for {
		x.Interrupt()
		select {
		case <-finished:
			return
		case <-time.After(wait):
		}
		wait = min(2*wait, 50*time.Millisecond)
	}
}

// ReasonUnknown explains the last Unknown ("timeout", "canceled", ...).
func (s *Solver) ReasonUnknown() string {
	if s.reason != "" {
		return s.reason
	}
	if s.usable() != nil {
		return ""
	}
	r := C.Z3_solver_get_reason_unknown(s.x.c, s.s)
	if C.Z3_get_error_code(s.x.c) != C.Z3_OK || r == nil {
		return ""
	}
	return C.GoString(r)
}

// Core returns the indices, into the assumptions of the last check, of an
// unsat core: a subset of the assumptions that is already unsatisfiable
// with the assertions. It is valid only after Check returned Unsat.
func (s *Solver) Core() ([]int, error) {
	if err := s.usable(); err != nil {
		return nil, err
	}
	if s.res != Unsat {
		return nil, errors.New("smt: unsat core requested after a check that was not unsat")
	}
	if cap(s.core) < len(s.last) {
		s.core = make([]C.Z3_ast, len(s.last))
	}
	s.core = s.core[:len(s.last)]
	var p *C.Z3_ast
	if len(s.core) > 0 {
		p = &s.core[0]
	}
	n := C.vg_core(s.x.c, s.s, p, C.uint(len(s.core)))
	if n < 0 {
		return nil, s.x.z3err("unsat core")
	}
	idx := make([]int, 0, n)
	for _, a := range s.core[:n] {
		for i, t := range s.last {
			if t.a == a {
				idx = append(idx, i)
				break
			}
		}
	}
	return idx, nil
}

// Eval writes the values of ts in the model of the last (Sat) check into
// out (len(out) >= len(ts)): integers as they are, Booleans as 0/1. Terms
// the model leaves open get a default (model completion).
func (s *Solver) Eval(ts []Term, out []int64) error {
	if err := s.usable(); err != nil {
		return err
	}
	if s.res != Sat {
		return errors.New("smt: model requested after a check that was not sat")
	}
	if len(out) < len(ts) {
		return errors.New("smt: eval: output slice too short")
	}
	if len(ts) == 0 {
		return nil
	}
	x := s.x
	x.buf = x.buf[:0]
	for _, t := range ts {
		if t.a == nil {
			return errors.New("smt: eval: invalid (zero) term")
		}
		x.buf = append(x.buf, t.a)
	}
	rc := C.vg_eval(x.c, s.s, C.uint(len(ts)), &x.buf[0], (*C.int64_t)(unsafe.Pointer(&out[0])))
	switch {
	case rc == -1:
		return errors.New("smt: eval: a value is not a 64-bit integer")
	case rc != 0:
		return s.code(rc, "eval")
	}
	return nil
}

// String returns the solver's assertions in SMT-LIB syntax.
func (s *Solver) String() string {
	if s.usable() != nil {
		return "<closed solver>"
	}
	return C.GoString(C.Z3_solver_to_string(s.x.c, s.s))
}

// nop makes the cheapest cgo call there is (reading the error code), for
// BenchmarkCgoCall.
func (x *Context) nop() int { return int(C.vg_err(x.c)) }

// ParseSMTLIB parses SMT-LIB2 text (declarations, definitions and
// assertions; no check-sat) with Z3's own parser and returns the
// assertions in order, as terms of x to assert in a Solver. Like
// EvalSMTLIB it shares nothing with the Encoder, but its command
// interpreter is a light one made for the call: where EvalSMTLIB's first
// call costs some 4 ms (the full front end, with every tactic
// registered), a parse of a certificate's definitions costs 0.2 ms. The
// declared constants are terms of x by name (IntConst, BoolConst give
// them back). Text Z3 rejects is an error that quotes Z3's message.
func (x *Context) ParseSMTLIB(text string) ([]Term, error) {
	if !x.ok() {
		if x.err != nil {
			return nil, x.err
		}
		return nil, errors.New("smt: ParseSMTLIB on a closed context")
	}
	ct := C.CString(text)
	v := C.vg_parse(x.c, ct)
	C.free(unsafe.Pointer(ct))
	return x.parsed(v)
}

// ParseSMTLIBContext is ParseSMTLIB that returns ctx's error as soon as
// ctx ends. Z3's parser does not heed Z3_interrupt, and some texts take it
// many seconds (define-fun bodies with many parameters), so the parse
// runs on a goroutine of its own; when ctx ends first, the context is
// given up: every later call on it fails with that error, and Close
// deletes it once the parse has ended.
func (x *Context) ParseSMTLIBContext(ctx context.Context, text string) ([]Term, error) {
	if ctx.Done() == nil {
		return x.ParseSMTLIB(text)
	}
	if !x.ok() {
		if x.err != nil {
			return nil, x.err
		}
		return nil, errors.New("smt: ParseSMTLIB on a closed context")
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	res := make(chan C.Z3_ast_vector, 1)
	c := x.c
	go func() {
		ct := C.CString(text)
		v := C.vg_parse(c, ct)
		C.free(unsafe.Pointer(ct))
		res <- v
	}()
	select {
	case v := <-res:
		return x.parsed(v)
	case <-ctx.Done():
	}
	x.mu.Lock()
	select {
	case v := <-res: // it ended meanwhile
		x.mu.Unlock()
		return x.parsed(v)
	default:
	}
	x.err = fmt.Errorf("smt: parsing the SMT-LIB2 text stopped: %w", ctx.Err())
	x.parsing = true
	x.mu.Unlock()
	go func() {
		v := <-res
		x.mu.Lock()
		defer x.mu.Unlock()
		if v != nil {
			C.Z3_ast_vector_dec_ref(c, v)
		}
		C.Z3_set_error(c, C.Z3_OK)
		x.parsing = false
		if x.closeLater {
			x.closeLocked()
		}
	}()
	return nil, x.err
}

// parsed turns the vector vg_parse returned into terms (nil: Z3's error).
func (x *Context) parsed(v C.Z3_ast_vector) ([]Term, error) {
	if v == nil {
		msg := "rejected"
		if code := C.Z3_get_error_code(x.c); code != C.Z3_OK {
			msg = strings.TrimSpace(C.GoString(C.Z3_get_error_msg(x.c, code)))
		}
		C.Z3_set_error(x.c, C.Z3_OK) // not a sticky error of the context
		return nil, fmt.Errorf("smt: Z3 rejects the SMT-LIB2 text: %s", msg)
	}
	defer C.Z3_ast_vector_dec_ref(x.c, v)
	n := int(C.Z3_ast_vector_size(x.c, v))
	out := make([]Term, n)
	for i := range out {
		out[i] = x.keep(C.vg_vector_get(x.c, v, C.uint(i)), "parsing SMT-LIB2 text")
	}
	if x.err != nil {
		return nil, x.err
	}
	return out, nil
}

// EvalSMTLIB runs SMT-LIB2 commands, given as text, in Z3's own SMT-LIB2
// front end (Z3_eval_smtlib2_string) and returns what they printed, such
// as "sat" or "unsat" for each check-sat. It shares nothing with the
// Encoder: a checker that must not trust vigil's encoding writes its
// question as text and solves it here. The front end keeps its state
// (definitions, declarations, scopes) across calls on one Context, apart
// from the terms and solvers of the Go API. A command Z3 rejects is an
// error that quotes Z3's first (error ...) line; cancelling ctx
// interrupts a running check and returns ctx's cause as the error.
//
// Beware: the front end's check-sat installs Z3's own SIGINT handler and
// afterwards restores Go's without SA_ONSTACK, so a later Ctrl-C is fatal
// to the Go runtime. vigil's commands do not call it (the certificate
// checker parses with ParseSMTLIB and checks with a Solver, whose checks
// run with ctrl_c=false).
func (x *Context) EvalSMTLIB(ctx context.Context, text string) (string, error) {
	if x.c == nil || x.gone {
		return "", errors.New("smt: EvalSMTLIB on a closed context")
	}
	if err := ctx.Err(); err != nil {
		return "", fmt.Errorf("smt: %w", context.Cause(ctx))
	}
	finished, done := make(chan struct{}), make(chan struct{})
	stop := context.AfterFunc(ctx, func() {
		x.interruptUntil(finished)
		close(done)
	})
	ct := C.CString(text)
	var code C.int
	x.begin()
	r := C.vg_eval_smtlib(x.c, ct, &code)
	x.settle()
	C.free(unsafe.Pointer(ct))
	close(finished)
	if !stop() {
		<-done // the interrupt must not land in a later check
	}
	out := ""
	if r != nil {
		out = C.GoString(r)
	}
	if ctx.Err() != nil {
		return out, fmt.Errorf("smt: %w", context.Cause(ctx))
	}
	if i := strings.Index(out, "(error"); i >= 0 {
		code = C.Z3_PARSER_ERROR
		out = out[i:]
	}
	if code != C.Z3_OK {
		msg := strings.TrimSpace(out)
		if i := strings.IndexByte(msg, '\n'); i >= 0 {
			msg = msg[:i]
		}
		if m := C.Z3_get_error_msg(x.c, C.Z3_error_code(code)); m != nil && msg == "" {
			msg = C.GoString(m)
		}
		return out, fmt.Errorf("smt: Z3 rejects the SMT-LIB2 text: %s", msg)
	}
	return out, nil
}
