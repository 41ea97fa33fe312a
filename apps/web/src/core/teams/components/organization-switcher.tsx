import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { Check, ChevronsUpDown, Plus } from 'lucide-react'
import { lazy, Suspense, useState } from 'react'
import { useNavigate } from 'react-router'
import { toast } from 'sonner'
import { Button } from '#src/components/ui/button.tsx'
import { Dialog, DialogContent } from '#src/components/ui/dialog.tsx'
import {
	DropdownMenu,
	DropdownMenuContent,
	DropdownMenuItem,
	DropdownMenuLabel,
	DropdownMenuSeparator,
	DropdownMenuTrigger,
} from '#src/components/ui/dropdown-menu.tsx'
import { useSessionStore } from '#src/lib/session-context.tsx'
import { organizationsQuery, switchOrganization } from '../api/teams.ts'

// Loaded when the dialog opens: the shell does without the form and its field.
const CreateOrganizationForm = lazy(() => import('./create-organization-form.tsx'))

/** Which organization the session works in; switch to another, or create one. */
export function OrganizationSwitcher() {
	const organizations = useQuery(organizationsQuery)
	const queryClient = useQueryClient()
	const session = useSessionStore()
	const navigate = useNavigate()
	const [isCreating, setIsCreating] = useState(false)
	const active = organizations.data?.find((organization) => organization.isActive)

	// Everything on screen belongs to the organization: after a switch, read it all again.
	async function afterChange(message: string) {
		await session.refresh()
		await queryClient.invalidateQueries()
		toast.success(message)
		await navigate('/')
	}
	const switchTo = useMutation({
		mutationFn: switchOrganization,
		onSuccess: (_data, id) =>
			afterChange(
				`Switched to ${organizations.data?.find((organization) => organization.id === id)?.name ?? 'the organization'}.`,
			),
	})
	return (
		<>
			<DropdownMenu>
				<DropdownMenuTrigger asChild>
					<Button
						variant="ghost"
						className="w-full justify-between px-2"
						// The visible name first, so the spoken name contains what is seen (WCAG 2.5.3).
						aria-label={`${active?.name ?? 'Organization'}, switch organization`}
					>
						<span className="flex min-w-0 items-center gap-2">
							{/* The initial is drawn by CSS: as text it would be a visible word missing from the button's name. */}
							<span
								aria-hidden
								data-initial={(active?.name ?? '?').slice(0, 1).toUpperCase()}
								className="flex size-6 shrink-0 items-center justify-center rounded-md bg-primary/10 font-semibold text-primary text-xs before:content-[attr(data-initial)]"
							/>
							<span className="truncate">{active?.name ?? 'Organization'}</span>
						</span>
						<ChevronsUpDown aria-hidden className="text-muted-foreground" />
					</Button>
				</DropdownMenuTrigger>
				<DropdownMenuContent align="start" className="w-64">
					<DropdownMenuLabel>Organizations</DropdownMenuLabel>
					{organizations.data?.map((organization) => (
						<DropdownMenuItem
							key={organization.id}
							disabled={organization.isActive}
							onSelect={() => switchTo.mutate(organization.id)}
						>
							<span className="truncate">{organization.name}</span>
							<span className="ml-auto text-muted-foreground text-xs capitalize">{organization.role}</span>
							{organization.isActive ? <Check aria-label="current" /> : null}
						</DropdownMenuItem>
					))}
					<DropdownMenuSeparator />
					<DropdownMenuItem onSelect={() => setIsCreating(true)}>
						<Plus aria-hidden /> New organization
					</DropdownMenuItem>
				</DropdownMenuContent>
			</DropdownMenu>
			<Dialog open={isCreating} onOpenChange={setIsCreating}>
				<DialogContent title="New organization" description="A separate workspace with its own data, members and plan.">
					<Suspense fallback={null}>
						<CreateOrganizationForm onCancel={() => setIsCreating(false)} onCreated={() => setIsCreating(false)} />
					</Suspense>
				</DialogContent>
			</Dialog>
		</>
	)
}
