import { useParams } from 'react-router'
import { FormPage } from '#src/features/forms/public/form-page.tsx'

/**
 * /forms/{id} inside the app: reached only by a client-side navigation or on the dev server, since
 * the server answers a direct visit with form.html, the page's own small entry. The same page,
 * fetching its data from the API instead of reading it from the HTML.
 */
export function PublicFormPage() {
	const { id = '' } = useParams()
	return <FormPage key={id} idOrSlug={id} />
}
