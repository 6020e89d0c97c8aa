// Each game's data (map, card faces, fields), served by the REST face from
// the SDK's data modules at /web/data/<name>.json (api/web_data.py), fetched
// once per page.

const cache = new Map();

/** The data file `name` ("king_is_dead", "options", ...), or null if there is none. */
export function loadData(name) {
  if (!cache.has(name)) {
    cache.set(
      name,
      fetch(`/web/data/${encodeURIComponent(name)}.json`).then((r) => (r.ok ? r.json() : null)).catch(() => null),
    );
  }
  return cache.get(name);
}
