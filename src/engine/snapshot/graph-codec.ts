/**
 * A snapshot codec for object graphs of class instances: what the engine (and the replay around
 * it) hold between two commands, written as bytes and read back into the same graph.
 *
 * v8.serialize already keeps identity and cycles of plain objects, arrays, Maps, Sets, typed
 * arrays and bigints, but drops prototypes and cannot see `#private` fields. So the graph is
 * first mirrored: a plain object or array is copied, an instance of a registered class becomes a
 * plain object tagged with the class's name (`$c`), holding either its own fields (a class with
 * public fields only) or what the class's `save` returns (a class with private fields, which it
 * alone can read). Reading back walks the deserialized mirror in place and turns tagged objects
 * back into instances (`Object.create(prototype)` + fields, or the class's `load`).
 *
 * An instance of a class nobody registered (or a function) is an error, not a silent loss: a new
 * stateful class must say how it is saved.
 */
import { deserialize, serialize } from 'node:v8';

const TAG = '$c';
const DATA = '$d';
/** A large Map of primitives, written as two arrays: v8 reads arrays back far faster than Map entries. */
const FLAT_MAP = '$map';
const FLAT_MAP_MIN = 256;

type AnyClass = abstract new (...args: never[]) => object;

interface Registered {
  readonly name: string;
  readonly prototype: object;
  /** Private-field classes: their state as snapshot data (may reference graph objects). */
  readonly save?: (value: never) => unknown;
  /** Builds the instance back from what `save` returned (references already read back). */
  readonly load?: (data: never) => object;
}

export interface ClassCodec<T extends object> {
  save(value: T): unknown;
  load(data: never): T;
}

export class GraphCodec {
  readonly #byClass = new Map<unknown, Registered>();
  readonly #byName = new Map<string, Registered>();

  /** A class whose state is its own (public) fields: read back with Object.create + fields. */
  plain(name: string, cls: AnyClass): this {
    return this.#add(cls, { name, prototype: cls.prototype as object });
  }

  /** A class with private fields: `save` exports them, `load` builds an instance from that. */
  custom<T extends object>(name: string, cls: abstract new (...args: never[]) => T, codec: ClassCodec<T>): this {
    return this.#add(cls, { name, prototype: cls.prototype as object, save: codec.save as (value: never) => unknown, load: codec.load as (data: never) => object });
  }

  #add(cls: unknown, entry: Registered): this {
    if (this.#byName.has(entry.name)) throw new Error(`snapshot class ${entry.name} registered twice`);
    this.#byClass.set(cls, entry);
    this.#byName.set(entry.name, entry);
    return this;
  }

  encode(root: unknown): Buffer {
    return serialize(this.mirror(root));
  }

  decode(bytes: Uint8Array): unknown {
    return this.restore(deserialize(bytes));
  }

  /** The graph as plain data v8.serialize keeps whole (identity and cycles included). */
  mirror(root: unknown): unknown {
    const seen = new Map<object, unknown>();
    const byClass = this.#byClass;
    const visit = (value: unknown): unknown => {
      if (typeof value !== 'object' || value === null) {
        if (typeof value === 'function' || typeof value === 'symbol') throw new Error(`snapshot: cannot save a ${typeof value}`);
        return value;
      }
      const known = seen.get(value);
      if (known !== undefined) return known;
      if (Array.isArray(value)) {
        const out: unknown[] = new Array(value.length);
        seen.set(value, out);
        for (let i = 0; i < value.length; i++) {
          const item = value[i] as unknown;
          if (item !== undefined || i in value) out[i] = visit(item);
        }
        return out;
      }
      if (ArrayBuffer.isView(value) || value instanceof ArrayBuffer) {
        seen.set(value, value);
        return value;
      }
      if (value instanceof Map) {
        if (value.size >= FLAT_MAP_MIN) {
          const flat = flatten(value);
          if (flat !== null) {
            seen.set(value, flat);
            return flat;
          }
        }
        const out = new Map<unknown, unknown>();
        seen.set(value, out);
        for (const [k, v] of value) out.set(visit(k), visit(v));
        return out;
      }
      if (value instanceof Set) {
        const out = new Set<unknown>();
        seen.set(value, out);
        for (const v of value) out.add(visit(v));
        return out;
      }
      const proto = Object.getPrototypeOf(value) as object | null;
      const out: Record<string, unknown> = {};
      seen.set(value, out);
      if (proto !== Object.prototype && proto !== null) {
        const entry = byClass.get((proto as { constructor?: unknown }).constructor);
        if (entry === undefined) throw new Error(`snapshot: instances of ${String((proto as { constructor?: { name?: string } }).constructor?.name)} are not registered`);
        out[TAG] = entry.name;
        if (entry.save !== undefined) {
          out[DATA] = visit((entry.save as (value: object) => unknown)(value));
          return out;
        }
      }
      for (const key of Object.keys(value)) out[key] = visit((value as Record<string, unknown>)[key]);
      return out;
    };
    return visit(root);
  }

