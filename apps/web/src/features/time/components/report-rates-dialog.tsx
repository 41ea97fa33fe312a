import type { TimeGroupFigures, TimeRates, TimeRatesInput } from '@blocksmith/contracts/time-reports.ts'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { Coins, Plus, X } from 'lucide-react'
import { type FormEvent, useState } from 'react'
import { toast } from 'sonner'
import { Alert } from '#src/components/ui/alert.tsx'
import { Button } from '#src/components/ui/button.tsx'
import { Dialog, DialogClose, DialogContent, DialogFooter, DialogTrigger } from '#src/components/ui/dialog.tsx'
import { Field } from '#src/components/ui/field.tsx'
import { Input } from '#src/components/ui/input.tsx'
import { NativeSelect } from '#src/components/ui/native-select.tsx'
import { Skeleton } from '#src/components/ui/skeleton.tsx'
import { membersQuery } from '#src/core/teams/api/teams.ts'
import { ApiError, errorMessage } from '#src/lib/api-client.ts'
import { databaseQuery } from '#src/workspaces/api/workspaces.ts'
import { ratesQuery, reportKeys, saveRates, type ToolView } from '../api/reports.ts'
import { timeDatabasesQuery } from '../api/time.ts'
import { currencyDigits, minorToDecimal, parseMoney } from './report-format.ts'

// The billable rates of the view's time database, per hour: a project's (ours, or a number read
// from the projects database), else the person's, else the default. Typed in major units
// ("120.50") and sent in minor units, exactly.

/** `key` only tells the lines apart on screen. */
type RateLine = { key: number; id: string; rate: string }

let lineKeys = 0
const newLine = (id = '', rate = ''): RateLine => ({ key: ++lineKeys, id, rate })
type Draft = {
	currency: string
	defaultRate: string
	projectRateProperty: string
	projects: RateLine[]
	members: RateLine[]
}

function draftOf(rates: TimeRates): Draft {
	const digits = currencyDigits(rates.currency)
	const major = (minor: number) => minorToDecimal(minor, digits)
	return {
		currency: rates.currency,
		defaultRate: rates.defaultRate === null ? '' : major(rates.defaultRate),
		projectRateProperty: rates.projectRateProperty ?? '',
		projects: rates.projects.map((item) => newLine(item.project, major(item.rate))),
		members: rates.members.map((item) => newLine(item.userId, major(item.rate))),
	}
}

/** The draft as the API takes it, or the problems by field path. */
function ratesOf(draft: Draft): { rates: TimeRatesInput } | { errors: Record<string, string> } {
	const errors: Record<string, string> = {}
	const currency = draft.currency.trim().toUpperCase()
	if (!/^[A-Z]{3}$/.test(currency)) {
		return { errors: { currency: 'Use a three-letter currency code such as EUR.' } }
	}
	const minor = (text: string, path: string): number | null => {
		const parsed = parseMoney(text, currency)
		if (!parsed.ok) {
			errors[path] = parsed.message
			return null
		}
		return parsed.minor
	}
	const lines = (items: RateLine[], kind: 'projects' | 'members') =>
		items.flatMap((item, index) => {
			const rate = minor(item.rate, `${kind}.${index}.rate`)
			if (!item.id) {
				return []
			}
			if (rate === null) {
				errors[`${kind}.${index}.rate`] ??= 'Type a rate, or remove the line.'
				return []
			}
			return [{ id: item.id, rate }]
		})
	const rates: TimeRatesInput = {
		currency,
		defaultRate: minor(draft.defaultRate, 'defaultRate'),
		projectRateProperty: draft.projectRateProperty || null,
		projects: lines(draft.projects, 'projects').map(({ id, rate }) => ({ project: id, rate })),
		members: lines(draft.members, 'members').map(({ id, rate }) => ({ userId: id, rate })),
	}
	return Object.keys(errors).length > 0 ? { errors } : { rates }
}

