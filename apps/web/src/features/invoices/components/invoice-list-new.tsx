import { currencyCodes } from '@blocksmith/contracts/invoice-currencies.ts'
import type { InvoiceProfile } from '@blocksmith/contracts/invoices.ts'
import { Plus } from 'lucide-react'
import { type FormEvent, useState } from 'react'
import { useNavigate } from 'react-router'
import { paths } from '#src/app/paths.ts'
import { Alert } from '#src/components/ui/alert.tsx'
import { Button } from '#src/components/ui/button.tsx'
import { Dialog, DialogContent, DialogFooter, DialogTrigger } from '#src/components/ui/dialog.tsx'
import { Field } from '#src/components/ui/field.tsx'
import { Input } from '#src/components/ui/input.tsx'
import { NativeSelect } from '#src/components/ui/native-select.tsx'
import { ApiError, errorMessage } from '#src/lib/api-client.ts'
import { createInvoice } from '../api/invoices.ts'

// "New invoice": the few things a draft starts from (who bills, whom, in which currency); the
// server creates the draft at once (no number yet) and the editor opens on it.

export function NewInvoiceDialog({ profiles }: { profiles: InvoiceProfile[] }) {
	const navigate = useNavigate()
	const first = profiles[0]
	const [isOpen, setIsOpen] = useState(false)
	const [profileId, setProfileId] = useState(first?.id ?? '')
	const [clientName, setClientName] = useState('')
	const profile = profiles.find((candidate) => candidate.id === profileId) ?? first
	const [currency, setCurrency] = useState(first?.currency ?? 'EUR')
	const [errors, setErrors] = useState<Record<string, string>>({})
	const [failure, setFailure] = useState<string | null>(null)
	const [isCreating, setIsCreating] = useState(false)

	async function submit(event: FormEvent): Promise<void> {
		event.preventDefault()
		setIsCreating(true)
		setFailure(null)
		try {
			const draft = await createInvoice({
				profileId,
				currency,
				client: clientName.trim() ? { name: clientName.trim() } : null,
			})
			await navigate(paths.invoice(draft.id))
		} catch (error) {
			setErrors(
				error instanceof ApiError
					? Object.fromEntries(error.fieldErrors.map((item) => [item.field, item.message]))
					: {},
			)
			setFailure(errorMessage(error))
			setIsCreating(false)
		}
	}

	return (
		<Dialog open={isOpen} onOpenChange={setIsOpen}>
			<DialogTrigger asChild>
				<Button>
					<Plus aria-hidden /> New invoice
				</Button>
			</DialogTrigger>
			<DialogContent title="New invoice" description="A draft: it gets its number when you finalize it.">
				<form className="grid gap-4" onSubmit={submit} noValidate>
					{profiles.length > 1 ? (
						<Field label="Bill from" error={errors.profileId}>
							<NativeSelect
								value={profileId}
								onChange={(event) => {
									setProfileId(event.target.value)
									setCurrency(profiles.find((one) => one.id === event.target.value)?.currency ?? currency)
								}}
							>
								{profiles.map((candidate) => (
									<option key={candidate.id} value={candidate.id}>
										{candidate.name}
									</option>
								))}
							</NativeSelect>
						</Field>
					) : null}
					<Field
						label="Client"
						description="Its name; the rest (or a workspace row) in the editor."
						error={errors['client.name']}
					>
						<Input value={clientName} onChange={(event) => setClientName(event.target.value)} />
					</Field>
					<Field label="Currency" error={errors.currency}>
						<NativeSelect value={currency} onChange={(event) => setCurrency(event.target.value)}>
							{currencyCodes.map((code) => (
								<option key={code} value={code}>
									{code}
									{code === profile?.currency ? ' (the profile’s)' : ''}
								</option>
							))}
						</NativeSelect>
					</Field>
					{failure ? (
						<Alert variant="error" title="The draft could not be created">
							{failure}
						</Alert>
					) : null}
					<DialogFooter>
						<Button type="submit" isLoading={isCreating}>
							Create the draft
						</Button>
					</DialogFooter>
				</form>
			</DialogContent>
		</Dialog>
	)
}
