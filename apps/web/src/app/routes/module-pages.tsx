import { modules } from '#src/app/modules.ts'
import { EmptyState } from '#src/components/ui/empty-state.tsx'

// Each module's entry screen, until its own issue fills it: what the module will do. Forms has
// its own pages (features/forms).

function ModulePage({ moduleKey }: { moduleKey: (typeof modules)[number]['key'] }) {
	const module = modules.find((candidate) => candidate.key === moduleKey)
	if (!module) {
		return null
	}
	return (
		<div className="grid gap-6">
			<div className="grid gap-1">
				<h1 className="font-semibold text-2xl tracking-tight">{module.name}</h1>
				<p className="text-muted-foreground">{module.summary}</p>
			</div>
			<EmptyState
				icon={module.icon}
				title={`${module.name} is on its way`}
				description={`${module.description} Connect a workspace database to start — this is where your ${module.name.toLowerCase()} will live.`}
			/>
		</div>
	)
}

export function ChartsPage() {
	return <ModulePage moduleKey="charts" />
}
export function InvoicesPage() {
	return <ModulePage moduleKey="invoices" />
}
export function PortalsPage() {
	return <ModulePage moduleKey="portals" />
}
export function TimePage() {
	return <ModulePage moduleKey="time" />
}
