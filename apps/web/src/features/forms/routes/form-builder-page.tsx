import type { Form, FormField, FormPage, FormTheme } from '@blocksmith/contracts/forms.ts'
import type { Database } from '@blocksmith/contracts/workspaces.ts'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { Globe, GlobeLock } from 'lucide-react'
import { Suspense, useCallback, useEffect, useMemo, useRef, useState } from 'react'
import { useParams } from 'react-router'
import { toast } from 'sonner'
import { SectionTabsList, SettingsAndPreview } from '#src/components/builder-layout.tsx'
import { LeaveWithoutSavingDialog, SaveBar } from '#src/components/save-bar.tsx'
import { Alert } from '#src/components/ui/alert.tsx'
import { Button } from '#src/components/ui/button.tsx'
import { Skeleton, SkeletonGroup } from '#src/components/ui/skeleton.tsx'
import { Tabs, TabsContent } from '#src/components/ui/tabs.tsx'
import { ApiError } from '#src/lib/api-client.ts'
import { useSaveShortcut, useUnsavedChangesGuard } from '#src/lib/use-unsaved-changes.ts'
import { databaseQuery, workspaceKeys } from '#src/workspaces/api/workspaces.ts'
import { formKeys, updateForm } from '../api/forms.ts'
import { FormSettings, LogicEditor, preloadEditors, ThemeSettings } from '../components/builder/lazy-editors.tsx'
import { useItemImages } from '../components/builder/use-item-images.ts'
import { FieldsEditor } from '../components/fields-editor.tsx'
import { FormGate, FormHeader } from '../components/form-frame.tsx'
import { FormPreview } from '../components/form-preview.tsx'
import { type LocalUploads, PageSettings, usePageImage } from '../components/page-settings.tsx'
import {
	changesOf,
	type DraftErrors,
	draftFromForm,
	errorsByPath,
	type FormDraft,
	firstFieldWithError,
	isSameDraft,
	previewForm,
	reindexErrors,
	validateDraft,
	withoutErrors,
} from '../lib/draft.ts'
import { publicUrl } from '../lib/form-paths.ts'

type Section = 'fields' | 'logic' | 'page' | 'theme' | 'settings'

/** /forms/:id/edit: fields, page and settings of a form, with a live preview. */
export function FormBuilderPage() {
	const { id = '' } = useParams()
	return <FormGate id={id}>{(form) => <FormBuilder key={form.id} form={form} />}</FormGate>
}

const sections = [
	['fields', 'Fields'],
	['logic', 'Logic'],
	['page', 'Page'],
	['theme', 'Theme'],
	['settings', 'Settings'],
] as const

function sectionOf(path: string): Section {
	const [head] = path.split('.')
	return head === 'fields' || head === 'logic' || head === 'page' || head === 'theme' ? head : 'settings'
}

