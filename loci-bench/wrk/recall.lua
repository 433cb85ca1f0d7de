-- POST a recall of 3-6 words of the vocabulary, k 10, in the mode named by LOCI_MODE.
dofile(os.getenv("LOCI_WRK_DIR") .. "/common.lua")
dofile(os.getenv("LOCI_WRK_DIR") .. "/words.lua")
expected = 200
local mode = os.getenv("LOCI_MODE") or "hybrid"
function request()
  local body = '{"query":"' .. words(math.random(3, 6)) .. '","mode":"' .. mode .. '","k":10}'
  return wrk.format("POST", "/v1/ns/bench/recall", auth(), body)
end
