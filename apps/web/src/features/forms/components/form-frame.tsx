import type { Form } from '@blocksmith/contracts/forms.ts'
import { useQuery } from '@tanstack/react-query'
import { FileQuestion, Table2 } from 'lucide-react'
import type { ReactNode } from 'react'
import { NavLink } from 'react-router'
import { PageGate } from '#src/components/page-gate.tsx'
import { ItemPageHeader } from '#src/components/page-header.tsx'
import { cn } from '#src/components/ui/cn.ts'
import { formQuery } from '../api/forms.ts'
import { useDatabaseLabel } from '../lib/database-label.ts'
import { formPaths } from '../lib/form-paths.ts'
import { FormActionsMenu, FormStatusBadge } from './form-actions.tsx'

/** Loads the form of a form page: a skeleton meanwhile, a way back when it cannot be found. */
export function FormGate({ id, children }: { id: string; children: (form: Form) => ReactNode }) {
	const form = useQuery(formQuery(id))
	return (
		<PageGate
			query={form}
			loadingLabel="Loading the form…"
			icon={FileQuestion}
			errorTitle="This form could not be loaded"
			backTo={formPaths.list}
			backLabel="Back to forms"
		>
			{children}
		</PageGate>
	)
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
		<ItemPageHeader
			crumbs={[{ label: 'Forms', to: formPaths.list }]}
			title={form.name}
			badge={<FormStatusBadge form={form} />}
			details={
				<p className="flex flex-wrap items-center gap-x-2 gap-y-1 text-muted-foreground text-sm">
					<span className="inline-flex items-center gap-1.5">
						<Table2 aria-hidden className="size-4" />
						Writes to {databaseLabel(form)}
					</span>
				</p>
			}
			actions={<FormActionsMenu form={form} {...(onLeave ? { onLeave } : {})} />}
		>
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
		</ItemPageHeader>
	)
}
