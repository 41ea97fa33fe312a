import type { Invoice } from '@blocksmith/contracts/invoice-documents.ts'
import { emailPlaceholders, type InvoiceProfile } from '@blocksmith/contracts/invoices.ts'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { Send } from 'lucide-react'
import { type FormEvent, useState } from 'react'
import { toast } from 'sonner'
import { Button } from '#src/components/ui/button.tsx'
import { Dialog, DialogClose, DialogContent, DialogFooter, DialogTrigger } from '#src/components/ui/dialog.tsx'
import { Field } from '#src/components/ui/field.tsx'
import { Input } from '#src/components/ui/input.tsx'
import { Skeleton } from '#src/components/ui/skeleton.tsx'
import { Textarea } from '#src/components/ui/textarea.tsx'
import { ApiError } from '#src/lib/api-client.ts'
import { sendInvoice } from '../api/invoice-actions.ts'
import { profilesQuery } from '../api/invoices.ts'
import { fieldErrorsOf } from './invoice-actions-errors.ts'

// Sending e-mails the invoice with its PDF attached and its public link. The subject and text
// start as the profile's, placeholders and all: the server fills them per invoice, so what the
// client reads is the same as an invoice sent on a schedule.

type Draft = { to: string; cc: string; subject: string; message: string }
const fields = ['to', 'cc', 'subject', 'message'] as const

/** "a@x.test, b@y.test" as a list; blanks dropped. */
function addresses(text: string): string[] {
	return text
		.split(/[,;\s]+/)
		.map((one) => one.trim())
		.filter(Boolean)
}

const looksLikeEmail = (text: string) => /^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(text)

export function SendDialog({ invoice }: { invoice: Invoice }) {
	const [isOpen, setIsOpen] = useState(false)
	return (
		<Dialog open={isOpen} onOpenChange={setIsOpen}>
			<DialogTrigger asChild>
				<Button variant={invoice.sentAt ? 'outline' : 'primary'}>
					<Send aria-hidden /> {invoice.sentAt ? 'Send again' : 'Send'}
				</Button>
			</DialogTrigger>
			<DialogContent
				size="lg"
				title={`Send ${invoice.number ?? 'the invoice'}`}
				description="By e-mail, with the PDF attached and the link to its page, where the client can view, download and pay it."
			>
				{isOpen ? <SendBody invoice={invoice} onDone={() => setIsOpen(false)} /> : null}
			</DialogContent>
		</Dialog>
	)
}

function SendBody({ invoice, onDone }: { invoice: Invoice; onDone: () => void }) {
	const profiles = useQuery(profilesQuery)
	if (profiles.isPending) {
		return <Skeleton className="h-64 w-full" />
	}
	// Without the profile (a read that failed) the fields start empty and the server uses its text.
	const profile = profiles.data?.find((one) => one.id === invoice.profileId) ?? null
	return <SendForm invoice={invoice} profile={profile} onDone={onDone} />
}

function SendForm({
	invoice,
	profile,
	onDone,
}: {
	invoice: Invoice
	profile: InvoiceProfile | null
	onDone: () => void
}) {
	const queryClient = useQueryClient()
	const [draft, setDraft] = useState<Draft>({
		to: invoice.client?.email ?? '',
		cc: '',
		subject: profile?.emailMessage.subject ?? '',
		message: profile?.emailMessage.body ?? '',
	})
	const [errors, setErrors] = useState<Record<string, string>>({})
	const change = (changes: Partial<Draft>) => setDraft((current) => ({ ...current, ...changes }))
	const send = useMutation({
		mutationFn: () =>
			sendInvoice(invoice.id, {
				to: addresses(draft.to),
				...(addresses(draft.cc).length > 0 ? { cc: addresses(draft.cc) } : {}),
				...(draft.subject.trim() ? { subject: draft.subject.trim() } : {}),
				...(draft.message.trim() ? { message: draft.message } : {}),
			}),
		meta: { isFormMutation: true },
		onSuccess: async () => {
			await queryClient.invalidateQueries({ queryKey: ['invoices'] })
			toast.success(`${invoice.number} is on its way to ${addresses(draft.to).join(', ')}.`)
			onDone()
		},
		onError: (error) => {
			if (error instanceof ApiError && error.fieldErrors.length > 0) {
				// `to.1` is the second address: the field shows it.
				const byField = fieldErrorsOf(error, fields)
				setErrors(Object.fromEntries(Object.entries(byField).map(([field, message]) => [field.split('.')[0], message])))
			}
		},
	})

	function submit(event: FormEvent): void {
		event.preventDefault()
		const local: Record<string, string> = {}
		const to = addresses(draft.to)
		if (to.length === 0) {
			local.to = 'Enter the client’s e-mail address.'
		} else if (!to.every(looksLikeEmail)) {
			local.to = 'Use e-mail addresses, separated by commas.'
		}
		if (!addresses(draft.cc).every(looksLikeEmail)) {
			local.cc = 'Use e-mail addresses, separated by commas.'
		}
		setErrors(local)
		if (Object.keys(local).length === 0) {
			send.mutate()
		}
	}

	return (
		<form className="grid gap-4" onSubmit={submit} noValidate>
			<Field label="To" description="Several addresses: separate them with commas." error={errors.to} isRequired>
				<Input
					type="text"
					inputMode="email"
					autoComplete="off"
					value={draft.to}
					onChange={(event) => change({ to: event.target.value })}
				/>
			</Field>
			<Field label="Cc" error={errors.cc}>
				<Input
					type="text"
					inputMode="email"
					autoComplete="off"
					value={draft.cc}
					onChange={(event) => change({ cc: event.target.value })}
				/>
			</Field>
			<Field label="Subject" error={errors.subject}>
				<Input value={draft.subject} onChange={(event) => change({ subject: event.target.value })} />
			</Field>
			<Field
				label="Message"
				description={`${emailPlaceholders.map((name) => `{${name}}`).join(', ')} are filled in when it is sent.`}
				error={errors.message}
			>
				<Textarea rows={8} value={draft.message} onChange={(event) => change({ message: event.target.value })} />
			</Field>
			<DialogFooter>
				<DialogClose asChild>
					<Button variant="outline">Cancel</Button>
				</DialogClose>
				<Button type="submit" isLoading={send.isPending}>
					<Send aria-hidden /> Send
				</Button>
			</DialogFooter>
		</form>
	)
}