  /** Reads a mirror back into the graph (plain objects and arrays are reused in place). */
  restore(root: unknown): unknown {
    const done = new Map<object, unknown>();
    const byName = this.#byName;
    const visit = (value: unknown): unknown => {
      if (typeof value !== 'object' || value === null) return value;
      const known = done.get(value);
      if (known !== undefined) {
        if (known === IN_PROGRESS) throw new Error('snapshot: a cycle runs through a class with private fields');
        return known;
      }
      if (Array.isArray(value)) {
        done.set(value, value);
        for (let i = 0; i < value.length; i++) {
          const item = value[i] as unknown;
          if (typeof item === 'object' && item !== null) value[i] = visit(item);
        }
        return value;
      }
      if (ArrayBuffer.isView(value) || value instanceof ArrayBuffer) {
        done.set(value, value);
        return value;
      }
      if (value instanceof Map) {
        let rebuild = false;
        done.set(value, value);
        for (const [k, v] of value) {
          if (typeof k === 'object' && k !== null) rebuild = true;
          else if (typeof v === 'object' && v !== null) value.set(k, visit(v));
        }
        if (!rebuild) return value;
        const out = new Map<unknown, unknown>();
        done.set(value, out);
        for (const [k, v] of value) out.set(visit(k), visit(v));
        return out;
      }
      if (value instanceof Set) {
        const out = new Set<unknown>();
        done.set(value, out);
        for (const v of value) out.add(visit(v));
        return out;
      }
      const record = value as Record<string, unknown>;
      const tag = record[TAG];
      if (tag === undefined) {
        done.set(value, value);
        for (const key of Object.keys(record)) {
          const item = record[key];
          if (typeof item === 'object' && item !== null) record[key] = visit(item);
        }
        return value;
      }
      if (tag === FLAT_MAP) {
        const keys = record['k'] as unknown[];
        const values = record['v'] as unknown[];
        const map = new Map<unknown, unknown>();
        for (let i = 0; i < keys.length; i++) map.set(keys[i], values[i]);
        done.set(value, map);
        return map;
      }
      const entry = byName.get(tag as string);
      if (entry === undefined) throw new Error(`snapshot: unknown class ${String(tag)}`);
      if (entry.load !== undefined) {
        done.set(value, IN_PROGRESS);
        const instance = (entry.load as (data: unknown) => object)(visit(record[DATA]));
        done.set(value, instance);
        return instance;
      }
      const instance = Object.create(entry.prototype) as Record<string, unknown>;
      done.set(value, instance);
      for (const key of Object.keys(record)) {
        if (key !== TAG) instance[key] = visit(record[key]);
      }
      return instance;
    };
    return visit(root);
  }
}

const IN_PROGRESS = Symbol('in progress');

/** A Map whose keys and values are all primitives as {$c: FLAT_MAP, k, v}; null if any is an object. */
function flatten(map: Map<unknown, unknown>): Record<string, unknown> | null {
  const keys: unknown[] = new Array(map.size);
  const values: unknown[] = new Array(map.size);
  let i = 0;
  for (const [k, v] of map) {
    if ((typeof k === 'object' && k !== null) || (typeof v === 'object' && v !== null) || typeof v === 'function') return null;
    keys[i] = k;
    values[i] = v;
    i++;
  }
  return { [TAG]: FLAT_MAP, k: keys, v: values };
}
