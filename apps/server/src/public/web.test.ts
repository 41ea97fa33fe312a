import { expect, test } from 'vitest'
import { withPage } from './web.ts'

const template =
	'<!doctype html><html><head><title>App</title><meta name="description" content="x" /><link rel="icon" href="/favicon.svg"></head><body><div id="root"></div><script type="module" src="/assets/chart.js"></script></body></html>'

test('a page puts its head, data and body into the template', () => {
	const html = withPage(template, {
		head: '<title>Chart</title>',
		data: { chart: { name: '</script><script>alert(1)</script>' } },
		body: '<figure><svg></svg></figure>',
	})
	expect(html).toContain('<title>Chart</title>')
	expect(html).not.toContain('<title>App</title>')
	expect(html).toContain('<div id="root"><figure><svg></svg></figure></div>')
	expect(html).not.toContain('</script><script>alert(1)')
	expect(html.match(/id="blocksmith-page">(.*?)<\/script>/)?.[1]).toBe(
		'{"chart":{"name":"\\u003c/script>\\u003cscript>alert(1)\\u003c/script>"}}',
	)
})

test('without a body the root stays empty for the script to fill', () => {
	expect(withPage(template, { head: '', data: {} })).toContain('<div id="root"></div>')
})

test('dollar signs in the head or body are text, not replacement patterns', () => {
	const html = withPage(template, {
		head: "<title>Revenue in $ $& $' $`</title>",
		data: { note: "$'" },
		body: "<p>$' and $&</p>",
	})
	expect(html).toContain("<title>Revenue in $ $& $' $`</title>")
	expect(html).toContain(`<div id="root"><p>$' and $&</p></div>`)
	expect(html.match(/<html>/g)).toHaveLength(1)
})
