-- Search by one random tag of 100, limit 10.
dofile(os.getenv("LOCI_WRK_DIR") .. "/common.lua")
expected = 200
function request()
  return wrk.format("GET", "/v1/ns/bench/traces?limit=10&tag=t" .. math.random(0, 99), auth())
end
