/** JSON Merge Patch (RFC 7396). Pure: returns a new value and never mutates its inputs. */

type JsonObject = Record<string, unknown>;

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A copy without a prototype: any key (even `__proto__`) stays an own, plain member. */
function copyOf(value: unknown): JsonObject {
  const copy: JsonObject = Object.create(null);
  if (isObject(value)) for (const [name, member] of Object.entries(value)) copy[name] = member;
  return copy;
}

/**
 * Applies `patch` to `target` as RFC 7396 says: objects merge, null removes a member, anything else
 * replaces. Iterative, so no nesting depth can exhaust the call stack; merged objects have no prototype.
 */
export function mergePatch(target: unknown, patch: unknown): unknown {
  if (!isObject(patch)) return patch;
  const root = copyOf(target);
  const pending: [JsonObject, JsonObject][] = [[root, patch]];
  for (let next = pending.pop(); next; next = pending.pop()) {
    const [result, part] = next;
    for (const [name, value] of Object.entries(part)) {
      if (value === null) delete result[name];
      else if (!isObject(value)) result[name] = value;
      else {
        const merged = copyOf(result[name]);
        result[name] = merged;
        pending.push([merged, value]);
      }
    }
  }
  return root;
}
