import type { Form } from '@blocksmith/contracts/forms.ts'
import { useQuery } from '@tanstack/react-query'
import { FileQuestion, Table2 } from 'lucide-react'
import type { ReactNode } from 'react'
import { Link, NavLink } from 'react-router'
import { Button } from '#src/components/ui/button.tsx'
import { cn } from '#src/components/ui/cn.ts'
import { EmptyState } from '#src/components/ui/empty-state.tsx'
import { Skeleton, SkeletonGroup } from '#src/components/ui/skeleton.tsx'
import { errorMessage } from '#src/lib/api-client.ts'
import { formQuery } from '../api/forms.ts'
import { useDatabaseLabel } from '../lib/database-label.ts'
import { formPaths } from '../lib/form-paths.ts'
import { FormActionsMenu, FormStatusBadge } from './form-actions.tsx'

/** Loads the form of a form page: a skeleton meanwhile, a way back when it cannot be found. */
export function FormGate({ id, children }: { id: string; children: (form: Form) => ReactNode }) {
	const form = useQuery(formQuery(id))
	if (form.isPending) {
		return (
			<SkeletonGroup label="Loading the form…" className="grid gap-4">
				<Skeleton className="h-5 w-40" />
				<Skeleton className="h-8 w-72" />
				<Skeleton className="h-10 w-full" />
				<Skeleton className="h-96 w-full" />
			</SkeletonGroup>
		)
	}
	if (!form.data) {
		return (
			<EmptyState
				icon={FileQuestion}
				title="This form could not be loaded"
				description={errorMessage(form.error)}
				action={
					<Button asChild>
						<Link to={formPaths.list}>Back to forms</Link>
					</Button>
				}
			/>
		)
	}
	return children(form.data)
}

type FormHeaderProps = {
	form: Form
	/** Called before an action leaves the page on purpose (duplicate, delete). */
	onLeave?: () => void
}

const sections = [
	{ name: 'Builder', path: formPaths.edit },
	{ name: 'Submissions', path: formPaths.submissions },
	{ name: 'Analytics', path: formPaths.analytics },
] as const

/** The head of each of a form's pages: where it is, its state, its actions and its sections. */
export function FormHeader({ form, onLeave }: FormHeaderProps) {
	const databaseLabel = useDatabaseLabel()
	return (
		<div className="grid gap-4">
			<nav aria-label="Breadcrumb" className="text-muted-foreground text-sm">
				<Link to={formPaths.list} className="hover:underline">
					Forms
				</Link>
				<span aria-hidden> / </span>
				<span>{form.name}</span>
			</nav>
			<div className="flex flex-wrap items-start justify-between gap-3">
				<div className="grid min-w-0 gap-1">
					<div className="flex flex-wrap items-center gap-2">
						<h1 className="min-w-0 break-words font-semibold text-2xl tracking-tight">{form.name}</h1>
						<FormStatusBadge form={form} />
					</div>
					<p className="flex flex-wrap items-center gap-x-2 gap-y-1 text-muted-foreground text-sm">
						<span className="inline-flex items-center gap-1.5">
							<Table2 aria-hidden className="size-4" />
							Writes to {databaseLabel(form)}
						</span>
					</p>
				</div>
				<FormActionsMenu form={form} {...(onLeave ? { onLeave } : {})} />
			</div>
			<nav aria-label="Form pages">
				<ul className="flex gap-4 overflow-x-auto border-b [scrollbar-width:none]">
					{sections.map((section) => (
						<li key={section.name}>
							<NavLink
								to={section.path(form.id)}
								className={({ isActive }) =>
									cn(
										'-mb-px inline-flex h-10 items-center gap-1.5 whitespace-nowrap border-b-2 px-1 font-medium text-sm transition-colors',
										'focus-visible:outline-offset-[-2px]',
										isActive
											? 'border-primary text-foreground dark:border-ring'
											: 'border-transparent text-muted-foreground hover:text-foreground',
									)
								}
							>
								{section.name}
								{section.name === 'Submissions' && form.submissionsCount > 0 ? (
									// Seen, not read: the link keeps the one name "Submissions" wherever it is.
									<span aria-hidden className="rounded-full bg-muted px-1.5 text-muted-foreground text-xs tabular-nums">
										{form.submissionsCount.toLocaleString()}
									</span>
								) : null}
							</NavLink>
						</li>
					))}
				</ul>
			</nav>
		</div>
	)
}
