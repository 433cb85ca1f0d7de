-- Shared by the wrk scripts of http-wrk.sh: a per-thread id and the bearer token.
local counter = 0
local threads = {}

function setup(thread)
  table.insert(threads, thread)
  thread:set("tid", #threads)
end

function auth()
  return { ["Authorization"] = "Bearer " .. os.getenv("LOCI_TOKEN"),
           ["Content-Type"] = "application/json" }
end

function next_n()
  counter = counter + 1
  return counter
end

function init(args)
  math.randomseed(tid * 7919)
  if on_init then on_init(args) end
end

-- Counts responses whose status is not the expected one, so the run can be rejected.
local bad = 0
function response(status, headers, body)
  if status ~= expected then
    bad = bad + 1
    if bad == 1 then io.stderr:write("unexpected status " .. status .. ": " .. body .. "\n") end
  end
end
