import type { Portal, PortalDatabaseOption } from '@blocksmith/contracts/portals.ts'
import type { WorkspaceTool } from '@blocksmith/contracts/workspaces.ts'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { DoorOpen, Sparkles } from 'lucide-react'
import { useMemo, useState } from 'react'
import { Link } from 'react-router'
import { paths } from '#src/app/paths.ts'
import { Alert } from '#src/components/ui/alert.tsx'
import { Button } from '#src/components/ui/button.tsx'
import { Checkbox } from '#src/components/ui/checkbox.tsx'
import { EmptyState } from '#src/components/ui/empty-state.tsx'
import { Field } from '#src/components/ui/field.tsx'
import { Input } from '#src/components/ui/input.tsx'
import { Skeleton, SkeletonGroup } from '#src/components/ui/skeleton.tsx'
import { orgDetailsQuery } from '#src/core/teams/api/teams.ts'
import { ApiError, errorMessage } from '#src/lib/api-client.ts'
import { portalDatabasesQuery, portalKeys, saveSetup } from '../api/portals.ts'
import { companiesCandidate, pagesFor, suggestedPages } from '../lib/first-portal.ts'
import { portalLink, slugify } from '../lib/portal-form.ts'
import { describeRule } from '../lib/rules.ts'

/**
 * A new portal, suggested from the workspace: the organization's name, a slug from it, the
 * clients database as the companies and the databases related to it as pages shared
 * company-wide. The person reviews it and creates it in one click; everything is editable after.
 */
export function FirstPortal({ onCreated, isFirst }: { onCreated: (portal: Portal) => void; isFirst: boolean }) {
	const org = useQuery(orgDetailsQuery)
	const local = useQuery(portalDatabasesQuery('local', {}))
	// Notion may not be connected: then it offers nothing, without a toast.
	const notion = useQuery({ ...portalDatabasesQuery('notion', {}), meta: { isErrorShownInPage: true }, retry: false })

	const choice = useMemo(() => {
		const pick = (tool: WorkspaceTool, databases: PortalDatabaseOption[] | undefined) => {
			const companies = databases ? companiesCandidate(databases) : null
			return databases && databases.length > 0 ? { tool, databases, companies } : null
		}
		const fromLocal = pick('local', local.data)
		const fromNotion = pick('notion', notion.isSuccess ? notion.data : undefined)
		// The tool whose workspace has clients to share by; the built-in one first (the sample is there).
		return fromLocal?.companies ? fromLocal : fromNotion?.companies ? fromNotion : (fromLocal ?? fromNotion)
	}, [local.data, notion.data, notion.isSuccess])

	const withRules = useQuery({
		...portalDatabasesQuery(choice?.tool ?? 'local', { companiesDatabaseId: choice?.companies?.id }),
		enabled: Boolean(choice?.companies),
	})

	if (local.isPending || org.isPending || (notion.isPending && !local.data?.length) || withRules.isLoading) {
		return (
			<SkeletonGroup label="Looking at your workspace…" className="grid gap-3">
				<Skeleton className="h-8 w-72" />
				<Skeleton className="h-48 w-full" />
			</SkeletonGroup>
		)
	}
	if (local.isError) {
		return (
			<Alert variant="error" title="Your databases could not be read">
				{errorMessage(local.error)}
			</Alert>
		)
	}
	if (!choice) {
		return (
			<EmptyState
				icon={DoorOpen}
				title="A portal shows your databases to your clients"
				description="Each client signs in with a link by e-mail and sees only their own projects, invoices and files. Start with the sample workspace, or connect Notion."
				action={
					<Button asChild>
						<Link to={paths.workspaces}>
							<Sparkles aria-hidden /> Go to Workspaces
						</Link>
					</Button>
				}
			/>
		)
	}
	return (
		<NewPortalForm
			key={`${choice.tool}-${choice.companies?.id ?? ''}-${withRules.dataUpdatedAt}`}
			tool={choice.tool}
			orgName={org.data?.name ?? ''}
			companies={choice.companies}
			databases={withRules.data ?? choice.databases}
			isFirst={isFirst}
			onCreated={onCreated}
		/>
	)
}

