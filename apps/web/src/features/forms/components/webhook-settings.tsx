import {
	createWebhookSchema,
	type FormWebhook,
	maxWebhooksPerForm,
	type WebhookDelivery,
} from '@blocksmith/contracts/forms.ts'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { Copy, Eye, EyeOff, RotateCw, Trash2, Webhook } from 'lucide-react'
import { useId, useState } from 'react'
import { toast } from 'sonner'
import { Badge } from '#src/components/ui/badge.tsx'
import { Button } from '#src/components/ui/button.tsx'
import { ConfirmDialog } from '#src/components/ui/dialog.tsx'
import { Field } from '#src/components/ui/field.tsx'
import { Input } from '#src/components/ui/input.tsx'
import { Switch } from '#src/components/ui/switch.tsx'
import { useIsOwnerOrAdmin } from '#src/core/teams/hooks/use-role.ts'
import { ApiError } from '#src/lib/api-client.ts'
import { formatDateTime } from '#src/workspaces/lib/values.ts'
import {
	createWebhook,
	deleteWebhook,
	deliveriesQuery,
	formKeys,
	retryWebhookDelivery,
	updateWebhook,
	webhooksQuery,
} from '../api/forms.ts'

// Webhooks are saved as they are edited (not with the draft): each has a secret the server makes,
// and its deliveries live on their own.

const deliveryStates: Record<
	WebhookDelivery['state'],
	{ label: string; variant: 'neutral' | 'success' | 'warning' | 'error' }
> = {
	pending: { label: 'Pending', variant: 'neutral' },
	delivered: { label: 'Delivered', variant: 'success' },
	failed: { label: 'Failed, retrying', variant: 'warning' },
	dead: { label: 'Gave up', variant: 'error' },
}

async function copy(text: string, what: string): Promise<void> {
	try {
		await navigator.clipboard.writeText(text)
		toast.success(`The ${what} was copied.`)
	} catch {
		toast.error(`The ${what} could not be copied: select it and copy it by hand.`)
	}
}

/** Owners and admins only: a webhook's secret (and often its URL) is a credential. */
export function WebhookSettings({ formId }: { formId: string }) {
	const id = useId()
	const canManage = useIsOwnerOrAdmin()
	if (canManage) {
		return <ManagedWebhooks formId={formId} />
	}
	return (
		<section className="grid gap-2" aria-labelledby={`${id}-heading`}>
			<h3 id={`${id}-heading`} className="flex items-center gap-2 font-semibold text-sm">
				<Webhook aria-hidden className="size-4 text-muted-foreground" /> Webhooks
			</h3>
			<p className="text-muted-foreground text-sm">
				{canManage === undefined
					? 'Loading the webhooks…'
					: 'Each answer can be sent to other services, signed. Only an owner or admin can see and add webhooks: each holds a signing secret.'}
			</p>
		</section>
	)
}

