-- claim_seat.lua: claim one seat of a game atomically.
--
-- KEYS[1]  the game's hash {g:<id>}:game
-- ARGV[1]  the seat to claim, or -1 for the lowest free seat
-- ARGV[2]  the number of seats
-- ARGV[3]  the seat record (serialized StoredSeat)
--
-- Returns {status, seat}: {"OK", seat} | {"TAKEN", seat} | {"FULL", -1} | {"NOT_FOUND", -1}
if redis.call('EXISTS', KEYS[1]) == 0 then
  return {'NOT_FOUND', -1}
end
local wanted = tonumber(ARGV[1])
if wanted >= 0 then
  if redis.call('HSETNX', KEYS[1], 'seat:' .. wanted, ARGV[3]) == 1 then
    return {'OK', wanted}
  end
  return {'TAKEN', wanted}
end
for seat = 0, tonumber(ARGV[2]) - 1 do
  if redis.call('HSETNX', KEYS[1], 'seat:' .. seat, ARGV[3]) == 1 then
    return {'OK', seat}
  end
end
return {'FULL', -1}
