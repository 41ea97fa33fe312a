import { useMutation, useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import { useNavigate } from 'react-router'
import { toast } from 'sonner'
import { NewFromDatabaseDialog } from '#src/workspaces/components/new-from-database-dialog.tsx'
import { createForm, formKeys } from '../api/forms.ts'
import { formPaths } from '../lib/form-paths.ts'

/** Pick a database (grouped by workspace), name the form, and land in its builder. */
export function NewFormDialog({ variant = 'primary' }: { variant?: 'primary' | 'outline' }) {
	const [isOpen, setIsOpen] = useState(false)
	const queryClient = useQueryClient()
	const navigate = useNavigate()
	const create = useMutation({
		mutationFn: createForm,
		meta: { isFormMutation: true },
		onSuccess: async (form) => {
			queryClient.setQueryData(formKeys.detail(form.id), form)
			await queryClient.invalidateQueries({ queryKey: formKeys.list })
			toast.success(`${form.name} was created with its plain properties as fields.`)
			setIsOpen(false)
			await navigate(formPaths.edit(form.id))
		},
	})
	return (
		<NewFromDatabaseDialog
			noun="form"
			variant={variant}
			description="Each answer becomes a row of the database you pick. Its plain properties start as fields; linked rows, people and status are yours to add."
			nameDescription="For you; visitors see the page title."
			noDatabaseProblem="Pick the database the answers go into."
			noDatabasesLead="A form writes into a workspace database."
			isOpen={isOpen}
			onOpenChange={setIsOpen}
			create={create}
			onCreate={(database, name) => create.mutate({ databaseId: database.id, name })}
		/>
	)
}
