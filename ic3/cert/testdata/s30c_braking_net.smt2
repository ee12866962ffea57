; vigil invariant certificate 1
; model: braking_net.spec
; property: stoppable
; policy: net
; model-sha256: 32ef5b6d3a52e2102c2de108788f74ca3ca406b644f968620c383859fe27e899
; policy-sha256: b7256ea923ffdfbdacb27c4b931f220df26bea7501fb7dba8586c3f01dc460ab
; boxes: 2
; fact: box=0 label=go sure=go,up,down,stop within=d>=1,1*d+-1*v>=0,1*d+-1*v<=0,v>=1,v<=99
; fact: box=0 label=up sure=go,up,down,stop within=d>=1,1*d+-1*v>=0,1*d+-1*v<=0,v>=1,v<=99
; fact: box=0 label=up sure=go,up,down,stop within=d>=1,1*d+-1*v>=0,1*d+-1*v<=1,v>=1,v<=99
; fact: box=1 label=up sure=stop within=d>=0,d<=0,v>=0,v<=0
; model braking_net, property stoppable, no policy: every applicable label may be taken
; start states: the variables' initial values
; a state is one Int per variable (a Boolean is 0 or 1 and holds when
; non-zero); the next state's copy of |x| is |x'|:
;   |d| 0..100 init 100
;   |v| 0..100 init 0
; Certificate of a learned policy: vigil.inv is an inductive invariant that
; contains the start states and no bad state, given the policy facts of the
; header (label a is never chosen in box i), which vigil cert check re-checks
; against the policy. Each check below must print unsat.

; every variable is within its range
(define-fun vigil.inrange ((|d| Int) (|v| Int)) Bool
  (and (<= 0 |d| 100) (<= 0 |v| 100)))

; the unsafe condition of property stoppable
(define-fun vigil.unsafe ((|d| Int) (|v| Int)) Bool
  (> |v| |d|))

; terminal states (unsafe or goal) have no successors
(define-fun vigil.terminal ((|d| Int) (|v| Int)) Bool
  (vigil.unsafe |d| |v|))

; start states
(define-fun vigil.init ((|d| Int) (|v| Int)) Bool
  (and (vigil.inrange |d| |v|) (= |d| 100) (= |v| 0)))

; one step: s and s' are in range, s is not terminal, a command is enabled in s
; whose label the policy chooses (any label without a policy), and s' is
; one of its outcomes
(define-fun vigil.trans ((|d| Int) (|v| Int) (|d'| Int) (|v'| Int)) Bool
  (and (vigil.inrange |d| |v|) (vigil.inrange |d'| |v'|) (not (vigil.terminal |d| |v|))
    (or
      ; action go, braking_net.spec:5:8
      (and (> |d| 0) (and (= |d'| (- |d| 1)) (= |v'| |v|)))
      ; action up, braking_net.spec:6:8
      (and (< |v| 100) (and (= |d'| |d|) (= |v'| (+ |v| 1))))
      ; action down, braking_net.spec:7:8
      (and (> |v| 0) (and (= |d'| |d|) (= |v'| (- |v| 1))))
      ; action stop, braking_net.spec:8:8
      (and (= |d'| |d|) (= |v'| |v|)))))

; the invariant: a union of regions (conjunctions of bounds and linear atoms), one per line
(define-fun vigil.inv ((|d| Int) (|v| Int)) Bool
(or
(and (>= |d| 1) (>= (+ |d| (* (- 1) |v|)) 0) (>= |v| 1) (<= |v| 99))
(and (>= (+ |d| (* (- 1) |v|)) 0) (<= |v| 0))
))

; the region of each policy fact of the header, in order
(define-fun vigil.fact.0 ((|d| Int) (|v| Int)) Bool
  (and (and (>= |d| 1) (>= (+ |d| (* (- 1) |v|)) 0) (>= |v| 1) (<= |v| 99)) (and (>= |d| 1) (>= (+ |d| (* (- 1) |v|)) 0) (<= (+ |d| (* (- 1) |v|)) 0) (>= |v| 1) (<= |v| 99))))
(define-fun vigil.fact.1 ((|d| Int) (|v| Int)) Bool
  (and (and (>= |d| 1) (>= (+ |d| (* (- 1) |v|)) 0) (>= |v| 1) (<= |v| 99)) (and (>= |d| 1) (>= (+ |d| (* (- 1) |v|)) 0) (<= (+ |d| (* (- 1) |v|)) 0) (>= |v| 1) (<= |v| 99))))
(define-fun vigil.fact.2 ((|d| Int) (|v| Int)) Bool
  (and (and (>= |d| 1) (>= (+ |d| (* (- 1) |v|)) 0) (>= |v| 1) (<= |v| 99)) (and (>= |d| 1) (>= (+ |d| (* (- 1) |v|)) 0) (<= (+ |d| (* (- 1) |v|)) 1) (>= |v| 1) (<= |v| 99))))
(define-fun vigil.fact.3 ((|d| Int) (|v| Int)) Bool
  (and (and (>= (+ |d| (* (- 1) |v|)) 0) (<= |v| 0)) (and (>= |d| 0) (<= |d| 0) (>= |v| 0) (<= |v| 0))))


; one step under label go
(define-fun vigil.step.0 ((|d| Int) (|v| Int) (|d'| Int) (|v'| Int)) Bool
  (and (vigil.inrange |d| |v|) (vigil.inrange |d'| |v'|) (not (vigil.terminal |d| |v|))
    (or
      ; action go, braking_net.spec:5:8
      (and (> |d| 0) (and (= |d'| (- |d| 1)) (= |v'| |v|))))))
