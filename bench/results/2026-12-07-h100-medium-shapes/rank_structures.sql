WITH p AS (SELECT bm,bn,wm,wn,wniter,tm,tn, m,n,k, max(100*cublas_ms/time_ms) pct FROM results WHERE status='ok' AND bk=16 AND stages=2 AND prefetch=0 AND stream_k=0 AND operands='' GROUP BY 1,2,3,4,5,6,7,8,9,10),
s AS (SELECT bm,bn,wm,wn,wniter,tm,tn, round(sum(pct)/12.0,1) score, count(*) nshapes FROM p GROUP BY 1,2,3,4,5,6,7)
SELECT rank() over (order by score desc) r, bm||'x'||bn st, wm||'x'||wn w, wniter, tm||'x'||tn t, score, nshapes FROM s ORDER BY score DESC;
