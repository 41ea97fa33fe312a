import type { ContentKind, QuestionKind } from './form-kinds.ts'
import type { FormTemplateId } from './form-template-ids.ts'
import type { WritablePropertyType } from './workspaces.ts'

// The form templates of the gallery (issue 19). Their questions and the properties those write are
// defined here, so the gallery shows what a template asks before anything is made. Plain data and
// no zod: the web bundle reads it as is, and the server turns each item into a field through
// `formFieldSchema` (so every key the schema adds later has its default).

export { type FormTemplateId, formTemplateIds } from './form-template-ids.ts'

/** The property a question writes on a new built-in database (select options come from its `choices`). */
export type TemplateProperty = { name: string; type: WritablePropertyType; format?: string }

export type TemplateQuestion = {
	kind: QuestionKind
	label: string
	helpText?: string
	placeholder?: string
	required?: boolean
	/** select, multi_select, ranking: the choices (the property's options when it has one). */
	choices?: string[]
	/** rating, scale. */
	scale?: { min: 0 | 1; max: number; minLabel?: string; maxLabel?: string }
	property: TemplateProperty
}

export type TemplateContent = {
	kind: ContentKind
	/** The heading's text, the paragraph's name in the builder, the page break's page title. */
	label: string
	/** paragraph: its text, with **bold** and [links](https://…). */
	body?: string
}

export type TemplateItem = TemplateQuestion | TemplateContent

export type FormTemplate = {
	id: FormTemplateId
	name: string
	/** One line for the gallery card. */
	description: string
	/** Questions and content, in page order. Exactly one question writes the title property. */
	items: TemplateItem[]
}

export function isTemplateQuestion(item: TemplateItem): item is TemplateQuestion {
	return 'property' in item
}

const yesNoConsent = (label: string, name: string, required = false): TemplateQuestion => ({
	kind: 'checkbox',
	label,
	required,
	property: { name, type: 'checkbox' },
})

