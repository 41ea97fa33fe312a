import { useInfiniteQuery, useQuery } from '@tanstack/react-query'
import { Building2, FileText } from 'lucide-react'
import { Link, useSearchParams } from 'react-router'
import { paths } from '#src/app/paths.ts'
import { Alert } from '#src/components/ui/alert.tsx'
import { Button } from '#src/components/ui/button.tsx'
import { cn } from '#src/components/ui/cn.ts'
import { EmptyState } from '#src/components/ui/empty-state.tsx'
import { Skeleton, SkeletonGroup } from '#src/components/ui/skeleton.tsx'
import { ApiError, errorMessage } from '#src/lib/api-client.ts'
import { invoicesQuery, profilesQuery } from '../api/invoices.ts'
import { InvoiceListFilters } from '../components/invoice-list-filters.tsx'
import { NewInvoiceDialog } from '../components/invoice-list-new.tsx'
import { InvoiceListTable, InvoiceTotalsCards } from '../components/invoice-list-parts.tsx'
import { InvoiceListSaved } from '../components/invoice-list-saved.tsx'
import { InvoicesLayout } from '../components/invoices-nav.tsx'
import { todayLocal } from '../lib/invoice-draft.ts'
import { filterKeys, filtersFromSearch, queryFromFilters, searchFromFilters } from '../lib/invoice-list-filters.ts'

/**
 * /invoices: the totals by status (overdue on its own), the filters (kept in the address), and
 * the invoices and credit notes, newest first. With none at all, an empty state that starts the
 * first one, or first the company it is billed from (a draft needs a profile).
 */
export function InvoicesPage() {
	const [search, setSearch] = useSearchParams()
	const values = filtersFromSearch(search)
	const isFiltered = filterKeys.some((key) => values[key])
	const profiles = useQuery(profilesQuery)
	const pages = useInfiniteQuery({ ...invoicesQuery(queryFromFilters(values)), meta: { isErrorShownInPage: true } })
	const list = {
		...pages,
		data: pages.data
			? { invoices: pages.data.pages.flatMap((page) => page.invoices), totals: pages.data.pages[0]?.totals ?? [] }
			: undefined,
	}
	const apply = (next: typeof values) => setSearch(searchFromFilters(next, search), { replace: true })
	const clientLabel = list.data?.invoices.find((invoice) => invoice.clientRow?.rowId === values.clientId)?.client?.name
	const hasCompany = (profiles.data?.length ?? 0) > 0
	const fieldErrors =
		list.error instanceof ApiError
			? Object.fromEntries(list.error.fieldErrors.map((item) => [item.field, item.message]))
			: {}
	const isEmpty = list.data?.invoices.length === 0 && !isFiltered

	return (
		<InvoicesLayout title="Invoices" description="Invoices from your workspace rows and tracked time.">
			{list.isPending || profiles.isPending ? (
				<SkeletonGroup label="Loading the invoices…">
					<Skeleton className="h-24 w-full" />
					<Skeleton className="h-64 w-full" />
				</SkeletonGroup>
			) : isEmpty || (!list.data && !isFiltered) ? (
				list.isError ? (
					<Alert variant="error" title="The invoices could not be loaded">
						{errorMessage(list.error)}
					</Alert>
				) : (
					<EmptyState
						icon={FileText}
						title="No invoices yet"
						description={
							hasCompany
								? 'Start a draft: lines typed in, from database rows or from tracked time. It gets its number when you finalize it.'
								: 'An invoice is billed from your company: set up its details, logo, tax rates and numbering first.'
						}
						action={
							hasCompany ? (
								<div className="flex flex-wrap justify-center gap-2">
									<NewInvoiceDialog profiles={profiles.data ?? []} />
									<Button asChild variant="outline">
										<Link to={paths.invoicesSettings}>
											<Building2 aria-hidden /> Review your company
										</Link>
									</Button>
								</div>
							) : (
								<Button asChild>
									<Link to={paths.invoicesSettings}>
										<Building2 aria-hidden /> Set up your company
									</Link>
								</Button>
							)
						}
					/>
				)
			) : (
				<div className="grid gap-5">
					<div className="flex flex-wrap items-end justify-between gap-3">
						<InvoiceListSaved values={values} onApply={apply} />
						{hasCompany ? <NewInvoiceDialog profiles={profiles.data ?? []} /> : null}
					</div>
					{list.data ? <InvoiceTotalsCards totals={list.data.totals} /> : null}
					<InvoiceListFilters values={values} errors={fieldErrors} onChange={apply} clientLabel={clientLabel} />
					{list.isError && !Object.keys(fieldErrors).length ? (
						<Alert variant="error" title="The invoices could not be loaded">
							{errorMessage(list.error)}
						</Alert>
					) : null}
					{list.data?.invoices.length === 0 ? (
						<p className="rounded-lg border border-dashed p-6 text-center text-muted-foreground text-sm">
							No invoices match these filters.
						</p>
					) : list.data ? (
						<div className={cn(list.isPlaceholderData && 'opacity-60 transition-opacity')}>
							<InvoiceListTable
								invoices={list.data.invoices}
								today={todayLocal()}
								onClient={(clientId) => apply({ ...values, clientId })}
							/>
						</div>
					) : null}
					{pages.hasNextPage ? (
						<div className="flex justify-center">
							<Button variant="outline" onClick={() => void pages.fetchNextPage()} isLoading={pages.isFetchingNextPage}>
								Show more
							</Button>
						</div>
					) : null}
				</div>
			)}
		</InvoicesLayout>
	)
}
