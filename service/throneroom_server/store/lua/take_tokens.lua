-- take_tokens.lua: a token bucket shared by every replica (rate limits, quotas).
--
-- KEYS[1]  the bucket's hash {rl:<scope>}:bucket (fields: tokens, ms)
-- ARGV[1]  capacity (tokens when full)
-- ARGV[2]  refill rate, tokens per second (> 0)
-- ARGV[3]  cost: tokens to take
--
-- Returns 0 when the tokens were taken, else the ms until enough tokens will
-- be there (nothing taken). Redis's own clock (TIME) is the only clock, so
-- replicas with skewed clocks share one bucket correctly; the key expires once
-- the bucket would be full again.
local now_parts = redis.call('TIME')
local now = tonumber(now_parts[1]) * 1000 + math.floor(tonumber(now_parts[2]) / 1000)
local capacity = tonumber(ARGV[1])
local per_ms = tonumber(ARGV[2]) / 1000
local cost = tonumber(ARGV[3])
local saved = redis.call('HMGET', KEYS[1], 'tokens', 'ms')
local tokens = tonumber(saved[1]) or capacity
local since = tonumber(saved[2]) or now
if now > since then
  tokens = math.min(capacity, tokens + (now - since) * per_ms)
end
local wait = 0
if tokens >= cost then
  tokens = tokens - cost
else
  wait = math.ceil((cost - tokens) / per_ms)
end
redis.call('HSET', KEYS[1], 'tokens', tostring(tokens), 'ms', now)
redis.call('PEXPIRE', KEYS[1], math.ceil((capacity - tokens) / per_ms) + 1000)
return wait