function ManagedWebhooks({ formId }: { formId: string }) {
	const id = useId()
	const queryClient = useQueryClient()
	const webhooks = useQuery(webhooksQuery(formId))
	const [url, setUrl] = useState('')
	const [localProblem, setLocalProblem] = useState<string | null>(null)
	const add = useMutation({
		mutationFn: createWebhook,
		onSuccess: async () => {
			setUrl('')
			toast.success('The webhook was added. Each new answer is sent to it.')
			await queryClient.invalidateQueries({ queryKey: formKeys.webhooks(formId) })
		},
	})
	const serverProblem =
		add.error instanceof ApiError
			? (add.error.fieldErrors.find((problem) => problem.field === 'url')?.message ?? add.error.detail)
			: null
	const count = webhooks.data?.length ?? 0

	return (
		<section className="grid gap-4" aria-labelledby={`${id}-heading`}>
			<div className="grid gap-0.5">
				<h3 id={`${id}-heading`} className="flex items-center gap-2 font-semibold text-sm">
					<Webhook aria-hidden className="size-4 text-muted-foreground" /> Webhooks
				</h3>
				<p className="text-muted-foreground text-sm">
					Each answer is sent as JSON in a POST to these addresses, signed as Standard Webhooks are: verify the{' '}
					<code>webhook-signature</code> header (HMAC-SHA256 of <code>webhook-id</code>, <code>webhook-timestamp</code>{' '}
					and the body) with the webhook's secret.
				</p>
			</div>
			<form
				className="flex flex-wrap items-start gap-2"
				noValidate
				onSubmit={(event) => {
					event.preventDefault()
					const parsed = createWebhookSchema.safeParse({ url: url.trim() })
					if (!parsed.success) {
						setLocalProblem(parsed.error.issues[0]?.message ?? 'Check the address.')
						return
					}
					add.mutate({ formId, url: parsed.data.url })
				}}
			>
				<Field label="Webhook URL" error={localProblem ?? serverProblem ?? undefined} className="min-w-0 flex-1">
					<Input
						type="url"
						inputMode="url"
						maxLength={2000}
						placeholder="https://example.com/hooks/forms"
						value={url}
						onChange={(event) => {
							setUrl(event.target.value)
							setLocalProblem(null)
							add.reset()
						}}
					/>
				</Field>
				<Button
					type="submit"
					variant="outline"
					className="mt-6"
					isLoading={add.isPending}
					disabled={count >= maxWebhooksPerForm}
				>
					Add webhook
				</Button>
			</form>
			{webhooks.isPending ? (
				<p className="text-muted-foreground text-sm">Loading the webhooks…</p>
			) : webhooks.isError ? (
				<p className="text-error text-sm">The webhooks could not be loaded. Reload the page to try again.</p>
			) : webhooks.data.length === 0 ? (
				<p className="text-muted-foreground text-sm">No webhooks yet.</p>
			) : (
				<ul aria-label="Webhooks" className="grid gap-3">
					{webhooks.data.map((webhook) => (
						<li key={webhook.id}>
							<WebhookItem formId={formId} webhook={webhook} />
						</li>
					))}
				</ul>
			)}
		</section>
	)
}

function WebhookItem({ formId, webhook }: { formId: string; webhook: FormWebhook }) {
	const queryClient = useQueryClient()
	const [isSecretShown, setIsSecretShown] = useState(false)
	const [isDeliveriesShown, setIsDeliveriesShown] = useState(false)
	const refresh = () => queryClient.invalidateQueries({ queryKey: formKeys.webhooks(formId) })
	const toggle = useMutation({
		mutationFn: updateWebhook,
		onSuccess: async (saved) => {
			toast.success(saved.enabled ? 'The webhook is on.' : 'The webhook is off: answers are not sent to it.')
			await refresh()
		},
	})
	const remove = useMutation({
		mutationFn: deleteWebhook,
		onSuccess: async () => {
			toast.success('The webhook was deleted.')
			await refresh()
		},
	})
	const enabled = toggle.isPending ? (toggle.variables?.enabled ?? webhook.enabled) : webhook.enabled
	return (
		<article aria-label={`Webhook ${webhook.url}`} className="grid gap-3 rounded-lg border p-3 sm:p-4">
			<div className="flex flex-wrap items-center gap-3">
				<span className="min-w-0 flex-1 break-all font-medium text-sm">{webhook.url}</span>
				<span className="flex items-center gap-2 text-sm">
					<Switch
						checked={enabled}
						aria-label={`Send answers to ${webhook.url}`}
						disabled={toggle.isPending}
						onCheckedChange={(checked) => toggle.mutate({ formId, webhookId: webhook.id, enabled: checked })}
					/>
					<span aria-hidden>{enabled ? 'On' : 'Off'}</span>
				</span>
				<ConfirmDialog
					title="Delete this webhook?"
					description={`Answers are no longer sent to ${webhook.url}, and its delivery history is removed.`}
					confirmLabel="Delete webhook"
					isDestructive
					onConfirm={() => remove.mutateAsync({ formId, webhookId: webhook.id })}
					trigger={
						<Button variant="ghost" size="sm" className="text-error" aria-label={`Delete the webhook ${webhook.url}`}>
							<Trash2 aria-hidden />
						</Button>
					}
				/>
			</div>
			<div className="flex flex-wrap items-center gap-2 text-sm">
				<span className="text-muted-foreground">Secret</span>
				<code className="min-w-0 break-all rounded bg-muted px-1.5 py-0.5 text-xs">
					{isSecretShown ? webhook.secret : 'whsec_••••••••••••'}
				</code>
				<Button
					variant="ghost"
					size="sm"
					aria-pressed={isSecretShown}
					aria-label={`Show the secret of ${webhook.url}`}
					onClick={() => setIsSecretShown((shown) => !shown)}
				>
					{isSecretShown ? <EyeOff aria-hidden /> : <Eye aria-hidden />}
					{isSecretShown ? 'Hide' : 'Show'}
				</Button>
				<Button
					variant="ghost"
					size="sm"
					aria-label={`Copy the secret of ${webhook.url}`}
					onClick={() => void copy(webhook.secret, 'secret')}
				>
					<Copy aria-hidden /> Copy
				</Button>
			</div>
			<div>
				<Button
					variant="outline"
					size="sm"
					aria-expanded={isDeliveriesShown}
					aria-label={`Recent deliveries to ${webhook.url}`}
					onClick={() => setIsDeliveriesShown((shown) => !shown)}
				>
					{isDeliveriesShown ? 'Hide recent deliveries' : 'Show recent deliveries'}
				</Button>
			</div>
			{isDeliveriesShown ? <Deliveries formId={formId} webhook={webhook} /> : null}
		</article>
	)
}