export const formTemplates: readonly FormTemplate[] = [
	{
		id: 'contact',
		name: 'Contact form',
		description: 'Let people reach you with their name, e-mail and a message.',
		items: [
			{ kind: 'heading', label: 'Get in touch' },
			{
				kind: 'paragraph',
				label: 'Introduction',
				body: 'Tell us what you need and we will get back to you within **one working day**.',
			},
			{ kind: 'short_text', label: 'Name', required: true, property: { name: 'Name', type: 'title' } },
			{ kind: 'email', label: 'Email', required: true, property: { name: 'Email', type: 'email' } },
			{
				kind: 'select',
				label: 'What is it about?',
				choices: ['A question', 'Support', 'Partnership', 'Something else'],
				property: { name: 'Topic', type: 'select' },
			},
			{
				kind: 'long_text',
				label: 'Message',
				required: true,
				placeholder: 'How can we help?',
				property: { name: 'Message', type: 'rich_text' },
			},
		],
	},
	{
		id: 'lead_capture',
		name: 'Lead capture',
		description: 'Qualify prospects: who they are, their company, what they need and when.',
		items: [
			{ kind: 'heading', label: 'Talk to our team' },
			{
				kind: 'paragraph',
				label: 'Introduction',
				body: 'Leave your details and we will suggest the best next step for your company.',
			},
			{ kind: 'short_text', label: 'Full name', required: true, property: { name: 'Name', type: 'title' } },
			{ kind: 'email', label: 'Work email', required: true, property: { name: 'Email', type: 'email' } },
			{ kind: 'short_text', label: 'Company', required: true, property: { name: 'Company', type: 'rich_text' } },
			{ kind: 'url', label: 'Company website', property: { name: 'Website', type: 'url' } },
			{
				kind: 'select',
				label: 'Company size',
				choices: ['1–10', '11–50', '51–200', '201–1,000', 'More than 1,000'],
				property: { name: 'Company size', type: 'select' },
			},
			{
				kind: 'multi_select',
				label: 'What are you interested in?',
				choices: ['A product demo', 'Pricing', 'Integrations', 'Partnership'],
				property: { name: 'Interests', type: 'multi_select' },
			},
			{
				kind: 'select',
				label: 'When would you like to start?',
				choices: ['Right away', 'This quarter', 'Later this year', 'Just exploring'],
				property: { name: 'Timeline', type: 'select' },
			},
			{
				kind: 'phone',
				label: 'Phone',
				helpText: 'If you prefer a call.',
				property: { name: 'Phone', type: 'phone_number' },
			},
			yesNoConsent('Send me product news by e-mail', 'Newsletter'),
		],
	},
	{
		id: 'feedback_nps',
		name: 'Feedback with NPS',
		description: 'Measure loyalty with a 0–10 score and learn what to improve.',
		items: [
			{ kind: 'heading', label: 'How are we doing?' },
			{
				kind: 'paragraph',
				label: 'Introduction',
				body: 'Two minutes of your time helps us decide what to build next. Thank you!',
			},
			{
				kind: 'nps',
				label: 'How likely are you to recommend us to a friend or colleague?',
				required: true,
				property: { name: 'NPS', type: 'number', format: 'number' },
			},
			{
				kind: 'rating',
				label: 'How satisfied are you with the product overall?',
				scale: { min: 1, max: 5 },
				property: { name: 'Satisfaction', type: 'number', format: 'number' },
			},
			{
				kind: 'multi_select',
				label: 'What do you use most?',
				choices: ['Forms', 'Reports', 'Integrations', 'The mobile app'],
				property: { name: 'Most used', type: 'multi_select' },
			},
			{
				kind: 'long_text',
				label: 'What is the one thing we should improve?',
				property: { name: 'To improve', type: 'rich_text' },
			},
			{
				kind: 'short_text',
				label: 'Your name',
				helpText: 'Optional: leave it empty to answer anonymously.',
				property: { name: 'Name', type: 'title' },
			},
			{
				kind: 'email',
				label: 'Email',
				helpText: 'Only if you would like a reply.',
				property: { name: 'Email', type: 'email' },
			},
		],
	},
	{
		id: 'event_registration',
		name: 'Event registration',
		description: 'Sign people up with their ticket, sessions and dietary needs.',
		items: [
			{ kind: 'heading', label: 'Register for the event' },
			{
				kind: 'paragraph',
				label: 'Introduction',
				body: 'Save your seat in a minute. We will e-mail you the programme and directions **a week before**.',
			},
			{ kind: 'short_text', label: 'Full name', required: true, property: { name: 'Name', type: 'title' } },
			{ kind: 'email', label: 'Email', required: true, property: { name: 'Email', type: 'email' } },
			{ kind: 'short_text', label: 'Organization', property: { name: 'Organization', type: 'rich_text' } },
			{
				kind: 'select',
				label: 'Ticket',
				required: true,
				choices: ['Standard', 'Student', 'Speaker'],
				property: { name: 'Ticket', type: 'select' },
			},
			{
				kind: 'multi_select',
				label: 'Which sessions will you attend?',
				choices: ['Opening keynote', 'Morning workshop', 'Afternoon workshop', 'Networking dinner'],
				property: { name: 'Sessions', type: 'multi_select' },
			},
			{
				kind: 'select',
				label: 'Dietary needs',
				choices: ['None', 'Vegetarian', 'Vegan', 'Gluten-free', 'Other (tell us below)'],
				property: { name: 'Dietary needs', type: 'select' },
			},
			{
				kind: 'long_text',
				label: 'Accessibility or other needs',
				property: { name: 'Needs', type: 'rich_text' },
			},
			yesNoConsent('I agree to appear in photos taken at the event', 'Photo consent'),
		],
	},
	{
		id: 'job_application',
		name: 'Job application',
		description: 'Take applications over three pages: about you, your experience, your availability.',
		items: [
			{ kind: 'heading', label: 'Apply to join us' },
			{
				kind: 'paragraph',
				label: 'Introduction',
				body: 'It takes about five minutes. We read every application and answer within **two weeks**.',
			},
			{ kind: 'short_text', label: 'Full name', required: true, property: { name: 'Name', type: 'title' } },
			{ kind: 'email', label: 'Email', required: true, property: { name: 'Email', type: 'email' } },
			{ kind: 'phone', label: 'Phone', property: { name: 'Phone', type: 'phone_number' } },
			{
				kind: 'select',
				label: 'Which role are you applying for?',
				required: true,
				choices: ['Engineering', 'Design', 'Product', 'Sales', 'Customer success'],
				property: { name: 'Role', type: 'select' },
			},
			{ kind: 'short_text', label: 'Where are you based?', property: { name: 'Location', type: 'rich_text' } },
			{ kind: 'page_break', label: 'Your experience' },
			{
				kind: 'number',
				label: 'Years of relevant experience',
				property: { name: 'Years of experience', type: 'number', format: 'number' },
			},
			{
				kind: 'files',
				label: 'Résumé',
				required: true,
				helpText: 'A PDF or Word document.',
				property: { name: 'Résumé', type: 'files' },
			},
			{ kind: 'url', label: 'LinkedIn or portfolio', property: { name: 'Profile', type: 'url' } },
			{
				kind: 'long_text',
				label: 'Why do you want to work with us?',
				required: true,
				property: { name: 'Motivation', type: 'rich_text' },
			},
			{ kind: 'page_break', label: 'Availability' },
			{ kind: 'date', label: 'Earliest start date', property: { name: 'Start date', type: 'date' } },
			{
				kind: 'short_text',
				label: 'Salary expectations',
				property: { name: 'Salary expectations', type: 'rich_text' },
			},
			{
				kind: 'select',
				label: 'How did you hear about us?',
				choices: ['A job board', 'LinkedIn', 'A friend or colleague', 'Our website', 'Elsewhere'],
				property: { name: 'Source', type: 'select' },
			},
			yesNoConsent('You may keep my application for 12 months', 'Consent', true),
		],
	},
	{
		id: 'client_onboarding',
		name: 'Client onboarding',
		description: "Collect a new client's details, goals, budget and brand assets in one go.",
		items: [
			{ kind: 'heading', label: 'Welcome aboard' },
			{
				kind: 'paragraph',
				label: 'Introduction',
				body: 'A few details about your company and project, so we can start on the right foot.',
			},
			{ kind: 'short_text', label: 'Company name', required: true, property: { name: 'Company', type: 'title' } },
			{ kind: 'short_text', label: 'Main contact', required: true, property: { name: 'Contact', type: 'rich_text' } },
			{ kind: 'email', label: 'Contact email', required: true, property: { name: 'Email', type: 'email' } },
			{ kind: 'phone', label: 'Phone', property: { name: 'Phone', type: 'phone_number' } },
			{ kind: 'url', label: 'Website', property: { name: 'Website', type: 'url' } },
			{ kind: 'page_break', label: 'Your project' },
			{
				kind: 'multi_select',
				label: 'Which services do you need?',
				required: true,
				choices: ['Strategy', 'Design', 'Development', 'Marketing', 'Ongoing support'],
				property: { name: 'Services', type: 'multi_select' },
			},
			{
				kind: 'long_text',
				label: 'What should the first 90 days achieve?',
				property: { name: 'Goals', type: 'rich_text' },
			},
			{
				kind: 'select',
				label: 'Budget',
				choices: ['Under 5,000', '5,000 to 20,000', '20,000 to 50,000', 'Over 50,000'],
				property: { name: 'Budget', type: 'select' },
			},
			{ kind: 'date', label: 'Desired launch date', property: { name: 'Launch date', type: 'date' } },
			{
				kind: 'select',
				label: 'How should we keep in touch?',
				choices: ['E-mail', 'Phone', 'Video calls', 'Chat'],
				property: { name: 'Preferred channel', type: 'select' },
			},
			{
				kind: 'files',
				label: 'Brand assets',
				helpText: 'Logo, colours, fonts: whatever you have.',
				property: { name: 'Brand assets', type: 'files' },
			},
			{ kind: 'long_text', label: 'Anything else we should know?', property: { name: 'Notes', type: 'rich_text' } },
		],
	},
	{
		id: 'bug_report',
		name: 'Bug report',
		description: 'Let users report a problem with its severity, the steps and screenshots.',
		items: [
			{ kind: 'heading', label: 'Report a bug' },
			{
				kind: 'paragraph',
				label: 'Introduction',
				body: 'The more precise the steps, the sooner we can fix it. Thank you for taking the time.',
			},
			{
				kind: 'short_text',
				label: 'Summary',
				required: true,
				placeholder: 'The export button does nothing',
				property: { name: 'Summary', type: 'title' },
			},
			{
				kind: 'select',
				label: 'How bad is it?',
				required: true,
				choices: ['Blocks my work', 'Major', 'Minor', 'Cosmetic'],
				property: { name: 'Severity', type: 'select' },
			},
			{
				kind: 'long_text',
				label: 'Steps to reproduce',
				required: true,
				placeholder: '1. Open…\n2. Click…\n3. See…',
				property: { name: 'Steps', type: 'rich_text' },
			},
			{ kind: 'long_text', label: 'What did you expect to happen?', property: { name: 'Expected', type: 'rich_text' } },
			{ kind: 'long_text', label: 'What happened instead?', property: { name: 'Actual', type: 'rich_text' } },
			{
				kind: 'short_text',
				label: 'Browser and device',
				placeholder: 'Firefox 140 on Windows 11',
				property: { name: 'Environment', type: 'rich_text' },
			},
			{ kind: 'files', label: 'Screenshots', property: { name: 'Screenshots', type: 'files' } },
			{
				kind: 'email',
				label: 'Your email',
				helpText: 'So we can tell you when it is fixed.',
				property: { name: 'Reporter', type: 'email' },
			},
		],
	},
]

