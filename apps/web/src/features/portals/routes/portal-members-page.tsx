import { Link } from 'react-router'
import { Alert } from '#src/components/ui/alert.tsx'
import { BulkInvite } from '../components/bulk-invite.tsx'
import { MembersList } from '../components/members-list.tsx'
import { OnePortal } from '../components/one-portal.tsx'
import { PortalsLayout } from '../components/portals-layout.tsx'
import { portalPaths } from '../lib/portal-paths.ts'

/** /portals/:id/members: invite in bulk, and the members with their company, status and last visit. */
export function PortalMembersPage() {
	return (
		<OnePortal title="Members" loadingLabel="Loading the members…">
			{({ portal, state, canEdit }) => (
				<PortalsLayout title={portal.name} portal={portal} hasOthers={state.portals.length > 1}>
					{canEdit ? (
						<div className="grid gap-6">
							{portal.access.companiesDatabaseId ? null : (
								<Alert variant="warning" title="No companies database yet">
									Members can be invited, but pages shared by company show them nothing until you choose the companies
									database under{' '}
									<Link to={portalPaths.setup(portal.id)} className="text-link underline-offset-4 hover:underline">
										Setup → Access
									</Link>
									.
								</Alert>
							)}
							<BulkInvite portal={portal} />
							<MembersList portal={portal} />
						</div>
					) : (
						<Alert title="Read only">Only owners and admins invite and remove portal members.</Alert>
					)}
				</PortalsLayout>
			)}
		</OnePortal>
	)
}
