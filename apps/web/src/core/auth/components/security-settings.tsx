import { passwordSchema } from '@blocksmith/contracts/common.ts'
import { zodResolver } from '@hookform/resolvers/zod'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { Monitor, Smartphone } from 'lucide-react'
import { useForm } from 'react-hook-form'
import { toast } from 'sonner'
import { z } from 'zod'
import { Alert } from '#src/components/ui/alert.tsx'
import { Badge } from '#src/components/ui/badge.tsx'
import { Button } from '#src/components/ui/button.tsx'
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from '#src/components/ui/card.tsx'
import { ConfirmDialog } from '#src/components/ui/dialog.tsx'
import { Field } from '#src/components/ui/field.tsx'
import { showFieldErrors } from '#src/components/ui/form-errors.ts'
import { Input } from '#src/components/ui/input.tsx'
import { Skeleton } from '#src/components/ui/skeleton.tsx'
import { ApiError } from '#src/lib/api-client.ts'
import { useSession, useSessionStore } from '#src/lib/session-context.tsx'
import { changePassword, revokeAllSessions, revokeSession, sessionsQuery } from '../api/settings.ts'

const passwordFormSchema = z
	.object({
		currentPassword: z.string().min(1, 'Enter your current password.'),
		newPassword: passwordSchema,
		confirmation: z.string(),
	})
	.refine((values) => values.newPassword === values.confirmation, {
		path: ['confirmation'],
		message: 'The passwords do not match.',
	})
type PasswordValues = z.infer<typeof passwordFormSchema>

export function PasswordSettings() {
	const form = useForm<PasswordValues>({
		resolver: zodResolver(passwordFormSchema),
		defaultValues: { currentPassword: '', newPassword: '', confirmation: '' },
	})
	const queryClient = useQueryClient()
	const mutation = useMutation({
		mutationFn: (values: PasswordValues) =>
			changePassword({ currentPassword: values.currentPassword, newPassword: values.newPassword }),
		meta: { isFormMutation: true },
		onSuccess: async () => {
			form.reset()
			await queryClient.invalidateQueries({ queryKey: sessionsQuery.queryKey })
			toast.success('Your password was changed. Your other sessions were signed out.')
		},
		onError: (error) => {
			if (error instanceof ApiError && error.code === 'INVALID_CREDENTIALS') {
				form.setError('currentPassword', { type: 'server', message: 'This is not your current password.' })
				return
			}
			if (error instanceof ApiError) {
				showFieldErrors(error, form.setError, ['newPassword'])
			}
		},
	})
	return (
		<Card>
			<form noValidate onSubmit={form.handleSubmit((values) => mutation.mutate(values))}>
				<CardHeader>
					<CardTitle>Password</CardTitle>
					<CardDescription>Changing it signs out your other sessions.</CardDescription>
				</CardHeader>
				<CardContent className="grid max-w-sm gap-4">
					<Field label="Current password" error={form.formState.errors.currentPassword}>
						<Input type="password" autoComplete="current-password" {...form.register('currentPassword')} />
					</Field>
					<Field label="New password" description="At least 8 characters." error={form.formState.errors.newPassword}>
						<Input type="password" autoComplete="new-password" {...form.register('newPassword')} />
					</Field>
					<Field label="Repeat the new password" error={form.formState.errors.confirmation}>
						<Input type="password" autoComplete="new-password" {...form.register('confirmation')} />
					</Field>
				</CardContent>
				<CardFooter>
					<Button type="submit" isLoading={mutation.isPending}>
						Change password
					</Button>
				</CardFooter>
			</form>
		</Card>
	)
}

function describeDevice(userAgent: string | null): { label: string; isMobile: boolean } {
	if (!userAgent) {
		return { label: 'Unknown device', isMobile: false }
	}
	const isMobile = /Mobile|Android|iPhone|iPad/i.test(userAgent)
	const browser = /Edg\//.test(userAgent)
		? 'Edge'
		: /Firefox\//.test(userAgent)
			? 'Firefox'
			: /Chrome\//.test(userAgent)
				? 'Chrome'
				: /Safari\//.test(userAgent)
					? 'Safari'
					: 'Browser'
	const system = /Windows/.test(userAgent)
		? 'Windows'
		: /Mac OS X/.test(userAgent) && !isMobile
			? 'macOS'
			: /Android/.test(userAgent)
				? 'Android'
				: /iPhone|iPad/.test(userAgent)
					? 'iOS'
					: /Linux/.test(userAgent)
						? 'Linux'
						: ''
	return { label: system ? `${browser} on ${system}` : browser, isMobile }
}

export function SessionSettings() {
	const { token } = useSession()
	const session = useSessionStore()
	const queryClient = useQueryClient()
	const sessions = useQuery(sessionsQuery)
	// The stored token is "<session token>.<signature>"; the list names sessions by the first part.
	const currentToken = token?.split('.')[0]
	const revoke = useMutation({
		mutationFn: revokeSession,
		onSuccess: async () => {
			await queryClient.invalidateQueries({ queryKey: sessionsQuery.queryKey })
			toast.success('That session was signed out.')
		},
	})
	const sorted = [...(sessions.data ?? [])].sort((a, b) => b.updatedAt.localeCompare(a.updatedAt))

	return (
		<Card>
			<CardHeader>
				<CardTitle>Sessions</CardTitle>
				<CardDescription>Where your account is signed in. Sign out anything you don't recognise.</CardDescription>
			</CardHeader>
			<CardContent>
				{sessions.isPending ? (
					<Skeleton className="h-16" />
				) : sessions.isError ? (
					<Alert variant="error">The sessions could not be loaded.</Alert>
				) : (
					<ul className="divide-y rounded-lg border">
						{sorted.map((item) => {
							const device = describeDevice(item.userAgent)
							const Icon = device.isMobile ? Smartphone : Monitor
							const isCurrent = item.token === currentToken
							return (
								<li key={item.id} className="flex flex-wrap items-center gap-3 p-3">
									<Icon aria-hidden className="size-5 text-muted-foreground" />
									<div className="grid min-w-0 flex-1 gap-0.5">
										<span className="flex items-center gap-2 font-medium text-sm">
											{device.label}
											{isCurrent ? <Badge variant="success">This device</Badge> : null}
										</span>
										<span className="text-muted-foreground text-xs">
											{item.ipAddress ? `${item.ipAddress} · ` : ''}signed in{' '}
											{new Date(item.createdAt).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' })}
										</span>
									</div>
									{isCurrent ? null : (
										<Button variant="outline" size="sm" onClick={() => revoke.mutate(item.token)}>
											Sign out
										</Button>
									)}
								</li>
							)
						})}
					</ul>
				)}
			</CardContent>
			<CardFooter>
				<ConfirmDialog
					title="Sign out everywhere?"
					description="Every session of your account ends, this one included. You'll need your password to sign in again."
					confirmLabel="Sign out everywhere"
					isDestructive
					onConfirm={async () => {
						await revokeAllSessions()
						session.clear()
					}}
					trigger={<Button variant="outline">Sign out everywhere</Button>}
				/>
			</CardFooter>
		</Card>
	)
}