/** The template of an id. */
export function formTemplate(id: FormTemplateId): FormTemplate {
	const template = formTemplates.find((candidate) => candidate.id === id)
	if (!template) {
		throw new Error(`No form template ${id}`)
	}
	return template
}

/** The questions of a template (what the gallery lists as what it asks). */
export function templateQuestions(template: FormTemplate): TemplateQuestion[] {
	return template.items.filter(isTemplateQuestion)
}

/** How many pages a template's form has. */
export function templatePageCount(template: FormTemplate): number {
	return 1 + template.items.filter((item) => item.kind === 'page_break').length
}

/**
 * The input of `formFieldSchema` for one item, writing `propertyId` (null: kept with the answer
 * only; always null for content). A bound select or multi-select takes its choices from the
 * property's options, so the field's own `choices` are only kept when it has no property.
 */
export function templateFieldInput(item: TemplateItem, id: string, propertyId: string | null) {
	if (!isTemplateQuestion(item)) {
		return { id, kind: item.kind, label: item.label, propertyId: null, body: item.body ?? null }
	}
	const ownChoices =
		item.kind === 'ranking' || ((item.kind === 'select' || item.kind === 'multi_select') && propertyId === null)
	return {
		id,
		kind: item.kind,
		label: item.label,
		propertyId,
		helpText: item.helpText ?? null,
		placeholder: item.placeholder ?? null,
		required: item.required ?? false,
		choices: ownChoices ? (item.choices ?? null) : null,
		scale: item.scale ? { minLabel: null, maxLabel: null, ...item.scale } : null,
	}
}
