import { useQuery } from '@tanstack/react-query'
import { Skeleton } from '#src/components/ui/skeleton.tsx'
import { orgDetailsQuery } from '#src/core/teams/api/teams.ts'
import { DeleteOrganizationCard } from './delete-organization.tsx'
import { ExportCard } from './export-card.tsx'

/** Settings → Data (its own chunk): the export for owners and admins, and deleting the organization. */
export default function DataSettings() {
	const org = useQuery(orgDetailsQuery)
	if (org.isPending) {
		return <Skeleton className="h-56" />
	}
	if (!org.data) {
		return null
	}
	if (org.data.role === 'member') {
		return (
			<p className="text-muted-foreground text-sm">
				An owner or admin of {org.data.name} can export everything it has, and an owner can delete it.
			</p>
		)
	}
	return (
		<div className="grid gap-6">
			<ExportCard />
			<DeleteOrganizationCard org={org.data} />
		</div>
	)
}
