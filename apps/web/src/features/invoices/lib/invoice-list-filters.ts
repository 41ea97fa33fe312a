import type { InvoiceListFilters } from '../api/invoices.ts'

// The list's filters as the address holds them (`?status=overdue&currency=EUR`), and as the API
// takes them: empty fields are left out, so the address stays short and the cache key stable.

export const filterKeys = [
	'search',
	'clientId',
	'status',
	'kind',
	'currency',
	'from',
	'to',
	'amountMin',
	'amountMax',
] as const
export type ListFilterValues = Record<(typeof filterKeys)[number], string>

export function filtersFromSearch(search: URLSearchParams): ListFilterValues {
	return Object.fromEntries(filterKeys.map((key) => [key, search.get(key) ?? ''])) as ListFilterValues
}

export function searchFromFilters(values: ListFilterValues, base = new URLSearchParams()): URLSearchParams {
	const next = new URLSearchParams(base)
	for (const key of filterKeys) {
		const value = values[key].trim()
		if (value) {
			next.set(key, value)
		} else {
			next.delete(key)
		}
	}
	return next
}

export function queryFromFilters(values: ListFilterValues): InvoiceListFilters {
	const query: InvoiceListFilters = {}
	for (const key of filterKeys) {
		const value = values[key].trim()
		if (value) {
			query[key] = value
		}
	}
	return query
}
