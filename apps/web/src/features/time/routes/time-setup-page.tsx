import { DatabaseSetup } from '../components/database-setup.tsx'
import { TimeLayout } from '../components/time-nav.tsx'

/** /time/setup: which databases hold time entries and how their properties map. */
export function TimeSetupPage() {
	return (
		<TimeLayout
			title="Time tracking"
			description="Choose the databases that hold time entries, and which property holds what."
		>
			<DatabaseSetup />
		</TimeLayout>
	)
}
