-- PUT node n<tid>_<i> with 12-24 words of the vocabulary (seeding for recall.lua).
dofile(os.getenv("LOCI_WRK_DIR") .. "/common.lua")
dofile(os.getenv("LOCI_WRK_DIR") .. "/words.lua")
expected = 200
function request()
  local body = '{"type":"note","content":"' .. words(math.random(12, 24)) .. '"}'
  return wrk.format("PUT", "/v1/ns/bench/nodes/n" .. tid .. "_" .. next_n(), auth(), body)
end
