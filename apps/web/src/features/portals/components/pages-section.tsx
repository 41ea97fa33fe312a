import type { PortalDatabaseOption, PortalPage } from '@blocksmith/contracts/portals.ts'
import type { WorkspaceTool } from '@blocksmith/contracts/workspaces.ts'
import { ArrowDown, ArrowUp, ChevronDown, Plus, Trash2 } from 'lucide-react'
import { useState } from 'react'
import { useWatch } from 'react-hook-form'
import { Alert } from '#src/components/ui/alert.tsx'
import { Button } from '#src/components/ui/button.tsx'
import { cn } from '#src/components/ui/cn.ts'
import { Field } from '#src/components/ui/field.tsx'
import { NativeSelect } from '#src/components/ui/native-select.tsx'
import { Skeleton } from '#src/components/ui/skeleton.tsx'
import { pageFor } from '../lib/first-portal.ts'
import { describeRule, preferredRule } from '../lib/rules.ts'
import { Section } from './branding-section.tsx'
import { hasErrorAt, type PortalForm } from './form-parts.ts'
import { PageEditor } from './page-editor.tsx'

/** A rule not chosen yet: the schema refuses its empty property, so saving asks for one. */
const unsetRule = { kind: 'company', property: '' } as const

/** Each exposed database is a page of the portal, in the order of its menu. */
export function PagesSection({
	form,
	tool,
	databases,
	isLoading,
}: {
	form: PortalForm
	tool: WorkspaceTool
	databases: PortalDatabaseOption[] | undefined
	isLoading: boolean
}) {
	const pages = useWatch({ control: form.control, name: 'pages' })
	const [openId, setOpenId] = useState<string | null>(null)
	const [adding, setAdding] = useState('')
	const byId = new Map((databases ?? []).map((database) => [database.id, database]))
	const setPages = (next: PortalPage[]) => {
		form.clearErrors('pages')
		form.setValue('pages', next, { shouldDirty: true })
	}

	function add(): void {
		const database = byId.get(adding)
		if (!database) {
			return
		}
		const page = pageFor(
			database,
			preferredRule(database) ?? unsetRule,
			pages.map((one) => one.id),
		)
		setPages([...pages, page])
		setOpenId(page.id)
		setAdding('')
	}

	function move(index: number, by: number): void {
		const next = [...pages]
		const [moved] = next.splice(index, 1)
		if (moved) {
			next.splice(index + by, 0, moved)
			setPages(next)
		}
	}

	return (
		<Section
			id="pages"
			title="Pages"
			description="Each database you add is a page of the portal. Members see only the rows its rule gives them, and only the properties you choose."
		>
			{isLoading ? <Skeleton className="h-24 w-full" /> : null}
			{pages.length === 0 ? (
				<p className="text-muted-foreground text-sm">No page yet: add a database below.</p>
			) : (
				<ol aria-label="Pages" className="grid gap-3">
					{pages.map((page, index) => {
						const database = byId.get(page.databaseId)
						const isOpen = openId === page.id || hasErrorAt(form, `pages.${index}`)
						const isRuleSet = !('property' in page.rule) || page.rule.property !== ''
						return (
							<li key={page.id} className="rounded-lg border">
								<div className="flex flex-wrap items-center gap-2 p-3">
									<button
										type="button"
										aria-expanded={isOpen}
										aria-controls={`page-${page.id}`}
										onClick={() => setOpenId(isOpen ? null : page.id)}
										className="flex min-w-0 flex-1 items-start gap-2 text-left"
									>
										<ChevronDown
											aria-hidden
											className={cn('mt-0.5 size-4 shrink-0 transition-transform', isOpen ? '' : '-rotate-90')}
										/>
										<span className="grid min-w-0 gap-0.5">
											<span className="truncate font-medium text-sm">{page.title || 'Untitled page'}</span>
											<span className="text-muted-foreground text-xs">
												{database?.name ?? 'A database no longer shared'} · {page.view} ·{' '}
												{isRuleSet ? describeRule(page.rule, database) : 'Choose who sees which rows'}
											</span>
										</span>
									</button>
									<div className="flex gap-1">
										<Button
											variant="ghost"
											size="icon-sm"
											aria-label={`Move ${page.title} up`}
											disabled={index === 0}
											onClick={() => move(index, -1)}
										>
											<ArrowUp aria-hidden />
										</Button>
										<Button
											variant="ghost"
											size="icon-sm"
											aria-label={`Move ${page.title} down`}
											disabled={index === pages.length - 1}
											onClick={() => move(index, 1)}
										>
											<ArrowDown aria-hidden />
										</Button>
										<Button
											variant="ghost"
											size="icon-sm"
											aria-label={`Remove ${page.title}`}
											onClick={() => setPages(pages.filter((one) => one.id !== page.id))}
										>
											<Trash2 aria-hidden />
										</Button>
									</div>
								</div>
								{isOpen ? (
									<div id={`page-${page.id}`} className="border-t p-3 sm:p-4">
										{database ? null : (
											<Alert variant="warning" className="mb-4">
												This database is not offered any more (removed, or its workspace disconnected): remove the page.
											</Alert>
										)}
										<PageEditor form={form} index={index} database={database} tool={tool} />
									</div>
								) : null}
							</li>
						)
					})}
				</ol>
			)}
			{databases && databases.length > 0 ? (
				<div className="flex flex-wrap items-end gap-2">
					<Field label="Add a database" className="min-w-0 flex-1 sm:max-w-sm">
						<NativeSelect value={adding} onChange={(event) => setAdding(event.target.value)}>
							<option value="">Choose a database…</option>
							{databases.map((database) => (
								<option key={database.id} value={database.id}>
									{database.name} ({database.rowCount} rows)
								</option>
							))}
						</NativeSelect>
					</Field>
					<Button variant="outline" disabled={!adding} onClick={add}>
						<Plus aria-hidden /> Add page
					</Button>
				</div>
			) : databases ? (
				<p className="text-muted-foreground text-sm">This workspace has no database to show yet.</p>
			) : null}
		</Section>
	)
}