; the part of the invariant where the policy may choose go
(define-fun vigil.inv.0 ((|d| Int) (|v| Int)) Bool
  (and (vigil.inv |d| |v|) (not (vigil.fact.0 |d| |v|))))


; one step under label up
(define-fun vigil.step.1 ((|d| Int) (|v| Int) (|d'| Int) (|v'| Int)) Bool
  (and (vigil.inrange |d| |v|) (vigil.inrange |d'| |v'|) (not (vigil.terminal |d| |v|))
    (or
      ; action up, braking_net.spec:6:8
      (and (< |v| 100) (and (= |d'| |d|) (= |v'| (+ |v| 1)))))))
; the part of the invariant where the policy may choose up
(define-fun vigil.inv.1 ((|d| Int) (|v| Int)) Bool
  (and (vigil.inv |d| |v|) (not (or (vigil.fact.1 |d| |v|) (vigil.fact.2 |d| |v|) (vigil.fact.3 |d| |v|)))))


; one step under label down
(define-fun vigil.step.2 ((|d| Int) (|v| Int) (|d'| Int) (|v'| Int)) Bool
  (and (vigil.inrange |d| |v|) (vigil.inrange |d'| |v'|) (not (vigil.terminal |d| |v|))
    (or
      ; action down, braking_net.spec:7:8
      (and (> |v| 0) (and (= |d'| |d|) (= |v'| (- |v| 1)))))))
; the part of the invariant where the policy may choose down
(define-fun vigil.inv.2 ((|d| Int) (|v| Int)) Bool
  (vigil.inv |d| |v|))


; one step under label stop
(define-fun vigil.step.3 ((|d| Int) (|v| Int) (|d'| Int) (|v'| Int)) Bool
  (and (vigil.inrange |d| |v|) (vigil.inrange |d'| |v'|) (not (vigil.terminal |d| |v|))
    (or
      ; action stop, braking_net.spec:8:8
      (and (= |d'| |d|) (= |v'| |v|)))))
; the part of the invariant where the policy may choose stop
(define-fun vigil.inv.3 ((|d| Int) (|v| Int)) Bool
  (vigil.inv |d| |v|))

; an enabled outcome of label go would leave a variable's range (a range
; error where the policy chooses go)
(define-fun vigil.rangeerr.0 ((|d| Int) (|v| Int)) Bool
  (and (not (vigil.terminal |d| |v|))
    (or
      ; action go, braking_net.spec:5:8
      (and (> |d| 0) (not (<= 0 (- |d| 1) 100))))))

; an enabled outcome of label up would leave a variable's range (a range
; error where the policy chooses up)
(define-fun vigil.rangeerr.1 ((|d| Int) (|v| Int)) Bool
  (and (not (vigil.terminal |d| |v|))
    (or
      ; action up, braking_net.spec:6:8
      (and (< |v| 100) (not (<= 0 (+ |v| 1) 100))))))

; an enabled outcome of label down would leave a variable's range (a range
; error where the policy chooses down)
(define-fun vigil.rangeerr.2 ((|d| Int) (|v| Int)) Bool
  (and (not (vigil.terminal |d| |v|))
    (or
      ; action down, braking_net.spec:7:8
      (and (> |v| 0) (not (<= 0 (- |v| 1) 100))))))

(declare-const |d| Int)
(declare-const |v| Int)
(declare-const |d'| Int)
(declare-const |v'| Int)
(echo "init")
(push 1)
(assert (and (vigil.init |d| |v|) (not (vigil.inv |d| |v|))))
(check-sat)
(pop 1)
(echo "consecution 0")
(push 1)
(assert (and (vigil.inv.0 |d| |v|) (vigil.step.0 |d| |v| |d'| |v'|) (not (vigil.inv |d'| |v'|))))
(check-sat)
(pop 1)
(echo "consecution 1")
(push 1)
(assert (and (vigil.inv.1 |d| |v|) (vigil.step.1 |d| |v| |d'| |v'|) (not (vigil.inv |d'| |v'|))))
(check-sat)
(pop 1)
(echo "consecution 2")
(push 1)
(assert (and (vigil.inv.2 |d| |v|) (vigil.step.2 |d| |v| |d'| |v'|) (not (vigil.inv |d'| |v'|))))
(check-sat)
(pop 1)
(echo "consecution 3")
(push 1)
(assert (and (vigil.inv.3 |d| |v|) (vigil.step.3 |d| |v| |d'| |v'|) (not (vigil.inv |d'| |v'|))))
(check-sat)
(pop 1)
(echo "rangeerr 0")
(push 1)
(assert (and (vigil.inv.0 |d| |v|) (vigil.inrange |d| |v|) (vigil.rangeerr.0 |d| |v|)))
(check-sat)
(pop 1)
(echo "rangeerr 1")
(push 1)
(assert (and (vigil.inv.1 |d| |v|) (vigil.inrange |d| |v|) (vigil.rangeerr.1 |d| |v|)))
(check-sat)
(pop 1)
(echo "rangeerr 2")
(push 1)
(assert (and (vigil.inv.2 |d| |v|) (vigil.inrange |d| |v|) (vigil.rangeerr.2 |d| |v|)))
(check-sat)
(pop 1)
(echo "safety")
(push 1)
(assert (and (vigil.inv |d| |v|) (vigil.inrange |d| |v|) (vigil.unsafe |d| |v|)))
(check-sat)
(pop 1)
