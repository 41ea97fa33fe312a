import type { BillingInterval, Plan, PlansResponse } from '@blocksmith/contracts/subscriptions.ts'
import { zodResolver } from '@hookform/resolvers/zod'
import { useMutation } from '@tanstack/react-query'
import { MailCheck } from 'lucide-react'
import { useForm } from 'react-hook-form'
import { z } from 'zod'
import { Alert } from '#src/components/ui/alert.tsx'
import { Button } from '#src/components/ui/button.tsx'
import { Dialog, DialogClose, DialogContent, DialogFooter } from '#src/components/ui/dialog.tsx'
import { Field } from '#src/components/ui/field.tsx'
import { showFieldErrors } from '#src/components/ui/form-errors.ts'
import { Input } from '#src/components/ui/input.tsx'
import { ApiError, errorMessage } from '#src/lib/api-client.ts'
import { createSubscriptionWithoutLogin } from '../api/billing.ts'
import { intervalAdverb } from '../lib/billing-format.ts'

const startSchema = z.object({
	name: z.string().trim().min(1, 'Tell us your name.').max(100),
	email: z.email('Enter a valid e-mail address.'),
	organizationName: z.string().trim().max(100),
})
type StartValues = z.infer<typeof startSchema>

type StartSubscriptionDialogProps = {
	/** The plan chosen on the pricing page; null while the dialog is closed. */
	plan: Plan | null
	interval: BillingInterval
	catalogue: Pick<PlansResponse, 'trialDays' | 'provider'>
	onClose: () => void
}

/**
 * A visitor's start on a plan, without an account yet: name, work e-mail, and the organization's
 * name. With Stripe the next step is Checkout; with the local provider, the e-mail we send.
 */
export function StartSubscriptionDialog({ plan, interval, catalogue, onClose }: StartSubscriptionDialogProps) {
	const next =
		catalogue.provider === 'stripe'
			? 'Next, you enter your payment details on Stripe’s secure page.'
			: 'We e-mail you a link to confirm your address and set a password.'
	return (
		<Dialog open={plan !== null} onOpenChange={(open) => (open ? undefined : onClose())}>
			{plan ? (
				<DialogContent
					title={`Start with ${plan.name}`}
					description={`${
						catalogue.trialDays > 0
							? `${catalogue.trialDays} days free, no card needed; then billed ${intervalAdverb[interval]}.`
							: `Billed ${intervalAdverb[interval]}.`
					} ${next}`}
				>
					<StartForm plan={plan} interval={interval} />
				</DialogContent>
			) : null}
		</Dialog>
	)
}

function StartForm({ plan, interval }: { plan: Plan; interval: BillingInterval }) {
	const form = useForm<StartValues>({
		resolver: zodResolver(startSchema),
		defaultValues: { name: '', email: '', organizationName: '' },
	})
	const start = useMutation({
		mutationFn: ({ organizationName, ...values }: StartValues) =>
			createSubscriptionWithoutLogin({
				planId: plan.id,
				interval,
				...values,
				...(organizationName ? { organizationName } : {}),
			}),
		meta: { isFormMutation: true, isErrorShownInPage: true },
		onSuccess: (result) => {
			if (result.redirectUrl) {
				window.location.assign(result.redirectUrl)
			}
		},
		onError: (error) =>
			error instanceof ApiError && showFieldErrors(error, form.setError, ['name', 'email', 'organizationName']),
	})

	if (start.isSuccess && !start.data.redirectUrl) {
		return (
			<div className="grid gap-4">
				<Alert variant="success" title="Check your e-mail">
					{start.data.message}
				</Alert>
				<DialogFooter>
					<DialogClose asChild>
						<Button>
							<MailCheck aria-hidden /> Done
						</Button>
					</DialogClose>
				</DialogFooter>
			</div>
		)
	}
	const failure =
		start.isError && !(start.error instanceof ApiError && start.error.fieldErrors.length > 0)
			? errorMessage(start.error)
			: null
	return (
		<form className="grid gap-4" noValidate onSubmit={form.handleSubmit((values) => start.mutate(values))}>
			{failure ? <Alert variant="error">{failure}</Alert> : null}
			<Field label="Name" error={form.formState.errors.name}>
				<Input autoComplete="name" autoFocus {...form.register('name')} />
			</Field>
			<Field label="Work e-mail" error={form.formState.errors.email}>
				<Input type="email" autoComplete="email" {...form.register('email')} />
			</Field>
			<Field
				label="Organization name (optional)"
				description="Your team's or company's name; you can change it later."
				error={form.formState.errors.organizationName}
			>
				<Input autoComplete="organization" {...form.register('organizationName')} />
			</Field>
			<DialogFooter>
				<DialogClose asChild>
					<Button variant="outline">Cancel</Button>
				</DialogClose>
				<Button type="submit" isLoading={start.isPending || (start.isSuccess && Boolean(start.data.redirectUrl))}>
					Continue
				</Button>
			</DialogFooter>
		</form>
	)
}
