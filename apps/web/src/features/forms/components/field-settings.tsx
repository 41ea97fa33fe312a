import { type FieldKind, isContentKind } from '@blocksmith/contracts/form-kinds.ts'
import { type FormField, fieldKindsFor, prefillParamOf } from '@blocksmith/contracts/forms.ts'
import type { Database, Property, WorkspaceTool } from '@blocksmith/contracts/workspaces.ts'
import { Copy } from 'lucide-react'
import { Suspense, useId } from 'react'
import { toast } from 'sonner'
import { Button } from '#src/components/ui/button.tsx'
import { Field } from '#src/components/ui/field.tsx'
import { Input } from '#src/components/ui/input.tsx'
import { Skeleton } from '#src/components/ui/skeleton.tsx'
import { Switch } from '#src/components/ui/switch.tsx'
import { Textarea } from '#src/components/ui/textarea.tsx'
import { typeLabels } from '#src/workspaces/lib/values.ts'
import { type DraftErrors, kindLabels, switchKind } from '../lib/draft.ts'
import { ContentSettings } from './builder/content-settings.tsx'
import {
	CalculatedSettings,
	ChoiceScopeSettings,
	DefaultValueInput,
	FileRulesSettings,
	KindSettings,
} from './builder/lazy-editors.tsx'
import type { LocalUploads } from './page-settings.tsx'

type FieldSettingsProps = {
	field: FormField
	/** The whole form, for what a calculation may read. */
	fields: readonly FormField[]
	index: number
	property: Property | undefined
	database: Database | undefined
	tool: WorkspaceTool
	workspaceId: string
	/** The public page's address, for the prefill link. */
	publicLink: string
	errors: DraftErrors
	uploads: LocalUploads
	onUploaded: (blobId: string, file: { name: string; url: string }) => void
	onChange: (changes: Partial<FormField>, path: string) => void
}

/** Kinds with a typed input, where a placeholder shows. */
const kindsWithPlaceholder: readonly FieldKind[] = [
	'short_text',
	'long_text',
	'number',
	'select',
	'status',
	'url',
	'email',
	'phone',
]

/** Kinds a link can fill in and a default can start: not files, drawings, orderings, grids or results. */
const kindsWithoutPrefill: readonly FieldKind[] = ['files', 'signature', 'ranking', 'matrix', 'calculated']

/** The keys each item's inputs show their problems beside; anything else shows at the top. */
function shownKeys(field: FormField): Set<string> {
	if (isContentKind(field.kind)) {
		return new Set(['label', 'body', 'image'])
	}
	const keys = ['label', 'helpText', 'placeholder', 'required', 'kind', 'includeTime', 'propertyId']
	keys.push('scale', 'choices', 'matrix', 'maxLength', 'choiceScope', 'fileRules')
	if (field.kind === 'calculated') {
		keys.push('calculation', 'hidden')
	} else if (!kindsWithoutPrefill.includes(field.kind)) {
		keys.push('hidden', 'param', 'defaultValue')
	}
	return new Set(keys)
}

/** Problems the server names on keys no input here shows (a stale setting of another kind, say). */
function OtherProblems({ field, index, errors }: Pick<FieldSettingsProps, 'field' | 'index' | 'errors'>) {
	const prefix = `fields.${index}.`
	const shown = shownKeys(field)
	const others = Object.entries(errors).filter(
		([path]) => path.startsWith(prefix) && !shown.has(path.slice(prefix.length).split('.')[0] ?? ''),
	)
	if (others.length === 0) {
		return null
	}
	return (
		<ul className="grid gap-1 text-error text-sm">
			{others.map(([path, message]) => (
				<li key={path}>{message}</li>
			))}
		</ul>
	)
}

