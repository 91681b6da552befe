-- The 20,000 phones of bench/national_final.py, for wrk (Debian's, scripts/ensure-wrk; LuaJIT).
--
--   wrk -t THREADS -c CONNECTIONS -d SECONDS -s bench/national_final_phones.lua URL -- \
--       PATH RATE POLL_SECONDS ETAG START THREADS
--
-- Open loop: the requests of all the phones are due on a fixed schedule, RATE a second in all (each of wrk's
-- threads takes every THREADS-th slot), from START (CLOCK_MONOTONIC seconds, the clock of Python's
-- time.monotonic()). A connection that is free takes the next slot of its thread and waits for it (delay());
-- when none is free at a slot's time (the answers are slower than CONNECTIONS / RATE seconds), the request goes
-- out late, and how late is counted: so a server that cannot keep up shows as lateness and a lower achieved rate,
-- not as a quietly lower offered rate.
--
-- The ETag a phone holds: the one it got at its previous poll, POLL_SECONDS ago. Every phone follows the same
-- page, so that is the newest ETag this thread had seen by then (ETAG, the page as the phones opened it, before
-- any answer). Each request sends it as If-None-Match, with the headers a phone's htmx sends.
--
-- done() prints one line "KLAWERJAS-PHONES {json}": requests, duration (us), errors (wrk's: connect, read,
-- write, timeout; status >= 400), latency percentiles (us), the status and X-Cache counts, and the lateness.

local ffi = require("ffi")
ffi.cdef [[
typedef struct { long tv_sec; long tv_nsec; } klawerjas_timespec;
int clock_gettime(int clock_id, klawerjas_timespec *tp);
]]
local clock = ffi.new("klawerjas_timespec")
local MONOTONIC = 1

local function now()
    ffi.C.clock_gettime(MONOTONIC, clock)
    return tonumber(clock.tv_sec) + tonumber(clock.tv_nsec) * 1e-9
end

local threads = {}

function setup(thread)
    thread:set("index", #threads)
    table.insert(threads, thread)
end

-- per thread
local path, rate, poll, start, phase, thread_count
local slot = 0
local seen = {}          -- {time, etag, version} when this thread first saw a newer version
local headers = {}
statuses = {}
cache = {}
late_n, late_sum, late_max, late_over_half = 0, 0, 0, 0

local function version_of(etag)
    local v = etag and string.match(etag, '"%d+%-(%d+)%-')
    return v and tonumber(v) or -1
end

function init(args)
    path = args[1]
    rate = tonumber(args[2])
    poll = tonumber(args[3])
    seen = {{-math.huge, args[4], version_of(args[4])}}
    start = tonumber(args[5])
    thread_count = tonumber(args[6])
    phase = index or 0
    headers = {
        ["Host"] = "127.0.0.1",
        ["HX-Request"] = "true",
        ["Accept"] = "*/*",
        ["Accept-Language"] = "en-ZA,en;q=0.9",
        ["Accept-Encoding"] = "gzip, deflate, br",
        ["User-Agent"] = "Mozilla/5.0 (Linux; Android 14) klawerjas-national-final",
    }
end

function delay()
    -- slot k of thread i (of n) is due at start + (k * n + i) / rate
    local due = start + (slot * thread_count + phase) / rate
    slot = slot + 1
    local wait = due - now()
    if wait < 0 then
        late_n = late_n + 1
        late_sum = late_sum - wait
        if -wait > late_max then late_max = -wait end
        if -wait > 0.5 then late_over_half = late_over_half + 1 end
        return 0
    end
    return wait * 1000
end

function request()
    local before = now() - poll
    local held = seen[1][2]
    for i = #seen, 1, -1 do
        if seen[i][1] <= before then
            held = seen[i][2]
            break
        end
    end
    headers["If-None-Match"] = held
    return wrk.format("GET", path, headers)
end

function response(status, response_headers, body)
    statuses[status] = (statuses[status] or 0) + 1
    local x = response_headers["X-Cache"] or "-"
    cache[x] = (cache[x] or 0) + 1
    if status == 200 then
        local tag = response_headers["ETag"]
        local version = version_of(tag)
        if version > seen[#seen][3] then
            seen[#seen + 1] = {now(), tag, version}
        end
    end
end

local function json_counts(t)
    local parts = {}
    for k, v in pairs(t) do
        parts[#parts + 1] = string.format('"%s": %d', tostring(k), v)
    end
    return "{" .. table.concat(parts, ", ") .. "}"
end

function done(summary, latency, requests)
    local all_statuses, all_cache = {}, {}
    local n, sum, max, over = 0, 0, 0, 0
    for _, thread in ipairs(threads) do
        for k, v in pairs(thread:get("statuses")) do all_statuses[k] = (all_statuses[k] or 0) + v end
        for k, v in pairs(thread:get("cache")) do all_cache[k] = (all_cache[k] or 0) + v end
        n = n + thread:get("late_n")
        sum = sum + thread:get("late_sum")
        over = over + thread:get("late_over_half")
        local m = thread:get("late_max")
        if m > max then max = m end
    end
    local e = summary.errors
    io.write(string.format(
        'KLAWERJAS-PHONES {"requests": %d, "duration_us": %d, "errors": {"connect": %d, "read": %d, ' ..
        '"write": %d, "timeout": %d, "status": %d}, "latency_us": {"p50": %d, "p90": %d, "p99": %d, ' ..
        '"max": %d}, "statuses": %s, "cache": %s, "late": {"n": %d, "sum": %.6f, "max": %.6f, "over_half": %d}}\n',
        summary.requests, summary.duration, e.connect, e.read, e.write, e.timeout, e.status,
        latency:percentile(50), latency:percentile(90), latency:percentile(99), latency.max,
        json_counts(all_statuses), json_counts(all_cache), n, sum, max, over))
end
