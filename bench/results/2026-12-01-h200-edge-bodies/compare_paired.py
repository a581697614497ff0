import sys
def load(f):
    d={}
    for line in open(f):
        w=line.split()
        if len(w)>=19 and w[0].isdigit():
            d[int(w[0])]=w
    return d
b=load(sys.argv[1]); n=load(sys.argv[2])
import math
groups={}
for k in sorted(b):
    if k not in n: continue
    x=b[k]; y=n[k]
    r=float(x[11])/float(y[11])
    key=(x[2],x[3])
    groups.setdefault(key,[]).append(r)
    if len(sys.argv)<4 or k<=48:
        flag = '<<' if r<0.9 else ('>>' if r>1.1 else '')
        print("%2d %s %s %s %5s %5s %5s %5s %5s %5s %s base %.4f %-18s %2s new %.4f %-18s %2s  speedup %.2f %s"%(k,x[1],x[2],x[3],x[4],x[5],x[6],x[7],x[8],x[9],x[10],float(x[11]),x[17],x[18],float(y[11]),y[17],y[18],r,flag))
for key,l in sorted(groups.items()):
    print(key, len(l), "geomean speedup %.3f"%math.exp(sum(map(math.log,l))/len(l)))
