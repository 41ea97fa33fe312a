import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { CreditCard } from 'lucide-react'
import { type FormEvent, useState } from 'react'
import { toast } from 'sonner'
import { Alert } from '#src/components/ui/alert.tsx'
import { Badge } from '#src/components/ui/badge.tsx'
import { Button } from '#src/components/ui/button.tsx'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '#src/components/ui/card.tsx'
import { ConfirmDialog } from '#src/components/ui/dialog.tsx'
import { Field } from '#src/components/ui/field.tsx'
import { Input } from '#src/components/ui/input.tsx'
import { Skeleton } from '#src/components/ui/skeleton.tsx'
import { ApiError, errorMessage } from '#src/lib/api-client.ts'
import { connectStripe, disconnectStripe, stripeAccountKey, stripeAccountQuery } from '../api/invoice-public.ts'

/**
 * The profile's own Stripe account, which its invoices are paid into on their public page (never
 * the product's billing account). Owners and admins connect it with a secret key (checked by the
 * server, which creates the webhook in that account) and disconnect it; members see its state.
 */
export function StripeAccountSection({ profileId, canEdit }: { profileId: string; canEdit: boolean }) {
	const queryClient = useQueryClient()
	const account = useQuery(stripeAccountQuery(profileId))
	const [secretKey, setSecretKey] = useState('')
	const [keyError, setKeyError] = useState<string | null>(null)
	const store = (data: Awaited<ReturnType<typeof connectStripe>>) =>
		queryClient.setQueryData(stripeAccountKey(profileId), data)
	const connect = useMutation({
		mutationFn: () => connectStripe(profileId, secretKey.trim()),
		onSuccess: (data) => {
			store(data)
			setSecretKey('')
			toast.success(`Stripe account ${data.accountName ?? ''} connected`.replace('  ', ' '))
		},
		onError: (error) => {
			const onKey = error instanceof ApiError ? error.fieldErrors.find((one) => one.field === 'secretKey') : undefined
			setKeyError(onKey ? onKey.message : errorMessage(error))
		},
	})
	const disconnect = useMutation({
		mutationFn: () => disconnectStripe(profileId),
		onSuccess: (data) => {
			store(data)
			toast.success('Stripe account disconnected')
		},
	})

	function submit(event: FormEvent) {
		event.preventDefault()
		setKeyError(null)
		if (!secretKey.trim()) {
			setKeyError('Paste the secret key from your Stripe dashboard.')
			return
		}
		connect.mutate()
	}

	return (
		<Card aria-labelledby="stripe-account-heading">
			<CardHeader>
				<CardTitle id="stripe-account-heading" className="flex items-center gap-2">
					<CreditCard aria-hidden className="size-4" /> Online payments
				</CardTitle>
				<CardDescription>
					Clients pay on the invoice’s page through your own Stripe account; the money goes straight to it.
				</CardDescription>
			</CardHeader>
			<CardContent className="grid gap-4">
				{account.isPending ? (
					<Skeleton className="h-10 w-full" />
				) : account.isError ? (
					<Alert variant="error" title="The Stripe account could not be read">
						{errorMessage(account.error)}
					</Alert>
				) : account.data.isConnected ? (
					<div className="flex flex-wrap items-center justify-between gap-3">
						<p className="flex flex-wrap items-center gap-2 text-sm">
							Connected to <strong>{account.data.accountName ?? account.data.accountId}</strong>
							<Badge variant={account.data.isLive ? 'success' : 'warning'}>
								{account.data.isLive ? 'Live' : 'Test mode'}
							</Badge>
						</p>
						{canEdit ? (
							<ConfirmDialog
								title="Disconnect Stripe?"
								description="Clients can no longer pay these invoices online. Payments already made stay recorded."
								confirmLabel="Disconnect"
								isDestructive
								onConfirm={() => disconnect.mutateAsync()}
								trigger={
									<Button variant="outline" size="sm">
										Disconnect
									</Button>
								}
							/>
						) : null}
					</div>
				) : canEdit ? (
					<form className="grid gap-3" onSubmit={submit} noValidate>
						<Field
							label="Stripe secret key"
							description="From Developers → API keys in your Stripe dashboard (sk_live_… or sk_test_…). It is stored encrypted."
							error={keyError}
						>
							<Input
								type="password"
								autoComplete="off"
								spellCheck={false}
								value={secretKey}
								onChange={(event) => setSecretKey(event.target.value)}
							/>
						</Field>
						<Button type="submit" className="w-fit" isLoading={connect.isPending}>
							Connect Stripe
						</Button>
					</form>
				) : (
					<p className="text-muted-foreground text-sm">
						Not connected. An owner or admin can connect the company’s Stripe account.
					</p>
				)}
			</CardContent>
		</Card>
	)
}
