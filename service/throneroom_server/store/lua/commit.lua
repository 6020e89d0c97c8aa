-- commit.lua: apply one move to a game atomically.
--
-- KEYS[1]  the game's hash   {g:<id>}:game   (fields: meta, state, version,
--                                             seat:<n>, idem:<key>)
-- KEYS[2]  the game's stream {g:<id>}:log    (one entry per version, ID "<version>-0")
-- ARGV[1]  expected current version (decimal)
-- ARGV[2]  the new state (serialized GameState)
-- ARGV[3]  the entry (serialized StoredEntry) to append
-- ARGV[4]  idempotency field ("idem:<key>"), or "" for none
-- ARGV[5]  time to live of both keys in ms after this move (retention: the
--          idle or the finished one; "0" = none)
-- ARGV[6]  the clocks after this move (serialized StoredClock), or "" for a
--          game without a time control
-- ARGV[7]  "1" when this move finished the game (kept in field "finished",
--          which the lobby reads), else ""
-- ARGV[8]  the game's notification channel ("{g:<id>}:v:<db>", notify.py): the
--          new version is published there once written; "" publishes nothing
--          (a Redis Cluster, whose replicas watch with XREAD)
--
-- Returns {status, version}:
--   {"OK", new_version}        committed
--   {"OK", new_version, member} committed, and the move finished the game:
--                              its lobby member (the store moves it in the index)
--   {"STALE", current_version} the version moved on; nothing written
--   {"DUPLICATE", version}     the idempotency key was used by `version`; nothing written
--   {"NOT_FOUND", 0}           no such game
-- Every read comes before the first write: when Redis is at maxmemory the
-- first write fails with OOM and nothing at all is written.
local current = redis.call('HGET', KEYS[1], 'version')
if not current then
  return {'NOT_FOUND', 0}
end
if ARGV[4] ~= '' then
  local seen = redis.call('HGET', KEYS[1], ARGV[4])
  if seen then
    return {'DUPLICATE', tonumber(seen)}
  end
end
if current ~= ARGV[1] then
  return {'STALE', tonumber(current)}
end
local new_version = tonumber(current) + 1
local fields = {'version', new_version, 'state', ARGV[2]}
if ARGV[4] ~= '' then
  table.insert(fields, ARGV[4])
  table.insert(fields, new_version)
end
if ARGV[6] ~= '' then
  table.insert(fields, 'clock')
  table.insert(fields, ARGV[6])
end
if ARGV[7] == '1' then
  table.insert(fields, 'finished')
  table.insert(fields, '1')
end
redis.call('HSET', KEYS[1], unpack(fields))
redis.call('XADD', KEYS[2], new_version .. '-0', 'e', ARGV[3])
if ARGV[5] ~= '0' then
  redis.call('PEXPIRE', KEYS[1], ARGV[5])
  redis.call('PEXPIRE', KEYS[2], ARGV[5])
end
if ARGV[8] ~= '' then
  redis.call('PUBLISH', ARGV[8], new_version)
end
if ARGV[7] == '1' then
  return {'OK', new_version, redis.call('HGET', KEYS[1], 'lobby') or ''}
end
return {'OK', new_version}
