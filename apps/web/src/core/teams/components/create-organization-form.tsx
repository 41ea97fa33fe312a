import { useMutation, useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import { useNavigate } from 'react-router'
import { toast } from 'sonner'
import { Button } from '#src/components/ui/button.tsx'
import { Field } from '#src/components/ui/field.tsx'
import { Input } from '#src/components/ui/input.tsx'
import { useSessionStore } from '#src/lib/session-context.tsx'
import { createOrganization } from '../api/teams.ts'

type CreateOrganizationFormProps = {
	/** Shows a Cancel button that calls it (the switcher's dialog). */
	onCancel?: () => void
	/** Called once the organization exists, before everything is read again. */
	onCreated?: () => void
	submitLabel?: string
}

/**
 * The one way to make an organization: the switcher's dialog and the page of an account left
 * without one both show it (loaded after the shell: most visits never use it). The session moves
 * to the new organization, so everything on screen is read again, from the dashboard's home.
 */
export default function CreateOrganizationForm({
	onCancel,
	onCreated,
	submitLabel = 'Create',
}: CreateOrganizationFormProps) {
	const queryClient = useQueryClient()
	const session = useSessionStore()
	const navigate = useNavigate()
	const [name, setName] = useState('')
	const create = useMutation({
		mutationFn: createOrganization,
		onSuccess: async (organization) => {
			onCreated?.()
			await session.refresh()
			await queryClient.invalidateQueries()
			toast.success(`Created ${organization.name}.`)
			await navigate('/')
		},
	})
	return (
		<form
			className="grid gap-4"
			onSubmit={(event) => {
				event.preventDefault()
				if (name.trim()) {
					create.mutate(name.trim())
				}
			}}
		>
			<Field label="Organization name">
				<Input value={name} onChange={(event) => setName(event.target.value)} maxLength={100} autoFocus />
			</Field>
			<div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end [&>*]:w-full sm:[&>*]:w-auto">
				{onCancel ? (
					<Button variant="outline" onClick={onCancel}>
						Cancel
					</Button>
				) : null}
				<Button type="submit" isLoading={create.isPending} disabled={!name.trim()}>
					{submitLabel}
				</Button>
			</div>
		</form>
	)
}
