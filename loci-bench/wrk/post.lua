-- POST a small trace with one of 100 tags; acknowledged (201) only after fsync.
dofile(os.getenv("LOCI_WRK_DIR") .. "/common.lua")
expected = 201
function request()
  local n = next_n()
  local body = '{"content":{"note":"benchmark","i":' .. n .. '},"tags":["t' .. (n % 100) .. '"]}'
  return wrk.format("POST", "/v1/ns/bench/traces", auth(), body)
end
