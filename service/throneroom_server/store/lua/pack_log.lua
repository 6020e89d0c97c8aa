-- pack_log.lua: replace a finished game's compacted log (field "log", written
-- by the commit that finished it) by its packed form (field "logz",
-- store/redis_layout.py). Run by the store right after that commit.
--
-- KEYS[1]  the game's hash   {g:<id>}:game
-- ARGV[1]  the length of the field "log" that was packed (decimal)
-- ARGV[2]  the packed log
--
-- Returns 1 when replaced, 0 when the game or its log is gone or is not the
-- one packed (nothing written). HSET and HDEL keep the key's time to live.
local size = redis.call('HSTRLEN', KEYS[1], 'log')
if size == 0 or size ~= tonumber(ARGV[1]) then
  return 0
end
redis.call('HSET', KEYS[1], 'logz', ARGV[2])
redis.call('HDEL', KEYS[1], 'log')
return 1
