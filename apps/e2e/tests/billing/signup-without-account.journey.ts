import assert from 'node:assert/strict'
import { test } from 'node:test'
import {
	api,
	assertNoProblems,
	linkIn,
	newPage,
	pathOf,
	signInWithForm,
	useBrowser,
	waitForHome,
	waitForMail,
	waitForPath,
} from '../../fixtures.ts'
import { uniqueEmail } from '../../http-api.ts'
import { billingPath, orgDetails, planHeading } from './billing-steps.ts'

// Buying before having an account, with the local provider: the pricing page's short form
// sends a link first, and the account (with its organization, on the plan chosen) is made when
// the link is opened; the link then leads to choosing the first password.

const browser = useBrowser()

test('a visitor picks Business yearly on the pricing page, confirms by mail, chooses a password and starts on that plan', async (t) => {
	const name = 'Vera Visitor'
	const email = uniqueEmail('visitor')
	const organization = 'Visitor Studio'
	const password = 'a plan before an account'
	const { page, context, problems } = await newPage(browser())
	t.after(() => context.close())

	await page.goto('/pricing')
	await page.getByRole('heading', { level: 1, name: 'Plans and pricing' }).waitFor()
	await page.getByText('14-day free trial, no card needed.').waitFor()
	const business = page.getByRole('listitem', { name: 'Business' })
	await business.getByText('Billed monthly').waitFor()
	// The interval switch draws its radios as a segmented control: its labels are what one clicks.
	const yearly = page.getByRole('radio', { name: /^Yearly/ })
	await page.locator('label').filter({ has: yearly }).click()
	assert.ok(await yearly.isChecked())
	// A year costs ten months: $790 at once, shown as its monthly share.
	await business.getByText('Billed $790 yearly').waitFor()
	await business.getByRole('button', { name: 'Choose Business' }).click()

	const start = page.getByRole('dialog', { name: 'Start with Business' })
	await start.getByText(/14 days free, no card needed; then billed yearly\. We e-mail you a link/).waitFor()
	await start.getByLabel('Name', { exact: true }).fill(name)
	await start.getByLabel('Work e-mail').fill(email)
	await start.getByLabel('Organization name (optional)').fill(organization)
	await start.getByRole('button', { name: 'Continue' }).click()
	const sent = start.getByRole('status').filter({ hasText: 'Check your e-mail' })
	await sent.waitFor()
	assert.match(
		(await sent.textContent()) ?? '',
		new RegExp(`We sent a link to ${email.replace(/[.]/g, '\\.')}\\. Open it to confirm your address`),
	)
	await start.getByRole('button', { name: 'Done' }).click()
	await start.waitFor({ state: 'detached' })
	// Nothing exists until the link is opened: the address cannot sign in yet.
	assert.equal((await api.call('/api/auth/sign-in/email', { json: { email, password } })).status, 401)

	const mail = await waitForMail(email, (candidate) => candidate.subject.includes('start your Business trial'))
	const link = linkIn(mail, '/confirm')
	assert.match(link, /^\/confirm\?token=signup\./)
	await page.goto(link)
	await page.getByText('Your e-mail address is confirmed. Choose a password to sign in.').waitFor()
	await page.getByRole('link', { name: 'Choose a password' }).click()
	await page.waitForURL((url) => url.pathname === '/reset-password' && url.searchParams.get('welcome') === '1')
	await page.getByRole('heading', { level: 1, name: 'Choose your password' }).waitFor()
	await page.getByLabel('New password').fill(password)
	await page.getByLabel('Repeat the password').fill(password)
	await page.getByRole('button', { name: 'Change password' }).click()
	await page.getByRole('heading', { level: 1, name: 'Password saved' }).waitFor()
	await page.getByRole('link', { name: 'Sign in', exact: true }).click()
	await waitForPath(page, '/login')
	await signInWithForm(page, email, password)
	await waitForHome(page, name)

	// The organization was made as the form said, on the plan and interval chosen, on its trial.
	await page
		.getByRole('button', { name: /switch organization/i })
		.filter({ hasText: organization })
		.waitFor()
	await page.getByText('Trial: 14 days left').waitFor()
	await page.goto(billingPath)
	const heading = planHeading(page, 'Business')
	await heading.waitFor()
	assert.match((await heading.textContent()) ?? '', /Trial — 14 days left/)
	await page.getByText('$790.00 yearly').waitFor()
	const token = await page.evaluate(() => localStorage.getItem('blocksmith.token'))
	assert.ok(token)
	const details = await orgDetails(api, token)
	assert.deepEqual(
		{ name: details.name, plan: details.plan, state: details.subscriptionState },
		{ name: organization, plan: 'business', state: 'trialing' },
	)
	assert.equal(pathOf(page), billingPath)
	assertNoProblems(problems)
})