export function ReportRatesDialog({ view, projects }: { view: ToolView; projects: TimeGroupFigures[] }) {
	const [isOpen, setIsOpen] = useState(false)
	return (
		<Dialog open={isOpen} onOpenChange={setIsOpen}>
			<DialogTrigger asChild>
				<Button variant="outline">
					<Coins aria-hidden /> Rates
				</Button>
			</DialogTrigger>
			<DialogContent
				size="lg"
				title="Billable rates"
				description={`Per hour, for ${view.databaseName}. A project's rate comes first, then the person's, then the default; only billable time earns an amount.`}
			>
				{isOpen ? <RatesForm view={view} projects={projects} onDone={() => setIsOpen(false)} /> : null}
			</DialogContent>
		</Dialog>
	)
}

function RatesForm({ view, projects, onDone }: { view: ToolView; projects: TimeGroupFigures[]; onDone: () => void }) {
	const rates = useQuery(ratesQuery(view.tool, view.databaseId))
	if (rates.isPending) {
		return <Skeleton className="h-64 w-full" />
	}
	if (!rates.data) {
		return (
			<Alert variant="error" title="The rates could not be loaded">
				{errorMessage(rates.error)}
			</Alert>
		)
	}
	return <RatesFields view={view} rates={rates.data} projects={projects} onDone={onDone} />
}

