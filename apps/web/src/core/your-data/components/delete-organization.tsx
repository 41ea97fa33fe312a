import type { OrgDetails } from '@blocksmith/contracts/teams.ts'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { Trash2 } from 'lucide-react'
import { useState } from 'react'
import { toast } from 'sonner'
import { useAppConfig } from '#src/app/app-config-context.tsx'
import { Alert } from '#src/components/ui/alert.tsx'
import { Button } from '#src/components/ui/button.tsx'
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from '#src/components/ui/card.tsx'
import { Dialog, DialogClose, DialogContent, DialogFooter, DialogTrigger } from '#src/components/ui/dialog.tsx'
import { Field } from '#src/components/ui/field.tsx'
import { Input } from '#src/components/ui/input.tsx'
import { membersQuery, teamKeys } from '#src/core/teams/api/teams.ts'
import { ApiError, errorMessage } from '#src/lib/api-client.ts'
import { deleteOrganization } from '../api/data.ts'
import { formatDate } from './export-card.tsx'

/** Settings → Data's danger zone: owners delete the organization; admins read who can. */
export function DeleteOrganizationCard({ org }: { org: OrgDetails }) {
	return (
		<Card className="border-error/40">
			<CardHeader>
				<CardTitle>Delete organization</CardTitle>
				<CardDescription>
					Deletes {org.name} with everything in it, for every member. An owner can restore it during the grace period;
					after that it is gone for good.
				</CardDescription>
			</CardHeader>
			{org.role === 'owner' ? (
				<CardFooter>
					<DeleteOrganizationDialog org={org} />
				</CardFooter>
			) : (
				<CardContent>
					<Owners />
				</CardContent>
			)}
		</Card>
	)
}

function Owners() {
	const members = useQuery(membersQuery)
	const owners = (members.data ?? []).filter((member) => member.role === 'owner').map((member) => member.name)
	return (
		<p className="text-muted-foreground text-sm">
			Only an owner can delete the organization
			{owners.length > 0 ? `: ${owners.join(', ')}.` : '.'}
		</p>
	)
}

function DeleteOrganizationDialog({ org }: { org: OrgDetails }) {
	const queryClient = useQueryClient()
	const [isOpen, setIsOpen] = useState(false)
	const [typed, setTyped] = useState('')
	const remove = useMutation({
		mutationFn: () => deleteOrganization(typed),
		meta: { isErrorShownInPage: true },
		onSuccess: async ({ deletion }) => {
			toast.success(`${org.name} will be deleted for good on ${formatDate(deletion.purgeAfter)}.`)
			// The dashboard's gate reads the deletion and shows the organization's last page.
			queryClient.setQueryData<OrgDetails>(teamKeys.orgDetails, (details) => details && { ...details, deletion })
			await queryClient.invalidateQueries({ queryKey: teamKeys.orgDetails })
		},
	})
	const fieldError =
		remove.error instanceof ApiError ? remove.error.fieldErrors.find((error) => error.field === 'name') : undefined
	const isMatch = typed === org.name
	const { deletionGraceDays } = useAppConfig()
	const purgeDate = formatDate(new Date(Date.now() + deletionGraceDays * 86_400_000).toISOString())

	return (
		<Dialog
			open={isOpen}
			onOpenChange={(open) => {
				setIsOpen(open)
				setTyped('')
				remove.reset()
			}}
		>
			<DialogTrigger asChild>
				<Button variant="destructive">
					<Trash2 aria-hidden /> Delete organization
				</Button>
			</DialogTrigger>
			<DialogContent title={`Delete ${org.name}?`} description="Export its data first if you may need it.">
				<form
					className="grid gap-4"
					noValidate
					onSubmit={(event) => {
						event.preventDefault()
						if (isMatch) {
							remove.mutate()
						}
					}}
				>
					<ul className="grid list-disc gap-1 pl-5 text-sm">
						<li>Its public forms, charts, dashboards and portals stop at once.</li>
						<li>Its subscription is canceled, trial included.</li>
						<li>
							On {purgeDate} (after {deletionGraceDays} {deletionGraceDays === 1 ? 'day' : 'days'}) everything in it is
							purged for good: databases, answers, files, invoices, time entries.
						</li>
						<li>Until then an owner can restore it; its subscription then starts again only when a plan is chosen.</li>
					</ul>
					<Field
						label={
							<>
								Type <strong>{org.name}</strong> to confirm
							</>
						}
						error={fieldError?.message}
					>
						<Input value={typed} onChange={(event) => setTyped(event.target.value)} autoComplete="off" />
					</Field>
					{remove.isError && !fieldError ? <Alert variant="error">{errorMessage(remove.error)}</Alert> : null}
					<DialogFooter>
						<DialogClose asChild>
							<Button variant="outline">Cancel</Button>
						</DialogClose>
						<Button type="submit" variant="destructive" disabled={!isMatch} isLoading={remove.isPending}>
							Delete organization
						</Button>
					</DialogFooter>
				</form>
			</DialogContent>
		</Dialog>
	)
}
