import { randomBytes } from 'node:crypto'
import qs from 'qs'
import { invalidRequest, missingParam, unknownParam } from './errors.ts'

/**
 * Stripe's v1 API takes `application/x-www-form-urlencoded` bodies (and query strings) with bracketed keys,
 * `items[0][price]=…&metadata[a]=b&expand[]=x`; every value arrives as a string. `Params` reads them the way
 * Stripe validates them: unknown keys, integers, booleans and enums fail with Stripe's messages.
 */
export function parseForm(text: string): Record<string, unknown> {
	return qs.parse(text, { depth: 20, arrayLimit: 1000, parameterLimit: 10_000 }) as Record<string, unknown>
}

export function isRecord(value: unknown): value is Record<string, unknown> {
	return typeof value === 'object' && value !== null && !Array.isArray(value)
}

export class Params {
	readonly values: Record<string, unknown>
	readonly prefix: string

	constructor(values: Record<string, unknown>, prefix = '') {
		this.values = values
		this.prefix = prefix
	}

	name(key: string): string {
		return this.prefix ? `${this.prefix}[${key}]` : key
	}

	has(key: string): boolean {
		return Object.hasOwn(this.values, key)
	}

	keys(): string[] {
		return Object.keys(this.values)
	}

	/** Refuses any key not listed, as Stripe does with `parameter_unknown`. */
	allow(...keys: string[]): this {
		for (const key of Object.keys(this.values)) {
			if (!keys.includes(key)) {
				throw unknownParam(this.name(key))
			}
		}
		return this
	}

	string(key: string): string | undefined {
		const value = this.values[key]
		if (value === undefined) {
			return undefined
		}
		if (typeof value !== 'string') {
			throw invalidRequest(`Invalid string: ${JSON.stringify(value)}`, this.name(key))
		}
		return value
	}

	requiredString(key: string): string {
		const value = this.string(key)
		if (value === undefined || value === '') {
			throw missingParam(this.name(key))
		}
		return value
	}

	int(key: string): number | undefined {
		const value = this.string(key)
		if (value === undefined) {
			return undefined
		}
		if (!/^-?\d+$/.test(value)) {
			throw invalidRequest(`Invalid integer: ${value}`, this.name(key), 'parameter_invalid_integer')
		}
		return Number(value)
	}

	bool(key: string): boolean | undefined {
		const value = this.string(key)
		if (value === undefined) {
			return undefined
		}
		if (value !== 'true' && value !== 'false') {
			throw invalidRequest(`Invalid boolean: ${value}`, this.name(key))
		}
		return value === 'true'
	}

	oneOf<T extends string>(key: string, allowed: readonly T[]): T | undefined {
		const value = this.string(key)
		if (value === undefined) {
			return undefined
		}
		if (!allowed.includes(value as T)) {
			const list = allowed.length > 1 ? `${allowed.slice(0, -1).join(', ')}, or ${allowed.at(-1)}` : allowed[0]
			throw invalidRequest(`Invalid ${this.name(key)}: must be one of ${list}`, this.name(key))
		}
		return value as T
	}

	/** A Unix timestamp, or `now` where Stripe accepts it. */
	timestamp(key: string, allowNow: true): number | 'now' | undefined
	timestamp(key: string, allowNow?: false): number | undefined
	timestamp(key: string, allowNow = false): number | 'now' | undefined {
		if (allowNow && this.values[key] === 'now') {
			return 'now'
		}
		return this.int(key)
	}

	/** A nested hash; `''` is Stripe's way to unset an emptyable one (`pause_collection=`). */
	object(key: string): Params | '' | undefined {
		const value = this.values[key]
		if (value === undefined) {
			return undefined
		}
		if (value === '') {
			return ''
		}
		if (!isRecord(value)) {
			throw invalidRequest(`Invalid hash`, this.name(key))
		}
		return new Params(value, this.name(key))
	}

	/** `items[0][price]=…` as a list of hashes; qs gives an array, or an object when indices are sparse. */
	array(key: string): Params[] | undefined {
		const value = this.values[key]
		if (value === undefined) {
			return undefined
		}
		const entries = Array.isArray(value) ? value.map((item, index) => [String(index), item] as const) : null
		const pairs = entries ?? (isRecord(value) ? Object.entries(value) : null)
		if (!pairs) {
			throw invalidRequest(`Invalid array`, this.name(key))
		}
		return pairs.map(([index, item]) => {
			if (!isRecord(item)) {
				throw invalidRequest(`Invalid hash`, `${this.name(key)}[${index}]`)
			}
			return new Params(item, `${this.name(key)}[${index}]`)
		})
	}

	stringList(key: string): string[] | undefined {
		const value = this.values[key]
		if (value === undefined) {
			return undefined
		}
		const items = Array.isArray(value) ? value : isRecord(value) ? Object.values(value) : [value]
		return items.map((item) => {
			if (typeof item !== 'string') {
				throw invalidRequest(`Invalid array`, this.name(key))
			}
			return item
		})
	}

	/** Metadata: string values only; `''` (the whole hash) clears it, a key set to `''` removes that key. */
	metadata(key = 'metadata'): Record<string, string> | '' | undefined {
		const value = this.object(key)
		if (value === undefined || value === '') {
			return value
		}
		const result: Record<string, string> = {}
		for (const name of value.keys()) {
			const entry = value.string(name)
			if (entry !== undefined) {
				if (name.length > 40) {
					throw invalidRequest(
						`Metadata keys can have up to 40 characters; ${name} has ${name.length}.`,
						value.name(name),
					)
				}
				if (entry.length > 500) {
					throw invalidRequest(`Metadata values can have up to 500 characters.`, value.name(name))
				}
				result[name] = entry
			}
		}
		return result
	}

	expand(): string[] {
		return this.stringList('expand') ?? []
	}
}

/** Applies a metadata update the way Stripe does: merge, a `''` value deletes the key, `''` clears all. */
export function mergeMetadata(
	current: Record<string, string>,
	update: Record<string, string> | '',
): Record<string, string> {
	if (update === '') {
		return {}
	}
	const next = { ...current }
	for (const [key, value] of Object.entries(update)) {
		if (value === '') {
			delete next[key]
		} else {
			next[key] = value
		}
	}
	return next
}

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz'

function randomChars(length: number): string {
	const bytes = randomBytes(length)
	let out = ''
	for (const byte of bytes) {
		out += ALPHABET[byte % ALPHABET.length]
	}
	return out
}

/** Ids shaped like Stripe's: `sub_1Q…` (24 characters after the prefix); Checkout's are `cs_test_a1…`. */
export function newId(prefix: string): string {
	if (prefix === 'cs') {
		return `cs_test_a1${randomChars(58)}`
	}
	return `${prefix}_1${randomChars(23)}`
}

export function randomInvoicePrefix(): string {
	return randomBytes(4).toString('hex').toUpperCase()
}
