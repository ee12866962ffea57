# Session 30 (h-rev2): the reference for run.sh: each model of res.txt explored
# from the JSON directly (x := any value of lb..ub; a value outside the
# range, or an empty lb..ub, is a range error), compared with bfs.
import json,sys,itertools
def ev(e,s):
    if isinstance(e,int): return e
    if isinstance(e,str): return s[e]
    op=e["op"]; l=ev(e["left"],s); r=ev(e["right"],s)
    return {"+":l+r,"-":l-r,"min":min(l,r),"max":max(l,r)}[op]
def cond(c,s):
    l=ev(c["left"],s); r=ev(c["right"],s)
    return {"<":l<r,"≤":l<=r,"=":l==r,"≠":l!=r,">":l>r,"≥":l>=r}[c["op"]]
def run(f):
    m=json.load(open(f))
    vs={v["name"]:(v["type"]["lower-bound"],v["type"]["upper-bound"]) for v in m["variables"]}
    names=list(vs)
    init=tuple(v["initial-value"] for v in m["variables"])
    unsafe=m["properties"][0]["expression"]["values"]["exp"]["exp"]
    seen={init}; q=[init]; err=False; uns=False
    while q:
        st=q.pop()
        s=dict(zip(names,st))
        if cond(unsafe,s): uns=True; continue
        for e in m["automata"][0]["edges"]:
            if "guard" in e and not cond(e["guard"]["exp"],s): continue
            for d in e["destinations"]:
                opts=[]
                for a in d["assignments"]:
                    if "value" in a: vals=[ev(a["value"],s)]
                    else: vals=list(range(ev(a["lower-bound"],s),ev(a["upper-bound"],s)+1))
                    if not vals: err=True; vals=[]
                    opts.append((a["ref"],vals))
                if any(not v for _,v in opts): continue
                for combo in itertools.product(*[v for _,v in opts]):
                    ns=dict(s)
                    bad=False
                    for (n,_),v in zip(opts,combo):
                        ns[n]=v
                        if not (vs[n][0]<=v<=vs[n][1]): bad=True
                    if bad: err=True; continue
                    t=tuple(ns[n] for n in names)
                    if t not in seen: seen.add(t); q.append(t)
    return uns,err
for line in open("res.txt"):
    parts=line.split(); f=parts[0]; bfs=parts[1].split("=")[1]
    uns,err=run(f)
    if err and uns: ok = bfs in ("unsafe","range")
    elif err: ok = bfs=="range"
    elif uns: ok = bfs=="unsafe"
    else: ok = bfs=="safe"
    if not ok: print("MISMATCH",f,bfs,"ref unsafe",uns,"err",err)
print("checked")