/** Everything about one item: a question's wording, kind, rules and default; or a content's text or picture. */
export function FieldSettings(props: FieldSettingsProps) {
	const { field, index, errors, uploads, onUploaded, onChange } = props
	const error = (key: string) => errors[`fields.${index}.${key}`]
	return (
		<div className="grid gap-4">
			<OtherProblems field={field} index={index} errors={errors} />
			{isContentKind(field.kind) ? (
				<ContentSettings field={field} error={error} uploads={uploads} onUploaded={onUploaded} onChange={onChange} />
			) : (
				<QuestionSettings {...props} error={error} />
			)}
		</div>
	)
}

/** Where a question's answers go: a property, or the submission only. */
function Destination({ field, property, tool }: Pick<FieldSettingsProps, 'field' | 'property' | 'tool'>) {
	if (field.propertyId === null) {
		return (
			<p className="text-muted-foreground text-sm">
				<span className="font-medium text-foreground">Not in the database:</span>{' '}
				{tool === 'notion'
					? 'kept with the answers, not written to Notion'
					: 'the answers are kept with the submission only'}{' '}
				(and sent in e-mails, webhooks and the CSV export).
			</p>
		)
	}
	return (
		<p className="text-muted-foreground text-sm">
			{property ? (
				<>
					Writes to <span className="font-medium text-foreground">{property.name}</span> ({typeLabels[property.type]})
				</>
			) : (
				<span className="text-error">
					The property this field wrote to is gone from the database: remove the field.
				</span>
			)}
		</p>
	)
}

function QuestionSettings({
	field,
	fields,
	database,
	property,
	tool,
	workspaceId,
	publicLink,
	error,
	onChange,
}: FieldSettingsProps & { error: (key: string) => string | undefined }) {
	const kindGroupId = useId()
	const kinds = property ? fieldKindsFor(property.type) : [field.kind]
	const isCalculated = field.kind === 'calculated'
	return (
		<div className="grid gap-4">
			<Destination field={field} property={property} tool={tool} />
			{error('propertyId') ? <p className="text-error text-sm">{error('propertyId')}</p> : null}
			<Field id={`${field.id}-label`} label="Label" error={error('label')} isRequired>
				<Input
					value={field.label}
					maxLength={200}
					onChange={(event) => onChange({ label: event.target.value }, 'label')}
				/>
			</Field>
			<Field label="Help text" description="Shown under the field." error={error('helpText')}>
				<Textarea
					rows={2}
					maxLength={1000}
					value={field.helpText ?? ''}
					onChange={(event) => onChange({ helpText: event.target.value || null }, 'helpText')}
				/>
			</Field>
			{kindsWithPlaceholder.includes(field.kind) ? (
				<Field label="Placeholder" description="Shown in the empty input." error={error('placeholder')}>
					<Input
						maxLength={200}
						value={field.placeholder ?? ''}
						onChange={(event) => onChange({ placeholder: event.target.value || null }, 'placeholder')}
					/>
				</Field>
			) : null}
			{isCalculated ? null : (
				<Field
					label="Required"
					description={
						field.kind === 'checkbox'
							? 'Visitors must tick it to submit (a consent, say).'
							: 'Visitors must answer it to submit.'
					}
					orientation="horizontal"
					error={error('required')}
				>
					<Switch checked={field.required} onCheckedChange={(checked) => onChange({ required: checked }, 'required')} />
				</Field>
			)}
			{kinds.length > 1 ? (
				<fieldset className="grid gap-2">
					<legend id={kindGroupId} className="mb-2 font-medium text-sm leading-none">
						Answer type
					</legend>
					<div className="flex flex-wrap gap-x-5 gap-y-2">
						{kinds.map((kind) => (
							<label key={kind} className="flex items-center gap-2 text-sm">
								<input
									type="radio"
									name={`${kindGroupId}-kind`}
									value={kind}
									checked={field.kind === kind}
									className="size-4 accent-primary"
									onChange={() => onChange(switchKind(field, kind, property), 'kind')}
								/>
								{kindLabels[kind]}
							</label>
						))}
					</div>
					{error('kind') ? <p className="text-[13px] text-error">{error('kind')}</p> : null}
				</fieldset>
			) : null}
			{field.kind === 'date' ? (
				<Field label="Ask for a time too" orientation="horizontal" error={error('includeTime')}>
					<Switch
						checked={field.includeTime}
						// A default typed as a day is not a moment (or the reverse): it starts again.
						onCheckedChange={(checked) => onChange({ includeTime: checked, defaultValue: null }, 'includeTime')}
					/>
				</Field>
			) : null}
			<Suspense fallback={<Skeleton className="h-24 w-full" />}>
				<KindSettings field={field} error={error} onChange={onChange} />
				{isCalculated ? (
					<CalculatedSettings
						field={field}
						fields={fields}
						properties={database?.properties ?? []}
						error={error}
						onChange={onChange}
					/>
				) : null}
				{field.kind === 'relation' || field.kind === 'people' ? (
					<ChoiceScopeSettings
						field={field}
						property={property}
						tool={tool}
						workspaceId={workspaceId}
						error={error}
						onChange={onChange}
					/>
				) : null}
				{field.kind === 'files' ? (
					<FileRulesSettings
						field={field}
						errorOf={(key) => error(`fileRules.${key}`) ?? error('fileRules')}
						onChange={(fileRules, path) => onChange({ fileRules }, path)}
					/>
				) : null}
			</Suspense>
			{kindsWithoutPrefill.includes(field.kind) ? null : (
				<Prefill
					field={field}
					property={property}
					tool={tool}
					workspaceId={workspaceId}
					publicLink={publicLink}
					error={error}
					onChange={onChange}
				/>
			)}
		</div>
	)
}

