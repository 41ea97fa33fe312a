import type { Workspace } from '@blocksmith/contracts/workspaces.ts'
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { FolderPlus, KeyRound, Plug } from 'lucide-react'
import { useState } from 'react'
import { toast } from 'sonner'
import { Button } from '#src/components/ui/button.tsx'
import { Dialog, DialogContent, DialogFooter, DialogTrigger } from '#src/components/ui/dialog.tsx'
import { Field } from '#src/components/ui/field.tsx'
import { Input } from '#src/components/ui/input.tsx'
import { ApiError } from '#src/lib/api-client.ts'
import { connectWorkspace, workspaceKeys } from '../api/workspaces.ts'

function fieldError(error: unknown, field: string): string | undefined {
	return error instanceof ApiError
		? error.fieldErrors.find((candidate) => candidate.field === field)?.message
		: undefined
}

/** Connect Notion: through Notion's OAuth page, or with an internal integration's secret. */
export function ConnectNotionDialog({
	onConnected,
	variant = 'outline',
}: {
	onConnected: (workspace: Workspace) => void
	variant?: 'outline' | 'primary'
}) {
	const [isOpen, setIsOpen] = useState(false)
	const [token, setToken] = useState('')
	const [isTokenTouched, setIsTokenTouched] = useState(false)
	const queryClient = useQueryClient()
	const oauth = useMutation({
		mutationFn: () => connectWorkspace({ tool: 'notion', method: 'oauth' }),
		onSuccess: (result) => {
			if ('authorizeUrl' in result) {
				window.location.assign(result.authorizeUrl)
			}
		},
	})
	const withToken = useMutation({
		mutationFn: (secret: string) => connectWorkspace({ tool: 'notion', method: 'token', token: secret }),
		meta: { isFormMutation: true },
		onSuccess: async (result) => {
			if ('workspace' in result) {
				await queryClient.invalidateQueries({ queryKey: workspaceKeys.list })
				toast.success(`${result.workspace.name} is connected. Its databases are syncing.`)
				setIsOpen(false)
				setToken('')
				onConnected(result.workspace)
			}
		},
	})
	const trimmed = token.trim()
	const localProblem = isTokenTouched && trimmed.length < 20 ? 'Paste the whole secret (ntn_… or secret_…).' : undefined
	const serverProblem =
		fieldError(withToken.error, 'token') ?? (withToken.error instanceof ApiError ? withToken.error.detail : undefined)

	return (
		<Dialog
			open={isOpen}
			onOpenChange={(open) => {
				setIsOpen(open)
				if (!open) {
					withToken.reset()
					setIsTokenTouched(false)
				}
			}}
		>
			<DialogTrigger asChild>
				<Button variant={variant}>
					<Plug aria-hidden /> Connect Notion
				</Button>
			</DialogTrigger>
			<DialogContent
				title="Connect Notion"
				description="Your Notion databases are mirrored here and kept fresh by sync; modules write back through a queue that retries."
			>
				<section className="grid gap-3 rounded-lg border p-4" aria-labelledby="connect-oauth">
					<h3 id="connect-oauth" className="font-medium text-sm">
						Connect with Notion
					</h3>
					<p className="text-muted-foreground text-sm">
						Notion asks you which pages and databases to share. You come back here when it is done.
					</p>
					<div>
						<Button isLoading={oauth.isPending} onClick={() => oauth.mutate()}>
							Connect with Notion
						</Button>
					</div>
				</section>
				<form
					className="grid gap-3 rounded-lg border p-4"
					aria-labelledby="connect-token"
					noValidate
					onSubmit={(event) => {
						event.preventDefault()
						setIsTokenTouched(true)
						if (trimmed.length >= 20) {
							withToken.mutate(trimmed)
						}
					}}
				>
					<h3 id="connect-token" className="flex items-center gap-2 font-medium text-sm">
						<KeyRound aria-hidden className="size-4 text-muted-foreground" /> Paste an internal integration token
					</h3>
					<Field
						label="Integration secret"
						description="Create an integration at notion.so/my-integrations, copy its secret, and add the integration to your databases (••• → Connections)."
						error={localProblem ?? serverProblem}
					>
						<Input
							type="password"
							autoComplete="off"
							spellCheck={false}
							placeholder="ntn_…"
							value={token}
							onChange={(event) => setToken(event.target.value)}
							onBlur={() => setIsTokenTouched(Boolean(token))}
						/>
					</Field>
					<div>
						<Button type="submit" variant="outline" isLoading={withToken.isPending}>
							Connect with token
						</Button>
					</div>
				</form>
			</DialogContent>
		</Dialog>
	)
}

/** A workspace of databases kept in the product itself. */
export function NewLocalWorkspaceDialog({ onCreated }: { onCreated: (workspace: Workspace) => void }) {
	const [isOpen, setIsOpen] = useState(false)
	const [name, setName] = useState('')
	const [isSubmitted, setIsSubmitted] = useState(false)
	const queryClient = useQueryClient()
	const create = useMutation({
		mutationFn: (workspaceName: string) => connectWorkspace({ tool: 'local', name: workspaceName }),
		meta: { isFormMutation: true },
		onSuccess: async (result) => {
			if ('workspace' in result) {
				await queryClient.invalidateQueries({ queryKey: workspaceKeys.list })
				toast.success(`${result.workspace.name} is ready. Add a database or import a CSV file.`)
				setIsOpen(false)
				setName('')
				setIsSubmitted(false)
				onCreated(result.workspace)
			}
		},
	})
	const problem =
		(isSubmitted && !name.trim() ? 'Give the workspace a name.' : undefined) ?? fieldError(create.error, 'name')
	return (
		<Dialog
			open={isOpen}
			onOpenChange={(open) => {
				setIsOpen(open)
				if (!open) {
					create.reset()
				}
			}}
		>
			<DialogTrigger asChild>
				<Button variant="outline">
					<FolderPlus aria-hidden /> New local workspace
				</Button>
			</DialogTrigger>
			<DialogContent
				title="New local workspace"
				description="Databases kept here, with a table editor and CSV import — no Notion needed."
				size="sm"
			>
				<form
					className="grid gap-4"
					noValidate
					onSubmit={(event) => {
						event.preventDefault()
						setIsSubmitted(true)
						if (name.trim()) {
							create.mutate(name.trim())
						}
					}}
				>
					<Field label="Name" error={problem}>
						<Input value={name} maxLength={100} autoFocus onChange={(event) => setName(event.target.value)} />
					</Field>
					<DialogFooter>
						<Button variant="outline" onClick={() => setIsOpen(false)}>
							Cancel
						</Button>
						<Button type="submit" isLoading={create.isPending}>
							Create workspace
						</Button>
					</DialogFooter>
				</form>
			</DialogContent>
		</Dialog>
	)
}
