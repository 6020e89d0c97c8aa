-- commit.lua: apply one move to a game atomically.
--
-- KEYS[1]  the game's hash   {g:<id>}:game   (fields: meta, state, version,
--                                             seat:<n>, i<b>: idempotency records)
-- KEYS[2]  the game's stream {g:<id>}:log    (one entry per version, ID "<version>-0")
-- ARGV[1]  expected current version (decimal)
-- ARGV[2]  the new state (serialized GameState)
-- ARGV[3]  the entry (serialized StoredEntry, without its state) to append, as field "e"
-- ARGV[4]  the idempotency key's 8-byte digest, or "" for none. Its record
--          (the digest, then the version as 4 bytes big-endian) is appended to
--          field "i<b>", b = the digest's first byte mod 8 (store/redis.py)
-- ARGV[5]  time to live of both keys in ms after this move (retention: the
--          idle or the finished one; "0" = none)
-- ARGV[6]  the clocks after this move (serialized StoredClock), or "" for a
--          game without a time control
-- ARGV[7]  "1" when this move finished the game (kept in field "finished",
--          which the lobby reads), else ""
-- ARGV[8]  the game's notification channel ("{g:<id>}:v:<db>", notify.py): the
--          new version is published there once written; "" publishes nothing
--          (TLS and unix-socket URLs, whose readers block on XREAD)
-- ARGV[9]  a checkpoint's state (zlib of the serialized GameState), appended
--          as the entry's field "s"; "" for a version that keeps no state
-- ARGV[10] the key's field in an earlier release's layout ("idem:<key>",
--          holding a version), checked too; "" for none
-- ARGV[11] when this move finishes the game: how long (ms) the stream is kept
--          beside the game's compacted log (field "log": every row from
--          version 1 on, each as the length of "e", "e", the length of "s",
--          "s", the lengths 4 bytes big-endian), for the watchers of the last move;
--          the store packs that field right after (pack_log.lua: field "logz")
-- ARGV[12] "1": ARGV[8] is a shard channel (a Redis Cluster: SPUBLISH, heard
--          only on the primary of the game's slot); else "" (PUBLISH)
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
local records_field, records
if ARGV[4] ~= '' then
  if ARGV[10] ~= '' then
    local seen = redis.call('HGET', KEYS[1], ARGV[10])
    if seen then
      return {'DUPLICATE', tonumber(seen)}
    end
  end
  records_field = 'i' .. (string.byte(ARGV[4], 1) % 8)
  records = redis.call('HGET', KEYS[1], records_field) or ''
  local from = 1
  while true do
    local at = string.find(records, ARGV[4], from, true)
    if not at then
      break
    end
    if at % 12 == 1 then
      return {'DUPLICATE', struct.unpack('>I4', records, at + 8)}
    end
    from = at + 1
  end
end
if current ~= ARGV[1] then
  return {'STALE', tonumber(current)}
end
local new_version = tonumber(current) + 1
local fields = {'version', new_version, 'state', ARGV[2]}
if records_field then
  table.insert(fields, records_field)
  table.insert(fields, records .. ARGV[4] .. struct.pack('>I4', new_version))
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
if ARGV[9] ~= '' then
  redis.call('XADD', KEYS[2], new_version .. '-0', 'e', ARGV[3], 's', ARGV[9])
else
  redis.call('XADD', KEYS[2], new_version .. '-0', 'e', ARGV[3])
end
if ARGV[5] ~= '0' then
  redis.call('PEXPIRE', KEYS[1], ARGV[5])
  redis.call('PEXPIRE', KEYS[2], ARGV[5])
end
if ARGV[7] == '1' then
  local parts = {}
  for _, row in ipairs(redis.call('XRANGE', KEYS[2], '-', '+')) do
    local e, s = '', ''
    local f = row[2]
    for j = 1, #f, 2 do
      if f[j] == 'e' then
        e = f[j + 1]
      elseif f[j] == 's' then
        s = f[j + 1]
      end
    end
    parts[#parts + 1] = struct.pack('>I4', #e) .. e .. struct.pack('>I4', #s) .. s
  end
  redis.call('HSET', KEYS[1], 'log', table.concat(parts))
  redis.call('PEXPIRE', KEYS[2], ARGV[11])
end
if ARGV[8] ~= '' then
  if ARGV[12] == '1' then
    redis.call('SPUBLISH', ARGV[8], new_version)
  else
    redis.call('PUBLISH', ARGV[8], new_version)
  end
end
if ARGV[7] == '1' then
  return {'OK', new_version, redis.call('HGET', KEYS[1], 'lobby') or ''}
end
return {'OK', new_version}