function Deliveries({ formId, webhook }: { formId: string; webhook: FormWebhook }) {
	const queryClient = useQueryClient()
	const deliveries = useQuery(deliveriesQuery(formId, webhook.id))
	const retry = useMutation({
		mutationFn: retryWebhookDelivery,
		onSuccess: async () => {
			toast.success('The delivery is sent again.')
			await queryClient.invalidateQueries({ queryKey: formKeys.deliveries(formId, webhook.id) })
		},
		onError: () => toast.error('The delivery could not be retried. Try again.'),
	})
	if (deliveries.isPending) {
		return <p className="text-muted-foreground text-sm">Loading the deliveries…</p>
	}
	if (deliveries.isError) {
		return <p className="text-error text-sm">The deliveries could not be loaded.</p>
	}
	if (deliveries.data.length === 0) {
		return (
			<p className="text-muted-foreground text-sm">Nothing was sent yet: deliveries appear with the next answer.</p>
		)
	}
	return (
		<ul aria-label={`Deliveries to ${webhook.url}`} className="grid gap-2">
			{deliveries.data.map((delivery) => {
				const state = deliveryStates[delivery.state]
				const canRetry = delivery.state === 'failed' || delivery.state === 'dead'
				return (
					<li key={delivery.id} className="grid gap-1.5 rounded-md bg-muted/50 p-2 text-sm">
						<div className="flex flex-wrap items-center gap-2">
							<Badge variant={state.variant}>{state.label}</Badge>
							<span className="text-muted-foreground">
								Answer <code className="text-xs">{delivery.submissionId}</code>,{' '}
								<time dateTime={delivery.createdAt}>{formatDateTime(delivery.createdAt)}</time>
							</span>
							{delivery.nextAttemptAt && delivery.state !== 'delivered' ? (
								<span className="text-muted-foreground text-xs">
									Next try <time dateTime={delivery.nextAttemptAt}>{formatDateTime(delivery.nextAttemptAt)}</time>
								</span>
							) : null}
							{canRetry ? (
								<Button
									variant="outline"
									size="sm"
									className="ml-auto"
									aria-label={`Retry the delivery of answer ${delivery.submissionId}`}
									isLoading={retry.isPending && retry.variables?.deliveryId === delivery.id}
									onClick={() => retry.mutate({ formId, webhookId: webhook.id, deliveryId: delivery.id })}
								>
									<RotateCw aria-hidden /> Retry
								</Button>
							) : null}
						</div>
						{delivery.attempts.length > 0 ? (
							<ol aria-label={`Attempts for answer ${delivery.submissionId}`} className="grid gap-0.5 text-xs">
								{delivery.attempts.map((attempt) => (
									<li key={attempt.at} className="flex flex-wrap gap-x-3">
										<time dateTime={attempt.at}>{formatDateTime(attempt.at)}</time>
										<span>{attempt.status === null ? 'No answer' : `HTTP ${attempt.status}`}</span>
										<span className="text-muted-foreground">{attempt.ms} ms</span>
										{attempt.error ? <span className="text-error">{attempt.error}</span> : null}
									</li>
								))}
							</ol>
						) : null}
					</li>
				)
			})}
		</ul>
	)
}
