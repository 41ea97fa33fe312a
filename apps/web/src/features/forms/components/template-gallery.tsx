import {
	type FormTemplate,
	type FormTemplateId,
	formTemplates,
	templatePageCount,
	templateQuestions,
} from '@blocksmith/contracts/form-templates.ts'
import { Briefcase, Bug, CalendarCheck, FilePlus2, Gauge, Handshake, type LucideIcon, Mail, Target } from 'lucide-react'
import { Badge } from '#src/components/ui/badge.tsx'
import { cn } from '#src/components/ui/cn.ts'
import { Spinner } from '#src/components/ui/spinner.tsx'

// The gallery of the "New form" flow: start from scratch, or from one of the templates of
// form-templates.ts, each card saying what the form will ask.

const icons: Record<FormTemplateId, LucideIcon> = {
	contact: Mail,
	lead_capture: Target,
	feedback_nps: Gauge,
	event_registration: CalendarCheck,
	job_application: Briefcase,
	client_onboarding: Handshake,
	bug_report: Bug,
}

/** The questions a card lists before "and N more". */
const listedQuestions = 4

/** What a template asks, in a line: "Name · Email · Topic and 2 more" (labels may hold commas and question marks). */
function templateAsks(template: FormTemplate): string {
	const labels = templateQuestions(template).map((question) => question.label)
	const shown = labels.slice(0, listedQuestions).join(' · ')
	const rest = labels.length - listedQuestions
	return rest > 0 ? `${shown} and ${rest} more` : shown
}

/** A template id, or null for "Start from scratch". */
export type GalleryChoice = FormTemplateId | null

type TemplateGalleryProps = {
	onPick: (choice: GalleryChoice) => void
	/** The card being created: it shows a spinner, and every card waits. */
	pending: GalleryChoice | undefined
	className?: string
}

export function TemplateGallery({ onPick, pending, className }: TemplateGalleryProps) {
	const isBusy = pending !== undefined
	return (
		<ul aria-label="Templates" className={cn('grid grid-cols-1 gap-3 sm:grid-cols-2 lg:grid-cols-3', className)}>
			<li className="grid">
				<GalleryCard
					icon={FilePlus2}
					name="Start from scratch"
					description="A blank form asking for a name. Add the questions you need."
					asks={null}
					isPending={pending === null}
					isDisabled={isBusy}
					onClick={() => onPick(null)}
				/>
			</li>
			{formTemplates.map((template) => {
				const pages = templatePageCount(template)
				return (
					<li key={template.id} className="grid">
						<GalleryCard
							icon={icons[template.id]}
							name={template.name}
							description={template.description}
							asks={templateAsks(template)}
							pages={pages}
							isPending={pending === template.id}
							isDisabled={isBusy}
							onClick={() => onPick(template.id)}
						/>
					</li>
				)
			})}
		</ul>
	)
}

type GalleryCardProps = {
	icon: LucideIcon
	name: string
	description: string
	asks: string | null
	/** Shown when more than one. */
	pages?: number
	isPending: boolean
	isDisabled: boolean
	onClick: () => void
}

function GalleryCard({
	icon: Icon,
	name,
	description,
	asks,
	pages = 1,
	isPending,
	isDisabled,
	onClick,
}: GalleryCardProps) {
	return (
		<button
			type="button"
			onClick={onClick}
			disabled={isDisabled}
			aria-busy={isPending || undefined}
			className={cn(
				'grid content-start gap-2 rounded-xl border bg-card p-4 text-left text-card-foreground shadow-xs transition-colors',
				'hover:border-primary/60 hover:bg-accent/40 focus-visible:outline-2 focus-visible:outline-ring focus-visible:outline-offset-2',
				'disabled:cursor-not-allowed disabled:opacity-60',
				isPending && 'border-primary disabled:opacity-100',
			)}
		>
			<span className="flex items-center gap-2">
				<span className="flex size-8 shrink-0 items-center justify-center rounded-lg border bg-background">
					{isPending ? <Spinner className="size-4" /> : <Icon aria-hidden className="size-4 text-primary" />}
				</span>
				<span className="font-semibold text-sm">{name}</span>
				{pages > 1 ? (
					<Badge variant="neutral" className="ml-auto">
						{pages} pages
					</Badge>
				) : null}
			</span>
			<span className="text-muted-foreground text-sm">{description}</span>
			{asks ? (
				<span className="text-muted-foreground text-xs">
					<span className="font-medium text-foreground/80">Asks: </span>
					{asks}
				</span>
			) : null}
		</button>
	)
}