/** Hidden, the URL parameter that fills the field, its link, and the default value. */
function Prefill({
	field,
	property,
	tool,
	workspaceId,
	publicLink,
	error,
	onChange,
}: Pick<FieldSettingsProps, 'field' | 'property' | 'tool' | 'workspaceId' | 'publicLink' | 'onChange'> & {
	error: (key: string) => string | undefined
}) {
	const param = prefillParamOf(field)
	const prefillLink = `${publicLink}?${encodeURIComponent(param)}=`

	async function copyLink(): Promise<void> {
		try {
			await navigator.clipboard.writeText(prefillLink)
			toast.success('The prefill link was copied: add the value after the = sign.')
		} catch {
			toast.error('The link could not be copied: select it and copy it by hand.')
		}
	}

	return (
		<>
			<Field
				label="Hidden field"
				description="Not shown; takes its value from the link, e.g. ?source=newsletter"
				orientation="horizontal"
				error={error('hidden')}
			>
				<Switch checked={field.hidden} onCheckedChange={(checked) => onChange({ hidden: checked }, 'hidden')} />
			</Field>
			<Field
				label="URL parameter"
				description="Prefills the field from the page's link. Lowercase letters, digits and underscores."
				error={error('param')}
			>
				<Input
					value={field.param ?? ''}
					maxLength={60}
					autoCapitalize="none"
					autoCorrect="off"
					spellCheck={false}
					placeholder={prefillParamOf({ label: field.label })}
					onChange={(event) => onChange({ param: event.target.value || null }, 'param')}
				/>
			</Field>
			<div className="flex items-end gap-2">
				<Field
					label="Prefill link"
					description="Add the value after the = sign; several parameters join with &."
					className="min-w-0 flex-1"
				>
					<Input readOnly value={prefillLink} onFocus={(event) => event.target.select()} />
				</Field>
				<Button
					variant="outline"
					aria-label={`Copy the prefill link of ${field.label.trim() || 'this field'}`}
					onClick={() => void copyLink()}
				>
					<Copy aria-hidden /> Copy
				</Button>
			</div>
			<Suspense fallback={<Skeleton className="h-9 w-full" />}>
				<DefaultValueInput
					key={`${field.kind}-${field.includeTime}`}
					field={field}
					property={property}
					tool={tool}
					workspaceId={workspaceId}
					error={error('defaultValue')}
					onChange={(value) => onChange({ defaultValue: value }, 'defaultValue')}
				/>
			</Suspense>
		</>
	)
}