function FormBuilder({ form }: { form: Form }) {
	const queryClient = useQueryClient()
	const database = useQuery({ ...databaseQuery(form.tool, form.databaseId), enabled: Boolean(form.databaseId) })
	const [draft, setDraft] = useState<FormDraft>(() => draftFromForm(form))
	const [errors, setErrors] = useState<DraftErrors>({})
	const [section, setSection] = useState<Section>('fields')
	const [expandedId, setExpandedId] = useState<string | null>(null)
	const [uploads, setUploads] = useState<LocalUploads>({})
	const [isPreviewShown, setIsPreviewShown] = useState(false)
	const baseline = useMemo(() => draftFromForm(form), [form])
	const isDirty = !isSameDraft(draft, baseline)
	useEffect(preloadEditors, [])
	const isLocked = !form.databaseId || database.isError
	const properties = database.data?.properties ?? []

	// ---- editing ----

	function change(changes: Partial<FormDraft>, path: string): void {
		setDraft((current) => ({ ...current, ...changes }))
		setErrors((current) => withoutErrors(current, path))
	}

	function changePage(changes: Partial<FormPage>, path: string): void {
		setDraft((current) => ({ ...current, page: { ...current.page, ...changes } }))
		setErrors((current) => withoutErrors(current, path))
	}

	function changeTheme(changes: Partial<FormTheme>, path: string): void {
		setDraft((current) => ({ ...current, theme: { ...current.theme, ...changes } }))
		setErrors((current) => withoutErrors(current, path))
	}

	function changeFields(fields: FormField[]): void {
		setErrors((current) => reindexErrors(current, draft.fields, fields))
		// A removed field leaves the rules' targets (nothing to act on); conditions on it stay, shown as
		// such, since dropping them would change what a rule means.
		const ids = new Set(fields.map((field) => field.id))
		setDraft((current) => ({
			...current,
			fields,
			logic: current.logic.some((rule) => rule.fieldIds.some((id) => !ids.has(id)))
				? current.logic.map((rule) => ({ ...rule, fieldIds: rule.fieldIds.filter((id) => ids.has(id)) }))
				: current.logic,
		}))
	}

	function changeField(index: number, changes: Partial<FormField>, path: string): void {
		setDraft((current) => ({
			...current,
			fields: current.fields.map((field, position) => (position === index ? { ...field, ...changes } : field)),
		}))
		setErrors((current) => withoutErrors(current, `fields.${index}.${path}`))
	}

	// ---- saving ----

	/** Opens the section (and field) of the first problem and puts the focus on its input. */
	const reveal = useCallback(
		(problems: DraftErrors) => {
			const first = Object.keys(problems)[0]
			if (first === undefined) {
				return
			}
			const target = sectionOf(first)
			setSection(target)
			setIsPreviewShown(false)
			if (target === 'fields') {
				const field = draft.fields[firstFieldWithError(problems)]
				if (field) {
					setExpandedId(field.id)
				}
			}
			requestAnimationFrame(() =>
				requestAnimationFrame(() => document.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus()),
			)
		},
		[draft.fields],
	)

	function showProblems(error: unknown): void {
		if (error instanceof ApiError && error.fieldErrors.length > 0) {
			const problems = errorsByPath(error.fieldErrors)
			setErrors(problems)
			reveal(problems)
			toast.error(error.detail || 'Some settings need another look.')
		}
	}

	/** The draft a save sent, to tell whether it was edited while the save was on its way. */
	const submitted = useRef<FormDraft | null>(null)
	const save = useMutation({
		mutationFn: updateForm,
		meta: { isFormMutation: true },
		onSuccess: async (saved, variables) => {
			queryClient.setQueryData(formKeys.detail(saved.id), saved)
			// Edits made while the save was on its way stay (and keep the form unsaved).
			const sent = submitted.current
			setDraft((current) => (sent && isSameDraft(current, sent) ? draftFromForm(saved) : current))
			setErrors({})
			await queryClient.invalidateQueries({ queryKey: formKeys.list })
			if (variables.changes.published === true && !form.published) {
				toast.success('The form is published.', { description: publicUrl(saved) })
			} else {
				toast.success(saved.published ? 'Saved. The public page shows the changes.' : 'Saved.')
			}
		},
		onError: showProblems,
	})
	const unpublish = useMutation({
		mutationFn: updateForm,
		onSuccess: async (saved) => {
			// Only the state changed: the draft (and any unsaved edit in it) stays as it is.
			queryClient.setQueryData(formKeys.detail(saved.id), saved)
			await queryClient.invalidateQueries({ queryKey: formKeys.list })
			toast.success('The form is unpublished: its page no longer opens.')
		},
	})

	function submit(extra: { published?: boolean } = {}): void {
		const problems = validateDraft(draft)
		if (Object.keys(problems).length > 0) {
			setErrors(problems)
			reveal(problems)
			toast.error('Some settings need another look before saving.')
			return
		}
		submitted.current = draft
		save.mutate({ id: form.id, changes: { ...changesOf(draft), ...extra } })
	}

	// Ctrl+S / ⌘S saves, as in any editor.
	useSaveShortcut(() => {
		if (isDirty && !save.isPending) {
			submit()
		}
	})

	// ---- leaving with unsaved changes ----

	const { blocker, leaveOnPurpose } = useUnsavedChangesGuard(isDirty)

	// ---- preview ----

	const thumbnail = usePageImage(draft.page.pageThumbnail, uploads)
	const favicon = usePageImage(draft.page.favicon, uploads)
	const logo = usePageImage(draft.theme.logo, uploads)
	const cover = usePageImage(draft.theme.cover, uploads)
	const itemImages = useItemImages(draft.fields, uploads)
	const preview = previewForm(
		form,
		draft,
		properties,
		{
			pageThumbnail: thumbnail?.url ?? null,
			favicon: favicon?.url ?? null,
			logo: logo?.url ?? null,
			cover: cover?.url ?? null,
		},
		itemImages,
	)
	const onUploaded = (blobId: string, file: { name: string; url: string }) =>
		setUploads((current) => ({ ...current, [blobId]: file }))

	/** A property made for a new question: the builder (and the database's page) read the database as saved. */
	function databaseChanged(saved: Database): void {
		queryClient.setQueryData(databaseQuery(form.tool, saved.id).queryKey, saved)
		void queryClient.invalidateQueries({ queryKey: workspaceKeys.databases(form.tool, form.workspaceId) })
	}
	const sectionHasErrors = (name: Section) => Object.keys(errors).some((path) => sectionOf(path) === name)

	return (
		<div className="grid grid-cols-1 gap-5">
			<FormHeader
				form={form}
				onLeave={() => {
					leaveOnPurpose()
				}}
			/>

			<SaveBar
				label="Save and publish"
				noun="form"
				isDirty={isDirty}
				isSaving={save.isPending && save.variables?.changes.published === undefined}
				saveVariant={form.published ? 'primary' : 'outline'}
				onSave={() => submit()}
				onDiscard={() => {
					setDraft(baseline)
					setErrors({})
				}}
				preview={{ isShown: isPreviewShown, onToggle: () => setIsPreviewShown((shown) => !shown) }}
			>
				{form.published ? (
					<Button
						size="sm"
						variant="outline"
						isLoading={unpublish.isPending}
						onClick={() => unpublish.mutate({ id: form.id, changes: { published: false } })}
					>
						<GlobeLock aria-hidden /> Unpublish
					</Button>
				) : (
					<Button
						size="sm"
						disabled={isLocked}
						isLoading={save.isPending && save.variables?.changes.published === true}
						onClick={() => submit({ published: true })}
					>
						<Globe aria-hidden /> Publish
					</Button>
				)}
			</SaveBar>

			{isLocked && !database.isPending ? (
				<Alert variant="warning" title="The database of this form is gone">
					It was removed or its workspace was disconnected. The fields cannot change and the form cannot be published;
					its answers are kept.
				</Alert>
			) : null}

			<SettingsAndPreview
				className="xl:grid-cols-[minmax(0,1fr)_minmax(0,25rem)]"
				isPreviewShown={isPreviewShown}
				settings={
					<Tabs value={section} onValueChange={(value) => setSection(value as Section)}>
						<SectionTabsList label="Form settings" sections={sections} hasErrors={sectionHasErrors} />
						<TabsContent value="fields">
							{database.isPending && form.databaseId ? (
								<SkeletonGroup label="Loading the fields…" className="grid gap-2">
									<Skeleton className="h-12 w-full" />
									<Skeleton className="h-12 w-full" />
									<Skeleton className="h-12 w-full" />
								</SkeletonGroup>
							) : (
								<FieldsEditor
									fields={draft.fields}
									properties={properties}
									database={database.data}
									tool={form.tool}
									workspaceId={form.workspaceId}
									errors={errors}
									uploads={uploads}
									onUploaded={onUploaded}
									onDatabaseChange={databaseChanged}
									expandedId={expandedId}
									onExpandedChange={setExpandedId}
									onFieldsChange={changeFields}
									onFieldChange={changeField}
									publicLink={publicUrl(form)}
									isLocked={isLocked}
								/>
							)}
						</TabsContent>
						<TabsContent value="logic">
							<Suspense fallback={<Skeleton className="h-40 w-full" />}>
								<LogicEditor
									logic={draft.logic}
									fields={draft.fields}
									properties={properties}
									errors={errors}
									onChange={(logic, path) => change({ logic }, path)}
								/>
							</Suspense>
						</TabsContent>
						<TabsContent value="page">
							<PageSettings
								page={draft.page}
								errors={errors}
								uploads={uploads}
								onUploaded={onUploaded}
								onChange={changePage}
							/>
						</TabsContent>
						<TabsContent value="theme">
							<Suspense fallback={<Skeleton className="h-40 w-full" />}>
								<ThemeSettings
									theme={draft.theme}
									savedCss={form.theme.customCss}
									errors={errors}
									uploads={uploads}
									onUploaded={onUploaded}
									onChange={changeTheme}
								/>
							</Suspense>
						</TabsContent>
						<TabsContent value="settings">
							<Suspense fallback={<Skeleton className="h-40 w-full" />}>
								<FormSettings form={form} draft={draft} errors={errors} onChange={change} />
							</Suspense>
						</TabsContent>
					</Tabs>
				}
				preview={
					<FormPreview
						form={preview}
						workspaceId={form.workspaceId}
						scopes={Object.fromEntries(draft.fields.map((field) => [field.id, field.choiceScope]))}
					/>
				}
			/>

			<LeaveWithoutSavingDialog blocker={blocker} noun="form" />
		</div>
	)
}
