import { zodResolver } from '@hookform/resolvers/zod'
import { useMutation } from '@tanstack/react-query'
import { useForm } from 'react-hook-form'
import { toast } from 'sonner'
import { z } from 'zod'
import { Badge } from '#src/components/ui/badge.tsx'
import { Button } from '#src/components/ui/button.tsx'
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from '#src/components/ui/card.tsx'
import { Field } from '#src/components/ui/field.tsx'
import { showFieldErrors } from '#src/components/ui/form-errors.ts'
import { Input } from '#src/components/ui/input.tsx'
import { ApiError } from '#src/lib/api-client.ts'
import { useSession, useSessionStore } from '#src/lib/session-context.tsx'
import { resendConfirmation } from '../api/account.ts'
import { changeEmail, updateProfile } from '../api/settings.ts'

const nameSchema = z.object({ name: z.string().trim().min(1, 'Enter your name.').max(100) })
const emailSchema = z.object({ newEmail: z.email('Enter a valid e-mail address.') })

export function ProfileSettings() {
	const { user } = useSession()
	const session = useSessionStore()
	const nameForm = useForm<z.infer<typeof nameSchema>>({
		resolver: zodResolver(nameSchema),
		values: { name: user?.name ?? '' },
	})
	const emailForm = useForm<z.infer<typeof emailSchema>>({
		resolver: zodResolver(emailSchema),
		defaultValues: { newEmail: '' },
	})
	const saveName = useMutation({
		mutationFn: updateProfile,
		meta: { isFormMutation: true },
		onSuccess: async () => {
			await session.refresh()
			toast.success('Your name was saved.')
		},
		onError: (error) => error instanceof ApiError && showFieldErrors(error, nameForm.setError, ['name']),
	})
	const requestEmailChange = useMutation({
		mutationFn: (values: z.infer<typeof emailSchema>) => changeEmail(values.newEmail),
		meta: { isFormMutation: true },
		onSuccess: (_data, values) => {
			emailForm.reset()
			toast.success(
				user?.emailVerified
					? `To finish, open the link we sent to ${user.email}, then the one we send to ${values.newEmail}.`
					: `Your e-mail address is now ${values.newEmail}. Confirm it with the link we sent.`,
			)
			void session.refresh()
		},
		onError: (error) => error instanceof ApiError && showFieldErrors(error, emailForm.setError, ['newEmail']),
	})
	const resend = useMutation({
		mutationFn: resendConfirmation,
		onSuccess: () => toast.success('We sent the confirmation e-mail again.'),
	})
	if (!user) {
		return null
	}

	return (
		<div className="grid gap-6">
			<Card>
				<form noValidate onSubmit={nameForm.handleSubmit((values) => saveName.mutate(values))}>
					<CardHeader>
						<CardTitle>Profile</CardTitle>
						<CardDescription>How your teammates see you.</CardDescription>
					</CardHeader>
					<CardContent>
						<Field label="Name" error={nameForm.formState.errors.name} className="max-w-sm">
							<Input autoComplete="name" {...nameForm.register('name')} />
						</Field>
					</CardContent>
					<CardFooter>
						<Button type="submit" isLoading={saveName.isPending} disabled={!nameForm.formState.isDirty}>
							Save
						</Button>
					</CardFooter>
				</form>
			</Card>
			<Card>
				<form noValidate onSubmit={emailForm.handleSubmit((values) => requestEmailChange.mutate(values))}>
					<CardHeader>
						<CardTitle>E-mail address</CardTitle>
						<CardDescription>
							<span className="inline-flex flex-wrap items-center gap-2">
								{user.email}
								{user.emailVerified ? (
									<Badge variant="success">Confirmed</Badge>
								) : (
									<>
										<Badge variant="warning">Not confirmed</Badge>
										<Button variant="link" size="sm" isLoading={resend.isPending} onClick={() => resend.mutate()}>
											Send the confirmation again
										</Button>
									</>
								)}
							</span>
						</CardDescription>
					</CardHeader>
					<CardContent>
						<Field
							label="New e-mail address"
							description="We confirm the change with both addresses before it takes effect."
							error={emailForm.formState.errors.newEmail}
							className="max-w-sm"
						>
							<Input type="email" autoComplete="email" {...emailForm.register('newEmail')} />
						</Field>
					</CardContent>
					<CardFooter>
						<Button type="submit" variant="outline" isLoading={requestEmailChange.isPending}>
							Change e-mail address
						</Button>
					</CardFooter>
				</form>
			</Card>
		</div>
	)
}
