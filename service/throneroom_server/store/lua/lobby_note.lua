-- lobby_note.lua: put one game in the lobby index under a status, or take it out.
--
-- Every key is in the {lobby} slot (store/lobby.py has the scheme); the
-- game's own keys are never touched here (another slot on Redis Cluster).
-- KEYS[1..4]  {lobby}:all, {lobby}:open, {lobby}:started, {lobby}:finished
-- KEYS[5..8]  the same four of the game's type: {lobby}:type:<type>:all ...
-- ARGV[1]     the game's member (score 0: the sets are ordered by member)
-- ARGV[2]     "1" open, "2" started, "3" finished, or "0": the game is gone
--
-- A status only moves forward (open -> started -> finished): a late note of
-- an earlier status never undoes a later one. Returns the status now indexed.
local m = ARGV[1]
local target = tonumber(ARGV[2])
if target == 0 then
  for i = 1, 8 do
    redis.call('ZREM', KEYS[i], m)
  end
  return 0
end
for r = 3, target + 1, -1 do
  if redis.call('ZSCORE', KEYS[1 + r], m) then
    target = r
    break
  end
end
redis.call('ZADD', KEYS[1], 0, m)
redis.call('ZADD', KEYS[5], 0, m)
for r = 1, 3 do
  if r == target then
    redis.call('ZADD', KEYS[1 + r], 0, m)
    redis.call('ZADD', KEYS[5 + r], 0, m)
  else
    redis.call('ZREM', KEYS[1 + r], m)
    redis.call('ZREM', KEYS[5 + r], m)
  end
end
return target
