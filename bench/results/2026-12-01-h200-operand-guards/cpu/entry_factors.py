# Per-entry correction factors of the selection's prediction, fitted on a sweep
# (tests/data/sweep_h200_workload.csv.gz, gunzipped to /tmp/sweep.csv): how far they move
# the choice toward the oracle, in sample and leave-one-out. python3 entry_factors.py
import csv, math, collections, sys
rows=[r for r in csv.reader(open('/tmp/sweep.csv')) if r and r[0]=='choice' and r[1]!='problem']
probs=collections.defaultdict(list)
for r in rows:
    p=int(r[1]); probs[p].append(dict(set=r[2],cub=float(r[12]),e=int(r[16]),k=r[17],s=int(r[18]),pred=float(r[19]),ms=float(r[20])))
rand=[p for p in probs if probs[p][0]['set']=='random']
def gm(x): return math.exp(sum(map(math.log,x))/len(x))
def score(pick):
    return gm([probs[p][0]['cub']/pick(probs[p])['ms'] for p in rand])
print('argmin pred', score(lambda cs: min(cs,key=lambda c:c['pred'])))
print('oracle', score(lambda cs: min(cs,key=lambda c:c['ms'])))
for key in [lambda c:(c['e'],), lambda c:(c['e'],c['k']), lambda c:(c['e'],c['k'],c['s']>1)]:
    ratios=collections.defaultdict(list)
    for p in rand:
        for c in probs[p]: ratios[key(c)].append(c['ms']/c['pred'])
    f={k:gm(v) for k,v in ratios.items()}
    print('fit', score(lambda cs: min(cs,key=lambda c:c['pred']*f[key(c)])))
    if len(next(iter(f)))==1: print(sorted((k,round(v,2)) for k,v in f.items()))
# leave-one-out
key=lambda c:(c['e'],c['k'])
tot=[]
for q in rand:
    ratios=collections.defaultdict(list)
    for p in rand:
        if p==q: continue
        for c in probs[p]: ratios[key(c)].append(c['ms']/c['pred'])
    f={k:gm(v) for k,v in ratios.items()}
    c=min(probs[q],key=lambda c:c['pred']*f.get(key(c),1)); tot.append(probs[q][0]['cub']/c['ms'])
print('loo e,k', gm(tot))
print()
for p in sorted(rand):
    cs=probs[p]; o=min(cs,key=lambda c:c['ms'])
    r=[x for x in rows if int(x[1])==p][0]
    print(p, r[3], r[4], r[5:12], 'cub %.4f'%cs[0]['cub'], 'oracle %s/%s/%d %.1f%%'%(o['e'],o['k'],o['s'],100*cs[0]['cub']/o['ms']))
