import { useQuery } from '@tanstack/react-query'
import { FileText } from 'lucide-react'
import { Link } from 'react-router'
import { ListPageHeader } from '#src/components/page-header.tsx'
import { Alert } from '#src/components/ui/alert.tsx'
import { Skeleton, SkeletonGroup } from '#src/components/ui/skeleton.tsx'
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '#src/components/ui/table.tsx'
import { errorMessage } from '#src/lib/api-client.ts'
import { formatDateTime, relativeTime } from '#src/workspaces/lib/values.ts'
import { formsQuery } from '../api/forms.ts'
import { FormActionsMenu, FormStatusBadge } from '../components/form-actions.tsx'
import { NewFormChooser, NewFormDialog } from '../components/new-form-dialog.tsx'
import { useDatabaseLabel } from '../lib/database-label.ts'
import { formPaths } from '../lib/form-paths.ts'

/** /forms: every form of the organization, most recently edited first. */
export function FormsPage() {
	const forms = useQuery(formsQuery)
	const databaseLabel = useDatabaseLabel()
	return (
		<div className="grid grid-cols-1 gap-6">
			<ListPageHeader
				title="Forms"
				description="Forms that write every answer into your databases."
				action={forms.data ? <NewFormDialog /> : null}
			/>
			{forms.isPending ? (
				<SkeletonGroup label="Loading forms…">
					<Skeleton className="h-48 w-full" />
				</SkeletonGroup>
			) : forms.isError ? (
				<Alert variant="error" title="Your forms could not be loaded">
					{errorMessage(forms.error)}
				</Alert>
			) : forms.data.length ? (
				<Table aria-label="Forms">
					<TableHeader>
						<TableRow>
							<TableHead>Form</TableHead>
							<TableHead className="hidden md:table-cell">Database</TableHead>
							<TableHead>Status</TableHead>
							{/* On a phone the column would push the actions off the screen; the form's pages show the count. */}
							<TableHead isNumeric className="hidden sm:table-cell">
								Submissions
							</TableHead>
							<TableHead className="hidden sm:table-cell">Updated</TableHead>
							<TableHead>
								<span className="sr-only">Actions</span>
							</TableHead>
						</TableRow>
					</TableHeader>
					<TableBody>
						{forms.data.map((form) => (
							<TableRow key={form.id}>
								<TableCell className="max-w-72 truncate">
									<Link to={formPaths.edit(form.id)} className="font-medium hover:underline">
										{form.name}
									</Link>
								</TableCell>
								<TableCell className="hidden max-w-56 truncate text-muted-foreground md:table-cell">
									{databaseLabel(form)}
								</TableCell>
								<TableCell>
									<FormStatusBadge form={form} />
								</TableCell>
								<TableCell isNumeric className="hidden sm:table-cell">
									<Link
										to={formPaths.submissions(form.id)}
										className="hover:underline"
										aria-label={`${form.submissionsCount.toLocaleString()} submissions to ${form.name}`}
									>
										{form.submissionsCount.toLocaleString()}
									</Link>
								</TableCell>
								<TableCell
									className="hidden text-muted-foreground sm:table-cell"
									title={formatDateTime(form.updatedAt)}
								>
									{relativeTime(form.updatedAt)}
								</TableCell>
								<TableCell className="text-right">
									<FormActionsMenu form={form} isInList />
								</TableCell>
							</TableRow>
						))}
					</TableBody>
				</Table>
			) : (
				<section aria-labelledby="no-forms-heading" className="grid gap-5 rounded-xl border border-dashed p-4 sm:p-6">
					<div className="flex items-start gap-3">
						<div className="flex size-11 shrink-0 items-center justify-center rounded-lg border bg-card shadow-xs">
							<FileText aria-hidden className="size-5 text-muted-foreground" />
						</div>
						<div className="grid gap-1">
							<h2 id="no-forms-heading" className="font-semibold text-base">
								No forms yet
							</h2>
							<p className="max-w-prose text-muted-foreground text-sm">
								Start from a template or from scratch: every answer becomes a row of a database — even when Notion is
								slow or down.
							</p>
						</div>
					</div>
					<NewFormChooser />
				</section>
			)}
		</div>
	)
}
