import type { UseQueryResult } from '@tanstack/react-query'
import type { LucideIcon } from 'lucide-react'
import type { ReactNode } from 'react'
import { Link } from 'react-router'
import { errorMessage } from '#src/lib/api-client.ts'
import { Button } from './ui/button.tsx'
import { EmptyState } from './ui/empty-state.tsx'
import { Skeleton, SkeletonGroup } from './ui/skeleton.tsx'

type PageGateProps<T> = {
	query: UseQueryResult<T>
	/** Read to screen readers while the skeleton shows ("Loading the form…"). */
	loadingLabel: string
	icon: LucideIcon
	/** Said when the object cannot be loaded (not found, no access, offline). */
	errorTitle: string
	backTo: string
	backLabel: string
	children: (data: T) => ReactNode
}

/**
 * Loads the object an editor page is about: a skeleton in the page's shape meanwhile, and a way
 * back to its list when it cannot be loaded, so the page itself only deals with a loaded object.
 */
export function PageGate<T>({ query, loadingLabel, icon, errorTitle, backTo, backLabel, children }: PageGateProps<T>) {
	if (query.isPending) {
		return (
			<SkeletonGroup label={loadingLabel} className="grid gap-4">
				<Skeleton className="h-5 w-40" />
				<Skeleton className="h-8 w-72" />
				<Skeleton className="h-10 w-full" />
				<Skeleton className="h-96 w-full" />
			</SkeletonGroup>
		)
	}
	if (query.data === undefined) {
		return (
			<EmptyState
				icon={icon}
				title={errorTitle}
				description={errorMessage(query.error)}
				action={
					<Button asChild>
						<Link to={backTo}>{backLabel}</Link>
					</Button>
				}
			/>
		)
	}
	return children(query.data)
}
