import type { FormAnalytics } from '@blocksmith/contracts/forms.ts'
import { Badge } from '#src/components/ui/badge.tsx'
import { cn } from '#src/components/ui/cn.ts'

// Drop-off per step: each page with its questions under it, a bar per step as wide as its share of
// the visits that reached page 1, and the step that lost the most visits marked. Plain elements
// rather than a chart library: the figures are read as text, the bars only show them.

type Step = FormAnalytics['steps'][number]

const numberFormat = new Intl.NumberFormat()
const percentFormat = new Intl.NumberFormat(undefined, { style: 'percent', maximumFractionDigits: 0 })

/** Visits a step lost: those that reached it and went no further. */
function lost(step: Step): number {
	return step.dropOff === null ? 0 : Math.round(step.reached * step.dropOff)
}

/** The step that lost the most visits (the first of equals); none when nothing was lost. */
function biggestDrop(steps: Step[]): Step | null {
	let worst: Step | null = null
	for (const step of steps) {
		if (lost(step) > 0 && (!worst || lost(step) > lost(worst))) {
			worst = step
		}
	}
	return worst
}

export function DropOffChart({ steps }: { steps: Step[] }) {
	const questionsReached = steps.some((step) => step.kind === 'question' && step.reached > 0)
	if (!questionsReached) {
		return (
			<div className="grid gap-1 rounded-lg border border-dashed p-4 text-sm">
				<p className="font-medium">No visits reached a question yet</p>
				<p className="text-muted-foreground">
					Once visitors open the published form, each question and page they reach shows here, with the share who went
					no further.
				</p>
			</div>
		)
	}
	const widest = Math.max(1, ...steps.map((step) => step.reached))
	const worst = biggestDrop(steps)
	const pages = steps.filter((step) => step.kind === 'page')
	return (
		<div className="grid gap-4">
			{worst ? (
				<p className="text-sm">
					<span className="font-medium">Biggest drop: </span>
					{worst.label} — {numberFormat.format(lost(worst))} of {numberFormat.format(worst.reached)} visits (
					{percentFormat.format(worst.dropOff ?? 0)}) went no further.
				</p>
			) : null}
			{pages.map((page) => {
				const questions = steps.filter((step) => step.kind === 'question' && step.page === page.page)
				return (
					<section key={page.id} aria-label={`Page ${page.page}: ${page.label}`} className="grid gap-1.5">
						<StepRow step={page} widest={widest} isWorst={page === worst} isPage />
						{questions.length ? (
							<ol className="grid gap-1.5 border-l pl-3 sm:ml-2">
								{questions.map((question) => (
									<li key={question.id}>
										<StepRow step={question} widest={widest} isWorst={question === worst} />
									</li>
								))}
							</ol>
						) : null}
					</section>
				)
			})}
		</div>
	)
}

function StepRow({
	step,
	widest,
	isWorst,
	isPage = false,
}: {
	step: Step
	widest: number
	isWorst: boolean
	isPage?: boolean
}) {
	const share = step.reached / widest
	return (
		<div
			className={cn(
				'grid grid-cols-[minmax(0,1fr)_auto] items-center gap-x-3 gap-y-1 rounded-md px-2 py-1.5 sm:grid-cols-[minmax(0,14rem)_minmax(0,1fr)_auto]',
				isWorst && 'bg-error/10 ring-1 ring-error/30',
			)}
		>
			<span className="flex min-w-0 items-center gap-2">
				<span className={cn('truncate text-sm', isPage ? 'font-semibold' : 'text-foreground/90')} title={step.label}>
					{isPage ? `Page ${step.page} · ` : ''}
					{step.label}
				</span>
				{isWorst ? <Badge variant="error">Biggest drop</Badge> : null}
			</span>
			<span aria-hidden className="order-last col-span-2 h-2 rounded-full bg-muted sm:order-none sm:col-span-1">
				<span
					className={cn('block h-full rounded-full', isWorst ? 'bg-error' : isPage ? 'bg-primary' : 'bg-primary/70')}
					style={{ width: `${Math.max(step.reached > 0 ? 2 : 0, share * 100)}%` }}
				/>
			</span>
			<span className="flex items-center justify-end gap-2 text-sm tabular-nums">
				<span className="w-28 text-right">{numberFormat.format(step.reached)} reached</span>
				<span className="w-28 whitespace-nowrap text-right text-muted-foreground">
					{step.dropOff === null ? '—' : `${percentFormat.format(step.dropOff)} dropped`}
				</span>
			</span>
		</div>
	)
}
