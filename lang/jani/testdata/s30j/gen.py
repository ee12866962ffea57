# Session 30 (h-rev2): random JANI models with PlaJA non-deterministic
# assignments (bounds inside, across or beyond the ranges, or empty), for run.sh.
import json,random,sys
def gen(seed):
    r=random.Random(seed)
    nv=r.randint(1,3)
    vs=[]
    for i in range(nv):
        lo=r.randint(-2,1); hi=lo+r.randint(1,4)
        vs.append({"name":f"x{i}","type":{"kind":"bounded","base":"int","lower-bound":lo,"upper-bound":hi},"initial-value":r.randint(lo,hi)})
    names=[v["name"] for v in vs]
    def term():
        c=r.random()
        if c<0.4: return r.randint(-3,6)
        if c<0.7: return r.choice(names)
        return {"op":r.choice(["+","-"]),"left":r.choice(names),"right":r.randint(0,2)}
    def cond():
        return {"op":r.choice(["<","≤","=","≠",">","≥"]),"left":r.choice(names),"right":r.randint(-2,5)}
    edges=[]
    acts=[f"a{i}" for i in range(r.randint(1,3))]
    for k in range(r.randint(1,4)):
        dests=[]
        for d in range(r.randint(1,2)):
            asg=[]
            tgt=r.sample(names,r.randint(0,len(names)))
            for t in tgt:
                if r.random()<0.6:
                    asg.append({"ref":t,"lower-bound":term(),"upper-bound":term()})
                else:
                    asg.append({"ref":t,"value":{"op":"max","left":{"op":"min","left":term(),"right":[v for v in vs if v["name"]==t][0]["type"]["upper-bound"]},"right":[v for v in vs if v["name"]==t][0]["type"]["lower-bound"]}})
            dests.append({"location":"l","assignments":asg})
        e={"location":"l","action":r.choice(acts),"destinations":dests}
        if r.random()<0.7: e["guard"]={"exp":cond()}
        edges.append(e)
    m={"jani-version":1,"name":"g","type":"lts","variables":vs,"actions":[{"name":a} for a in acts],
       "properties":[{"name":"p","expression":{"op":"filter","fun":"max","states":{"op":"initial"},"values":{"op":"Pmax","exp":{"op":"F","exp":cond()}}}}],
       "automata":[{"name":"A","locations":[{"name":"l"}],"initial-locations":["l"],"edges":edges}],
       "system":{"elements":[{"automaton":"A"}]}}
    return m
for s in range(int(sys.argv[1]),int(sys.argv[2])):
    json.dump(gen(s),open(f"g{s}.jani","w"))
