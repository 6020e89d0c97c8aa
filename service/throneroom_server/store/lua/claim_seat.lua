-- claim_seat.lua: claim one seat of a game atomically.
--
-- KEYS[1]  the game's hash {g:<id>}:game
-- KEYS[2]  the game's stream {g:<id>}:log (its time to live is renewed too)
-- ARGV[1]  the seat to claim, or -1 for the lowest free seat
-- ARGV[2]  the number of seats
-- ARGV[3]  the seat record (serialized StoredSeat)
-- ARGV[4]  time to live of the game's keys in ms (retention; "0" = none)
-- ARGV[5]  the clocks to store when this claim takes the last free seat
--          (serialized StoredClock), or "" (no time control)
--
-- Returns {status, seat}: {"OK", seat} | {"TAKEN", seat} | {"FULL", -1} | {"NOT_FOUND", -1};
-- a claim that took the last free seat returns {"OK", seat, lobby member}
-- (the game has started: the store moves it in the lobby index).
local seats = tonumber(ARGV[2])
local function claimed(seat)
  redis.call('HSET', KEYS[1], 'seat:' .. seat, ARGV[3])
  local full = true
  for other = 0, seats - 1 do
    if redis.call('HEXISTS', KEYS[1], 'seat:' .. other) == 0 then
      full = false
    end
  end
  if full and ARGV[5] ~= '' then
    redis.call('HSET', KEYS[1], 'clock', ARGV[5])
  end
  if ARGV[4] ~= '0' then
    redis.call('PEXPIRE', KEYS[1], ARGV[4])
    redis.call('PEXPIRE', KEYS[2], ARGV[4])
  end
  if full then
    return {'OK', seat, redis.call('HGET', KEYS[1], 'lobby') or ''}
  end
  return {'OK', seat}
end
if redis.call('EXISTS', KEYS[1]) == 0 then
  return {'NOT_FOUND', -1}
end
local wanted = tonumber(ARGV[1])
if wanted >= 0 then
  if redis.call('HEXISTS', KEYS[1], 'seat:' .. wanted) == 1 then
    return {'TAKEN', wanted}
  end
  return claimed(wanted)
end
for seat = 0, seats - 1 do
  if redis.call('HEXISTS', KEYS[1], 'seat:' .. seat) == 0 then
    return claimed(seat)
  end
end
return {'FULL', -1}
