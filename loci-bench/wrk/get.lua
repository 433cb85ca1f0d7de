-- GET one random trace, its uid from the file in LOCI_UIDS (one per line).
dofile(os.getenv("LOCI_WRK_DIR") .. "/common.lua")
expected = 200
local uids = {}
function on_init(args)
  for line in io.lines(os.getenv("LOCI_UIDS")) do table.insert(uids, line) end
end
function request()
  return wrk.format("GET", "/v1/ns/bench/traces/" .. uids[math.random(#uids)], auth())
end