function NewPortalForm({
	tool,
	orgName,
	companies,
	databases,
	isFirst,
	onCreated,
}: {
	tool: WorkspaceTool
	orgName: string
	companies: PortalDatabaseOption | null
	databases: PortalDatabaseOption[]
	isFirst: boolean
	onCreated: (portal: Portal) => void
}) {
	const queryClient = useQueryClient()
	const suggestions = useMemo(() => suggestedPages(databases, companies), [databases, companies])
	const [name, setName] = useState(orgName || 'Client portal')
	const [slug, setSlug] = useState(slugify(orgName || 'client portal'))
	const [isSlugEdited, setIsSlugEdited] = useState(false)
	const [checked, setChecked] = useState(
		() => new Set(suggestions.filter((one) => one.isChecked).map((one) => one.database.id)),
	)
	const [errors, setErrors] = useState<Record<string, string>>({})

	const create = useMutation({
		mutationFn: () =>
			saveSetup(tool, {
				name,
				slug,
				access: { companiesDatabaseId: companies?.id ?? null },
				pages: pagesFor(suggestions.filter((one) => checked.has(one.database.id))),
			}),
		meta: { isFormMutation: true },
		onSuccess: async (portal) => {
			await queryClient.invalidateQueries({ queryKey: portalKeys.setup })
			onCreated(portal)
		},
		onError: (error) => {
			if (!(error instanceof ApiError)) {
				return
			}
			const next: Record<string, string> = {}
			for (const problem of error.fieldErrors) {
				const key = problem.field === 'name' || problem.field === 'slug' ? problem.field : 'other'
				next[key] = key === 'other' ? `${problem.field}: ${problem.message}` : problem.message
			}
			// A taken slug is a 409 that may name no field.
			if (error.status === 409 && error.fieldErrors.length === 0) {
				next.slug = error.detail
			}
			setErrors(next)
		},
	})

	return (
		<form
			aria-label="New portal"
			noValidate
			className="grid gap-5 rounded-xl border p-4 sm:p-6"
			onSubmit={(event) => {
				event.preventDefault()
				setErrors({})
				create.mutate()
			}}
		>
			<div className="grid gap-1">
				<h2 className="font-semibold text-lg">{isFirst ? 'Open your first portal' : 'New portal'}</h2>
				<p className="text-muted-foreground text-sm">
					Your clients sign in with a link by e-mail and see only their own rows. Here is a start from your workspace;
					you can change all of it afterwards.
				</p>
			</div>
			<div className="grid items-start gap-4 sm:grid-cols-2">
				<Field label="Portal name" isRequired error={errors.name}>
					<Input
						value={name}
						onChange={(event) => {
							setName(event.target.value)
							if (!isSlugEdited) {
								setSlug(slugify(event.target.value))
							}
						}}
					/>
				</Field>
				<Field label="Address" isRequired error={errors.slug} description={portalLink(slug)}>
					<Input
						value={slug}
						onChange={(event) => {
							setIsSlugEdited(true)
							setSlug(event.target.value.toLowerCase())
						}}
					/>
				</Field>
			</div>
			{companies ? (
				<div className="grid gap-3">
					<p className="text-sm">
						Clients are the rows of <span className="font-medium">{companies.name}</span>: each member you invite
						belongs to one, and sees what is shared with that client.
					</p>
					{suggestions.length > 0 ? (
						<fieldset className="grid gap-2">
							<legend className="mb-1 font-medium text-sm">Pages</legend>
							{suggestions.map(({ database, rule }) => (
								<Field
									key={database.id}
									orientation="horizontal"
									label={database.name}
									description={describeRule(rule, database)}
								>
									<Checkbox
										checked={checked.has(database.id)}
										onCheckedChange={(value) =>
											setChecked((current) => {
												const next = new Set(current)
												if (value === true) {
													next.add(database.id)
												} else {
													next.delete(database.id)
												}
												return next
											})
										}
									/>
								</Field>
							))}
						</fieldset>
					) : (
						<p className="text-muted-foreground text-sm">
							No database relates to {companies.name} yet: add pages after creating the portal.
						</p>
					)}
				</div>
			) : (
				<p className="text-muted-foreground text-sm">
					None of your databases says which client a row belongs to yet: after creating the portal, choose how members
					are found and which rows each one sees.
				</p>
			)}
			{errors.other ? <Alert variant="error">{errors.other}</Alert> : null}
			<div className="flex flex-wrap items-center gap-3">
				<Button type="submit" isLoading={create.isPending}>
					Create portal
				</Button>
				<p className="text-muted-foreground text-sm">Nobody can open it until you invite them.</p>
			</div>
		</form>
	)
}
