/*
 * Lua run atomically by Redis for the cluster presence store (presence-redis.ts). Keys, under the prefix P:
 *   P nodes             set of node ids that registered (what the reapers look at)
 *   P alive:<node>      a node's heartbeat, expiring after the presence TTL
 *   P u:<app>           hash user -> connections on every node
 *   P nu:<node>         hash "<app>\n<user>" -> connections on that node (what a reap takes back)
 *   P w:<app>\n<cid>    hash watcher -> watching sockets on every node (anonymous watchers start with \1)
 *   P nw:<node>         hash "<app>\n<cid>\n<watcher>" -> watching sockets on that node
 */

/**
 * KEYS: cluster hash, node hash. ARGV: cluster field, node field, delta. Returns {before, after} of the cluster
 * count, or {-1, -1} when the node gives back what it no longer holds (a reaper already took it back).
 */
export const DELTA_SCRIPT = `
local n = redis.call('HINCRBY', KEYS[2], ARGV[2], ARGV[3])
if n <= 0 then redis.call('HDEL', KEYS[2], ARGV[2]) end
if n < 0 then return {-1, -1} end
local after = redis.call('HINCRBY', KEYS[1], ARGV[1], ARGV[3])
if after <= 0 then redis.call('HDEL', KEYS[1], ARGV[1]) end
return {after - tonumber(ARGV[3]), after}
`;

/**
 * ARGV: prefix, dead node. Takes back everything a node whose heartbeat lapsed still counted. Removing the node
 * from the set is the lease: of several reapers racing for it, only the one whose SREM succeeds does the work, so
 * each dead node's users are announced once. Returns {offline "<app>\n<user>"[], stopped "<app>\n<cid>\n<w>"[]}.
 */
export const REAP_SCRIPT = `
local p = ARGV[1]
local node = ARGV[2]
if redis.call('EXISTS', p .. 'alive:' .. node) == 1 then return {{}, {}} end
if redis.call('SREM', p .. 'nodes', node) == 0 then return {{}, {}} end
local offline = {}
local nu = redis.call('HGETALL', p .. 'nu:' .. node)
for i = 1, #nu, 2 do
  local f = nu[i]
  local cut = string.find(f, '\\n', 1, true)
  local key = p .. 'u:' .. string.sub(f, 1, cut - 1)
  local user = string.sub(f, cut + 1)
  if redis.call('HINCRBY', key, user, -tonumber(nu[i + 1])) <= 0 then
    redis.call('HDEL', key, user)
    table.insert(offline, f)
  end
end
redis.call('DEL', p .. 'nu:' .. node)
local stopped = {}
local nw = redis.call('HGETALL', p .. 'nw:' .. node)
for i = 1, #nw, 2 do
  local f = nw[i]
  local a = string.find(f, '\\n', 1, true)
  local b = string.find(f, '\\n', a + 1, true)
  local key = p .. 'w:' .. string.sub(f, 1, b - 1)
  local watcher = string.sub(f, b + 1)
  if redis.call('HINCRBY', key, watcher, -tonumber(nw[i + 1])) <= 0 then
    redis.call('HDEL', key, watcher)
    table.insert(stopped, f)
  end
end
redis.call('DEL', p .. 'nw:' .. node)
return {offline, stopped}
`;

/** KEYS: cluster watcher hashes. Returns the number of distinct watchers of each. */
export const WATCHER_COUNTS_SCRIPT = `
local counts = {}
for i = 1, #KEYS do counts[i] = redis.call('HLEN', KEYS[i]) end
return counts
`;

/**
 * ARGV: prefix, node, number of user entries U, then U pairs ("<app>\n<user>", count), then watcher pairs
 * ("<app>\n<cid>\n<watcher>", count). Replaces what a node counts with what it really holds, after Redis forgot
 * it (restart without persistence) or a reaper took it back while it was cut off.
 */
export const RESYNC_SCRIPT = `
local p = ARGV[1]
local node = ARGV[2]
local function reset(nodeKey, clusterKeyOf)
  local held = redis.call('HGETALL', nodeKey)
  for i = 1, #held, 2 do
    local key, field = clusterKeyOf(held[i])
    if redis.call('HINCRBY', key, field, -tonumber(held[i + 1])) <= 0 then redis.call('HDEL', key, field) end
  end
  redis.call('DEL', nodeKey)
end
local function userKey(f)
  local cut = string.find(f, '\\n', 1, true)
  return p .. 'u:' .. string.sub(f, 1, cut - 1), string.sub(f, cut + 1)
end
local function watcherKey(f)
  local a = string.find(f, '\\n', 1, true)
  local b = string.find(f, '\\n', a + 1, true)
  return p .. 'w:' .. string.sub(f, 1, b - 1), string.sub(f, b + 1)
end
reset(p .. 'nu:' .. node, userKey)
reset(p .. 'nw:' .. node, watcherKey)
local users = tonumber(ARGV[3])
for i = 4, #ARGV, 2 do
  local isUser = (i - 4) / 2 < users
  local nodeKey = p .. (isUser and 'nu:' or 'nw:') .. node
  local key, field = (isUser and userKey or watcherKey)(ARGV[i])
  redis.call('HINCRBY', nodeKey, ARGV[i], ARGV[i + 1])
  redis.call('HINCRBY', key, field, ARGV[i + 1])
end
return 1
`;
