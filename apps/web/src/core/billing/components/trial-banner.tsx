import type { OrgDetails } from '@blocksmith/contracts/teams.ts'
import { Link } from 'react-router'
import { paths } from '#src/app/paths.ts'
import { daysLeft, daysLeftLabel } from '../lib/billing-state.ts'

/** A slim line over the dashboard while the organization is on its trial: how long, and where to choose a plan. */
export function TrialBanner({ org }: { org: OrgDetails | undefined }) {
	if (org?.subscriptionState !== 'trialing' || !org.trialEndsAt) {
		return null
	}
	return (
		<div className="flex items-center justify-center gap-2 border-b bg-info/5 px-4 py-1.5 text-center text-sm">
			<p>
				<span className="font-medium">Trial: {daysLeftLabel(daysLeft(org.trialEndsAt))}</span>
				<span aria-hidden className="mx-2 text-muted-foreground">
					·
				</span>
				<Link to={paths.billing} className="font-medium text-link hover:underline">
					Choose a plan
				</Link>
			</p>
		</div>
	)
}
