-- create_game.lua: store a new game at version 0 unless the id is taken.
--
-- KEYS[1]  the game's hash {g:<id>}:game
-- ARGV[1]  meta (serialized StoredGameMeta)
-- ARGV[2]  initial state (serialized GameState)
-- ARGV[3]  time to live of the game's keys in ms (retention; "0" = none)
-- ARGV[4]  the game's lobby member (store/lobby.py), kept in field "lobby" so
--          the scripts that change the game's lobby status can return it
--
-- Returns 1 when created, 0 when a game with this id exists.
-- Reads come before writes: under maxmemory the first write fails (OOM) and
-- nothing is written.
if redis.call('EXISTS', KEYS[1]) == 1 then
  return 0
end
redis.call('HSET', KEYS[1], 'meta', ARGV[1], 'state', ARGV[2], 'version', 0, 'lobby', ARGV[4])
if ARGV[3] ~= '0' then
  redis.call('PEXPIRE', KEYS[1], ARGV[3])
end
return 1
