-- reschedule_deadline.lua: move a game's entry in the deadline index, unless
-- it changed since the sweeper read it.
--
-- KEYS[1]  the deadline index {clocks}:deadlines (sorted set: game id -> ms)
-- ARGV[1]  the game id
-- ARGV[2]  the time the sweeper read for it (ms)
-- ARGV[3]  the game's next deadline (ms), or "" to remove the entry
--
-- Returns 1 when changed, 0 when the entry moved meanwhile (a commit noted an
-- earlier time, which stays).
local score = redis.call('ZSCORE', KEYS[1], ARGV[1])
if not score or tonumber(score) ~= tonumber(ARGV[2]) then
  return 0
end
if ARGV[3] == '' then
  redis.call('ZREM', KEYS[1], ARGV[1])
else
  redis.call('ZADD', KEYS[1], ARGV[3], ARGV[1])
end
return 1
