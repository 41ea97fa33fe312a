import { type Database, databaseSchema } from '@blocksmith/contracts/workspaces.ts'
import { useQuery } from '@tanstack/react-query'
import { Download } from 'lucide-react'
import { useState } from 'react'
import { toast } from 'sonner'
import { z } from 'zod'
import { Button } from '#src/components/ui/button.tsx'
import { Skeleton, SkeletonGroup } from '#src/components/ui/skeleton.tsx'
import { downloadSubmissionsCsv, formsQuery } from '#src/features/forms/api/forms.ts'
import { api, errorMessage } from '#src/lib/api-client.ts'
import { downloadCsv } from '#src/workspaces/api/workspaces.ts'

/**
 * While the subscription is stopped the dashboard is closed, but the data stays the team's: every
 * database and every form's answers can be downloaded as CSV from /paused. Loaded only when
 * asked for, so /paused itself stays light.
 */
export default function PausedExports() {
	const databases = useQuery({
		queryKey: ['paused', 'databases'],
		queryFn: async ({ signal }): Promise<Database[]> => {
			const list = z.array(databaseSchema) as unknown as z.ZodType<Database[]>
			const [local, notion] = await Promise.all([
				api('/dashboard/local/databases', { schema: list, signal }),
				api('/dashboard/notion/databases', { schema: list, signal }),
			])
			return [...local, ...notion]
		},
	})
	const forms = useQuery(formsQuery)
	const [busy, setBusy] = useState<string | null>(null)

	async function run(key: string, download: () => Promise<void>) {
		setBusy(key)
		try {
			await download()
		} catch (error) {
			toast.error(errorMessage(error))
		} finally {
			setBusy(null)
		}
	}

	if (databases.isPending || forms.isPending) {
		return (
			<SkeletonGroup label="Loading your data…" className="grid gap-2">
				<Skeleton className="h-8" />
				<Skeleton className="h-8" />
			</SkeletonGroup>
		)
	}
	if (databases.isError || forms.isError) {
		return <p className="text-error text-sm">{errorMessage(databases.error ?? forms.error)}</p>
	}
	const items = [
		...databases.data.map((database) => ({
			key: `database:${database.id}`,
			label: database.name,
			what: 'Database rows',
			download: () => downloadCsv({ tool: database.tool, databaseId: database.id, name: database.name }),
		})),
		...forms.data.map((form) => ({
			key: `form:${form.id}`,
			label: form.name,
			what: 'Form answers',
			download: () => downloadSubmissionsCsv({ formId: form.id, name: form.name }),
		})),
	]
	if (items.length === 0) {
		return <p className="text-muted-foreground text-sm">No databases or forms yet: nothing to download.</p>
	}
	return (
		<ul className="grid gap-1 text-left" aria-label="Downloads">
			{items.map((item) => (
				<li key={item.key} className="flex items-center justify-between gap-3 rounded-md px-2 py-1.5 hover:bg-muted/60">
					<span className="min-w-0">
						<span className="block truncate font-medium text-sm">{item.label}</span>
						<span className="block text-muted-foreground text-xs">{item.what}</span>
					</span>
					<Button
						variant="outline"
						size="sm"
						isLoading={busy === item.key}
						disabled={busy !== null && busy !== item.key}
						onClick={() => void run(item.key, item.download)}
						aria-label={`Download ${item.label} as CSV`}
					>
						<Download aria-hidden className="size-3.5" />
						CSV
					</Button>
				</li>
			))}
		</ul>
	)
}