function RatesFields({
	view,
	rates,
	projects,
	onDone,
}: {
	view: ToolView
	rates: TimeRates
	projects: TimeGroupFigures[]
	onDone: () => void
}) {
	const queryClient = useQueryClient()
	const [draft, setDraft] = useState(() => draftOf(rates))
	const [errors, setErrors] = useState<Record<string, string>>({})
	const members = useQuery(membersQuery)
	const rateProperties = useProjectNumberProperties(view)
	const save = useMutation({
		mutationFn: saveRates,
		meta: { isFormMutation: true },
		onSuccess: async (saved) => {
			queryClient.setQueryData(reportKeys.rates(view.tool, view.databaseId), saved)
			await queryClient.invalidateQueries({ queryKey: reportKeys.figures(view.id) })
			toast.success('The rates are saved; the report shows their amounts.')
			onDone()
		},
		onError: (error) => {
			if (error instanceof ApiError) {
				setErrors(Object.fromEntries(error.fieldErrors.map((item) => [item.field, item.message])))
			}
		},
	})
	const change = (changes: Partial<Draft>) => setDraft((current) => ({ ...current, ...changes }))
	const projectNames = new Map(projects.map((item) => [item.key, item.label]))

	function submit(event: FormEvent): void {
		event.preventDefault()
		const result = ratesOf(draft)
		if ('errors' in result) {
			setErrors(result.errors)
			return
		}
		setErrors({})
		save.mutate({ tool: view.tool, databaseId: view.databaseId, rates: result.rates })
	}

	const lineEditor = (kind: 'projects' | 'members', choices: { id: string; label: string }[], noun: string) => (
		<fieldset className="grid gap-2">
			<legend className="mb-1 font-medium text-sm">{kind === 'projects' ? 'Per project' : 'Per member'}</legend>
			{draft[kind].map((line, index) => (
				<div key={line.key} className="grid grid-cols-[1fr_8rem_auto] items-start gap-2">
					<Field label={noun} isLabelHidden>
						<NativeSelect
							value={line.id}
							onChange={(event) =>
								change({
									[kind]: draft[kind].map((item, at) => (at === index ? { ...item, id: event.target.value } : item)),
								})
							}
						>
							<option value="">Choose…</option>
							{optionsFor(choices, draft[kind], line.id).map((choice) => (
								<option key={choice.id} value={choice.id}>
									{choice.label}
								</option>
							))}
						</NativeSelect>
					</Field>
					<Field
						label={`Rate of ${noun.toLowerCase()} ${index + 1}`}
						isLabelHidden
						error={errors[`${kind}.${index}.rate`]}
					>
						<Input
							inputMode="decimal"
							value={line.rate}
							placeholder="0.00"
							onChange={(event) =>
								change({
									[kind]: draft[kind].map((item, at) => (at === index ? { ...item, rate: event.target.value } : item)),
								})
							}
						/>
					</Field>
					<Button
						variant="ghost"
						size="icon"
						aria-label={`Remove ${noun.toLowerCase()} ${index + 1}`}
						onClick={() => change({ [kind]: draft[kind].filter((_, at) => at !== index) })}
					>
						<X aria-hidden />
					</Button>
				</div>
			))}
			<Button
				variant="link"
				size="sm"
				className="justify-self-start"
				onClick={() => change({ [kind]: [...draft[kind], newLine()] })}
			>
				<Plus aria-hidden /> Add a {noun.toLowerCase()} rate
			</Button>
		</fieldset>
	)

	return (
		<form className="grid gap-5" onSubmit={submit}>
			<div className="grid grid-cols-1 gap-3 sm:grid-cols-2">
				<Field label="Currency" error={errors.currency} description="An ISO code: EUR, USD, JPY…">
					<Input value={draft.currency} maxLength={3} onChange={(event) => change({ currency: event.target.value })} />
				</Field>
				<Field label="Default rate per hour" error={errors.defaultRate} description="Empty: no amount by default.">
					<Input
						inputMode="decimal"
						value={draft.defaultRate}
						placeholder="0.00"
						onChange={(event) => change({ defaultRate: event.target.value })}
					/>
				</Field>
			</div>
			{rateProperties.length > 0 ? (
				<Field
					label="Project rate property"
					error={errors.projectRateProperty}
					description="A number on the projects database holding each project's rate per hour. A rate set below wins."
				>
					<NativeSelect
						value={draft.projectRateProperty}
						onChange={(event) => change({ projectRateProperty: event.target.value })}
					>
						<option value="">None</option>
						{rateProperties.map((property) => (
							<option key={property.id} value={property.id}>
								{property.name}
							</option>
						))}
					</NativeSelect>
				</Field>
			) : null}
			{lineEditor(
				'projects',
				[...projectNames].filter(([id]) => id !== 'none').map(([id, label]) => ({ id, label })),
				'Project',
			)}
			{lineEditor(
				'members',
				(members.data ?? []).map((member) => ({ id: member.userId, label: member.name || member.email })),
				'Member',
			)}
			<DialogFooter>
				<DialogClose asChild>
					<Button variant="outline">Cancel</Button>
				</DialogClose>
				<Button type="submit" isLoading={save.isPending}>
					Save rates
				</Button>
			</DialogFooter>
		</form>
	)
}

/** The choices of one line: those no other line took, and its own even when no longer listed. */
function optionsFor(choices: { id: string; label: string }[], lines: RateLine[], own: string) {
	const free = choices.filter((choice) => choice.id === own || !lines.some((line) => line.id === choice.id))
	return own && !free.some((choice) => choice.id === own) ? [...free, { id: own, label: own }] : free
}

/** The number properties of the projects database the time database's project relation points at. */
function useProjectNumberProperties(view: ToolView) {
	const databases = useQuery(timeDatabasesQuery)
	const time = databases.data?.find((database) => database.id === view.databaseId && database.tool === view.tool)
	const projectId = time?.saved?.mapping.project ?? null
	const details = useQuery({ ...databaseQuery(view.tool, view.databaseId), enabled: projectId !== null })
	const relation = details.data?.properties.find((property) => property.id === projectId)
	const relatedId = relation?.type === 'relation' ? (relation.relationDatabaseId ?? null) : null
	const related = useQuery({ ...databaseQuery(view.tool, relatedId ?? ''), enabled: relatedId !== null })
	return (related.data?.properties ?? []).filter((property) => property.type === 'number')
}
